// "4 min ago" for people scanning a list; the exact time stays on hover (the element's title).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago `at` was, in the fewest words: "just now", "4 min ago", "3 h ago", "2 days ago", "5 weeks ago". */
export function ago(at: number, now: number): string {
  const span = Math.max(0, now - at);
  if (span < MINUTE) return 'just now';
  if (span < HOUR) return `${Math.floor(span / MINUTE)} min ago`;
  if (span < DAY) return `${Math.floor(span / HOUR)} h ago`;
  const days = Math.floor(span / DAY);
  if (days < 14) return days === 1 ? '1 day ago' : `${days} days ago`;
  if (days < 60) return `${Math.floor(days / 7)} weeks ago`;
  const months = Math.floor(days / 30);
  return months < 24 ? `${months} months ago` : `${Math.floor(days / 365)} years ago`;
}

/** How long something has waited, without "ago": "waiting 4 min". */
export function waited(at: number, now: number): string {
  const words = ago(at, now);
  return words === 'just now' ? 'waiting under a minute' : `waiting ${words.replace(/ ago$/, '')}`;
}
