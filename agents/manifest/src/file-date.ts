import { plausibleMessageDate } from '@learnables/protocol';

const LEADING_DATE = /^(\d{4})-(\d{2})-(\d{2})(?!\d)/;

/**
 * The day a manifest's file name starts with (`2026-10-05-sky-manifest-482.xlsx`), at noon UTC.
 * A sheet carries no date of its own; forwarders commonly date the file instead. Without one, a
 * manifest counts on the day it arrives, as it does with a date before 1970 or more than a year ahead
 * (`plausibleMessageDate`).
 */
export function dateInFileName(filename: string): Date | undefined {
  const match = LEADING_DATE.exec(filename);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
  const real = date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
  return real && plausibleMessageDate(date.getTime()) ? date : undefined;
}
