import { sameHeading } from '@learnables/manifest-agent';
import type { ManifestTruth } from './stream.ts';

/** One field a manifest read from the wrong column: what it read, and the column it is in (null: the sheet has none for it). */
export interface WrongField {
  readonly field: string;
  readonly read: string | null;
  readonly right: string | null;
}

/**
 * The fields a decided manifest got wrong. A field is wrong when it was read from a column other
 * than its own: the truth's `column` for its `entry` (a field left without a column there is wrong
 * too: that field was the question), and, when the truth gives every field's heading, any other
 * field read from a column that is not its own (one left empty is incomplete, not wrong: nothing
 * was taken from the wrong column).
 */
export function wrongFields(truth: ManifestTruth, columns: Readonly<Record<string, unknown>> | undefined): WrongField[] {
  const read = (field: string): string | null => {
    const heading = columns !== undefined && Object.hasOwn(columns, field) ? columns[field] : null;
    return typeof heading === 'string' ? heading : null;
  };
  const wrong: WrongField[] = [];
  const main = read(truth.entry);
  if (main === null || !sameHeading(main, truth.column)) wrong.push({ field: truth.entry, read: main, right: truth.column });
  for (const [field, heading] of Object.entries(truth.columns ?? {})) {
    if (field === truth.entry) continue;
    const taken = read(field);
    if (taken === null || (heading !== null && sameHeading(taken, heading))) continue;
    wrong.push({ field, read: taken, right: heading });
  }
  return wrong;
}

/** What a decided manifest got wrong, in a sentence; undefined when nothing. */
export function wrongColumns(truth: ManifestTruth, columns: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const wrong = wrongFields(truth, columns).map(
    ({ field, read, right }) =>
      `${field} from ${read === null ? 'no column' : `'${read}'`}; ${right === null ? 'the sheet has no column for it' : `it is in '${right}'`}`,
  );
  return wrong.length === 0 ? undefined : `Read ${wrong.join(', and ')}.`;
}
