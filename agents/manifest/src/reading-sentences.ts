import type { ColumnFit } from './field-forms.ts';
import { columnLetter } from './map-columns.ts';

/**
 * The agent's own words: what each finding `reads`, the question, and the notes on a result.
 * A finding is shown on its own by reread, so each sentence stands without the others.
 */

const quoted = (heading: string): string => `'${heading.trim()}'`;

function listed(headings: readonly string[], limit = 12): string {
  const shown = headings.slice(0, limit).map(quoted);
  const more = headings.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** `Waybill number` → `waybill number`, but `HS code` stays as it is. */
const inSentence = (label: string): string => (/^[A-Z][^A-Z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label);

/** `12 of 12 values in 'Ref' are air waybill numbers with a valid check digit`: the check a column passed. */
function checked(heading: string, fit: ColumnFit): string {
  if (fit.values === 0) return `${quoted(heading)} is empty, so there was nothing to check against ${fit.form.one}`;
  return `${fit.fitting.toLocaleString('en-US')} of ${fit.values.toLocaleString('en-US')} values in ${quoted(heading)} are ${fit.form.many}`;
}

/** `PO-4471, PO-4472 and PO-4473`: the values that did not fit, as the sheet shows them. */
function misfitValues(fit: ColumnFit): string {
  const shown = fit.misfits.map((value) => (value.length > 40 ? `${value.slice(0, 40)}…` : value));
  const more = fit.values - fit.fitting > shown.length ? ', …' : '';
  if (shown.length <= 1) return `${shown.join('')}${more}`;
  return more ? `${shown.join(', ')}${more}` : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** Why a suggestion holds only for files named like this one. */
export type ScopeReason = { readonly collided: string } | 'unchecked' | 'known' | 'generic';

const scopeBecause = (heading: string, why: ScopeReason): string => {
  if (typeof why === 'object') return `${quoted(why.collided)} means something else on these sheets than on others`;
  if (why === 'unchecked') return `what ${quoted(heading)} holds here is not a form I could check on other senders’ sheets`;
  if (why === 'known') return `${quoted(heading)} is already read on every sheet, and here another column was taken first`;
  return `a heading such as ${quoted(heading)} may mean something else on other senders’ sheets`;
};

export const sentences = {
  reads: (
    field: string,
    heading: string,
    how: { readonly answered: boolean; readonly sameHeaded: number; readonly fit?: ColumnFit | undefined; readonly files?: string | undefined },
  ): string =>
    `reads ${field} from the ${quoted(heading)} column` +
    (how.sameHeaded > 0 ? `, the first of ${how.sameHeaded + 1} columns so headed` : '') +
    (how.answered ? ', as the operator answered' : '') +
    (how.files === undefined ? '' : `, as taught for files named like ${how.files}`) +
    (how.fit === undefined ? '' : `; ${checked(heading, how.fit)}`),

  /** A learned heading whose column holds something else: the field is not read from it. */
  misfit: (field: string, heading: string, fit: ColumnFit, required: boolean): string =>
    `does not read ${field} from the ${quoted(heading)} column, though I know that heading for it: ` +
    `${(fit.values - fit.fitting).toLocaleString('en-US')} of ${fit.values.toLocaleString('en-US')} values in it are not ${fit.form.many} (${misfitValues(fit)})` +
    (required ? ', so I ask which column holds it' : `; ${field} comes back empty`),

  /** Why a question is asked although a learned heading is in the sheet, said before the question. */
  misfitQuestion: (
    label: string,
    heading: string,
    fit: ColumnFit,
    unplaced: readonly string[],
    suggested: { readonly heading: string; readonly fit: ColumnFit } | undefined,
  ): string =>
    `Which column holds the ${inSentence(label)}? The column headed ${quoted(heading)} holds ${misfitValues(fit)}, which ${fit.values - fit.fitting === 1 ? `is not ${fit.form.one}` : `are not ${fit.form.many}`}` +
    ` (${(fit.values - fit.fitting).toLocaleString('en-US')} of ${fit.values.toLocaleString('en-US')} values), so I do not read it as the ${inSentence(label)} here` +
    (suggested !== undefined && suggested.fit.fits && suggested.fit.values > 0 ? `; ${checked(suggested.heading, suggested.fit)}` : '') +
    (unplaced.length === 0 ? '.' : `. The ${unplaced.length === 1 ? 'column I could not place is' : 'columns I could not place are'} ${listed(unplaced)}.`),

  emptyField: (field: string): string => `no column for ${field}; it comes back empty`,

  missingRequired: (field: string): string => `no column for ${field}, which is required, so I ask which column holds it`,

  question: (label: string, filename: string, unplaced: readonly string[]): string =>
    `Which column holds the ${inSentence(label)}? None of the headings in '${filename}' is one I know for it` +
    (unplaced.length === 0 ? '.' : `; the ${unplaced.length === 1 ? 'column I could not place is' : 'columns I could not place are'} ${listed(unplaced)}.`),

  /** Why a suggestion holds only for files named like this one; said after the question. */
  scopedSuggestion: (heading: string, files: string, why: ScopeReason): string =>
    `I suggest ${quoted(heading)} for files named like ${files} only (# stands for any number), because ${scopeBecause(heading, why)}.`,

  noSuchColumn: (heading: string): string => `There is no column headed ${quoted(heading)} in this sheet.`,

  duplicateNote: (field: string, heading: string, indexes: readonly number[]): string => {
    const letters = indexes.map(columnLetter);
    const columns = `${letters.slice(0, -1).join(', ')} and ${letters.at(-1)}`;
    return `Columns ${columns} have the same heading, ${quoted(heading)} (ignoring case and spaces); ${field} is read from ${letters[0]}, the first.`;
  },

  truncatedNote: (kept: number, rowCount: number): string =>
    `The sheet has ${rowCount.toLocaleString('en-US')} rows; the first ${kept.toLocaleString('en-US')} are listed here.`,
};
