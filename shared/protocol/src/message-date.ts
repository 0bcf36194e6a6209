/** A day, in ms. */
const DAY = 86_400_000;

/**
 * Whether a date a message gives itself (an email's `Date:`, a manifest's file name) may count as
 * that message's date in the numbers (SPEC §6.8): from 1970 on, and at most a day after the message
 * arrived (clocks and time zones differ by hours, not days). Anything else — `-271821-04-20`, a year
 * 9999 — is not used, and the message counts on the day it arrived. One rule, for every place a
 * message's date enters: the agents reading it and the runtime recording it.
 */
export function plausibleMessageDate(at: number, receivedAt: number = Date.now()): boolean {
  return Number.isFinite(at) && at >= 0 && at <= receivedAt + DAY;
}
