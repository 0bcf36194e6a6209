import type { ColumnMapping } from './column-mapping.ts';
import { sameHeading } from './column-mapping.ts';
import { fileMatches } from './file-pattern.ts';

/**
 * The column a field reads: its 0-based index and its heading exactly as the sheet shows it;
 * `files` when a lesson scoped to file names like this one's placed it.
 */
export interface MappedColumn {
  readonly index: number;
  readonly heading: string;
  readonly files?: string;
}

/** Each field's column, keyed by field, or null when none of its headings is in the sheet. */
export type ColumnMap = Readonly<Record<string, MappedColumn | null>>;

const isBlank = (heading: string): boolean => heading.trim() === '';

/**
 * The rule the card's `how` states: a heading matches a field when it equals one of the field's
 * learned headings after trimming, ignoring case; for each field the first (leftmost) matching
 * column wins; a field none of whose headings is in the sheet maps to null. Headings learned for
 * files named like `filename` only (scoped lessons) come first: they are the narrower evidence.
 */
export function mapColumns(headings: readonly string[], mappings: readonly ColumnMapping[], filename?: string): ColumnMap {
  const map: Record<string, MappedColumn | null> = {};
  for (const field of mappings) {
    const scoped = filename === undefined ? [] : field.scoped.filter((known) => fileMatches(known.files, filename));
    const scopedAt = headings.findIndex((heading) => !isBlank(heading) && scoped.some((known) => sameHeading(known.column, heading)));
    const scopedHeading = headings[scopedAt];
    if (scopedHeading !== undefined) {
      const files = scoped.find((known) => sameHeading(known.column, scopedHeading))?.files ?? '';
      map[field.key] = { index: scopedAt, heading: scopedHeading, files };
      continue;
    }
    const index = headings.findIndex((heading) => !isBlank(heading) && field.columns.some((known) => sameHeading(known, heading)));
    const heading = headings[index];
    map[field.key] = heading === undefined ? null : { index, heading };
  }
  return map;
}

/** The other columns headed the same as column `index` (trimmed, ignoring case), left to right. */
export function sameHeadedColumns(headings: readonly string[], index: number): number[] {
  const heading = headings[index];
  if (heading === undefined || isBlank(heading)) return [];
  return headings.flatMap((other, at) => (at !== index && sameHeading(other, heading) ? [at] : []));
}

/**
 * The columns no field reads, one per distinct heading (the leftmost), leaving out blank headings
 * and headings a field already reads elsewhere: the columns a question may offer.
 */
export function unmappedColumns(headings: readonly string[], taken: Iterable<number>): MappedColumn[] {
  const used = new Set(taken);
  const columns: MappedColumn[] = [];
  headings.forEach((heading, index) => {
    if (isBlank(heading) || used.has(index)) return;
    if (columns.some((column) => sameHeading(column.heading, heading))) return;
    if (headings.some((other, at) => used.has(at) && sameHeading(other, heading))) return;
    columns.push({ index, heading });
  });
  return columns;
}

/** Spreadsheet column letters for a 0-based index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
