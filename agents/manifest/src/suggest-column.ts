import type { ColumnMapping } from './column-mapping.ts';
import { fitFor } from './field-forms.ts';
import type { MappedColumn } from './map-columns.ts';
import type { Cell } from './sheet-input.ts';

/** Words that name a field in more headings than the ones it has learned. A Map: field keys can be added. */
const FIELD_WORDS: ReadonlyMap<string, readonly string[]> = new Map([['waybill', ['waybill', 'awb', 'bill']]]);

const FILLER = new Set(['no', 'nr', 'num', 'number', 'of', 'the', 'name', 'and', 'ref', 'code']);
/** Enough values to tell a column's form; a question may weigh up to 256 columns. */
const VALUES_SAMPLED = 200;

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];

function fieldWords(field: ColumnMapping): Set<string> {
  const words = [field.label, ...field.columns].flatMap(wordsOf).filter((word) => word.length >= 3 && !FILLER.has(word));
  return new Set([...words, ...(FIELD_WORDS.get(field.key) ?? [])]);
}

/** Does `heading` name `field` in words (`Air Waybill No` the waybill; `Ref` nothing)? */
export const namesField = (field: ColumnMapping, heading: string): boolean => headingNamesField(heading, fieldWords(field));

/** A heading word names the field when it is one of its words, or contains a long one ("airwaybill"). */
function headingNamesField(heading: string, words: ReadonlySet<string>): boolean {
  return wordsOf(heading).some((word) => words.has(word) || [...words].some((known) => known.length >= 5 && word.includes(known)));
}

/** The column's values have the field's form (`field-forms.ts`), and there are some. */
function valuesFitField(key: string, column: MappedColumn, rows: readonly (readonly Cell[])[]): boolean {
  const fit = fitFor(key, column, rows, VALUES_SAMPLED);
  return fit !== undefined && fit.values > 0 && fit.fits;
}

/**
 * The column to offer as the answer for `field`, among `candidates`: the one whose values have
 * the field's form and whose heading names it; else the one whose values have the form; else
 * the one whose heading names it; else the first. Values come first: a heading is a word anyone
 * may use for anything (`Ref`), a valid check digit is not. The suggestion is a heading exactly
 * as the sheet shows it, so it is never wider than this sheet.
 */
export function suggestColumn(field: ColumnMapping, candidates: readonly MappedColumn[], rows: readonly (readonly Cell[])[]): MappedColumn | undefined {
  const words = fieldWords(field);
  let best = candidates[0];
  let bestScore = 0;
  for (const candidate of candidates) {
    const score = (valuesFitField(field.key, candidate, rows) ? 2 : 0) + (headingNamesField(candidate.heading, words) ? 1 : 0);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
