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

export const sentences = {
  reads: (field: string, heading: string, how: { readonly answered: boolean; readonly sameHeaded: number }): string =>
    `reads ${field} from the ${quoted(heading)} column` +
    (how.sameHeaded > 0 ? `, the first of ${how.sameHeaded + 1} columns so headed` : '') +
    (how.answered ? ', as the operator answered' : ''),

  emptyField: (field: string): string => `no column for ${field}; it comes back empty`,

  missingRequired: (field: string): string => `no column for ${field}, which is required, so I ask which column holds it`,

  question: (label: string, filename: string, unplaced: readonly string[]): string =>
    `Which column holds the ${inSentence(label)}? None of the headings in '${filename}' is one I know for it` +
    (unplaced.length === 0 ? '.' : `; the ${unplaced.length === 1 ? 'column I could not place is' : 'columns I could not place are'} ${listed(unplaced)}.`),

  noSuchColumn: (heading: string): string => `There is no column headed ${quoted(heading)} in this sheet.`,

  duplicateNote: (field: string, heading: string, indexes: readonly number[]): string => {
    const letters = indexes.map(columnLetter);
    const columns = `${letters.slice(0, -1).join(', ')} and ${letters.at(-1)}`;
    return `Columns ${columns} have the same heading, ${quoted(heading)} (ignoring case and spaces); ${field} is read from ${letters[0]}, the first.`;
  },

  truncatedNote: (kept: number, rowCount: number): string =>
    `The sheet has ${rowCount.toLocaleString('en-US')} rows; the first ${kept.toLocaleString('en-US')} are listed here.`,
};
