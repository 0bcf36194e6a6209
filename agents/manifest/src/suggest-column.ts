import type { ColumnMapping } from './column-mapping.ts';
import type { MappedColumn } from './map-columns.ts';
import type { Cell } from './sheet-input.ts';

/** Words that name a field in more headings than the ones it has learned. */
const FIELD_WORDS: Readonly<Record<string, readonly string[]>> = { waybill: ['waybill', 'awb', 'bill'] };
/** What a field's values look like: an IATA air waybill is a 3-digit prefix and 8 digits. */
const FIELD_VALUES: Readonly<Record<string, RegExp>> = { waybill: /^\d{3}-?\d{8}$/ };

const FILLER = new Set(['no', 'nr', 'num', 'number', 'of', 'the', 'name', 'and', 'ref', 'code']);
const VALUES_SAMPLED = 20;

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];

function fieldWords(field: ColumnMapping): Set<string> {
  const words = [field.label, ...field.columns].flatMap(wordsOf).filter((word) => word.length >= 3 && !FILLER.has(word));
  return new Set([...words, ...(FIELD_WORDS[field.key] ?? [])]);
}

/** A heading word names the field when it is one of its words, or contains a long one ("airwaybill"). */
function headingNamesField(heading: string, words: ReadonlySet<string>): boolean {
  return wordsOf(heading).some((word) => words.has(word) || [...words].some((known) => known.length >= 5 && word.includes(known)));
}

function valuesLookLikeField(key: string, index: number, rows: readonly (readonly Cell[])[]): boolean {
  const shape = FIELD_VALUES[key];
  if (shape === undefined) return false;
  const values: string[] = [];
  for (const row of rows) {
    const cell = row[index];
    if (cell !== null && cell !== undefined) values.push(String(cell).trim());
    if (values.length >= VALUES_SAMPLED) break;
  }
  return values.length > 0 && values.filter((value) => shape.test(value)).length * 2 >= values.length;
}

/**
 * The column to offer as the answer for `field`, among `candidates`: the one whose heading names
 * the field and whose values look like it; else the one that does either; else the first. The
 * suggestion is a heading exactly as the sheet shows it, so it is never wider than this sheet.
 */
export function suggestColumn(field: ColumnMapping, candidates: readonly MappedColumn[], rows: readonly (readonly Cell[])[]): MappedColumn | undefined {
  const words = fieldWords(field);
  let best = candidates[0];
  let bestScore = 0;
  for (const candidate of candidates) {
    const score = (headingNamesField(candidate.heading, words) ? 2 : 0) + (valuesLookLikeField(field.key, candidate.index, rows) ? 1 : 0);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
