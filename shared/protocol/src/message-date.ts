/** A day, in ms. */
const DAY = 86_400_000;

/** How far ahead of its arrival a message's own date may be: a year (prepared streams are replayed ahead of their dates). */
export const MESSAGE_DATE_AHEAD_MS = 366 * DAY;

/**
 * Whether a date a message gives itself (an email's `Date:`, a manifest's file name) may count as
 * that message's date in the numbers (SPEC §6.8): from 1970 on, and at most a year after the message
 * arrived (a clock or a replay may be ahead by weeks; a year 9999 is no message's date). Anything else
 * — `-271821-04-20`, `9999-12-31` — is not used, and the message counts on the day it arrived. One
 * rule, for every place a message's date enters: the agents reading it and the runtime recording it.
 */
export function plausibleMessageDate(at: number, receivedAt: number = Date.now()): boolean {
  return Number.isFinite(at) && at >= 0 && at <= receivedAt + MESSAGE_DATE_AHEAD_MS;
}
