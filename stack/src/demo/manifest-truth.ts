import { sameHeading } from '@learnables/manifest-agent';
import type { ManifestTruth } from './stream.ts';

/**
 * What a manifest decided without asking got wrong, in a sentence; undefined when nothing. A field
 * is wrong when it was read from a column other than its own: the truth's `column` for its `entry`
 * (a field left without a column there is wrong too: that field was the question), and, when the
 * truth gives every field's heading, any other field read from a column that is not its own (one
 * left empty is incomplete, not wrong: nothing was taken from the wrong column).
 */
export function wrongColumns(truth: ManifestTruth, columns: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const read = (field: string): string | null => {
    const heading = columns !== undefined && Object.hasOwn(columns, field) ? columns[field] : null;
    return typeof heading === 'string' ? heading : null;
  };
  const wrong: string[] = [];
  const main = read(truth.entry);
  if (main === null || !sameHeading(main, truth.column)) {
    wrong.push(`${truth.entry} from ${main === null ? 'no column' : `'${main}'`}; it is in '${truth.column}'`);
  }
  for (const [field, heading] of Object.entries(truth.columns ?? {})) {
    if (field === truth.entry) continue;
    const taken = read(field);
    if (taken === null || (heading !== null && sameHeading(taken, heading))) continue;
    wrong.push(`${field} from '${taken}'; ${heading === null ? 'the sheet has no column for it' : `it is in '${heading}'`}`);
  }
  return wrong.length === 0 ? undefined : `Read ${wrong.join(', and ')}.`;
}
