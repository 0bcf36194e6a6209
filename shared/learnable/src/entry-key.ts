import { createHash } from 'node:crypto';

/**
 * The key of a new entry, made from its label: lower-case ASCII letters and digits joined by
 * dashes ("Harbour & Sons Ltd." → "harbour-sons-ltd"). The same label always gives the same key,
 * so adding an entry twice finds the first. A label with no letter or digit left (e.g. written in
 * another script) gets a key from its hash, which is just as stable.
 */
export function entryKeyFor(label: string): string {
  const plain = label
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  if (plain !== '') return plain;
  return `entry-${createHash('sha256').update(label.trim()).digest('hex').slice(0, 12)}`;
}
