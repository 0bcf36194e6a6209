import { z } from 'zod';
import type { Learned, LessonValueOf } from '@learnables/learnable';
import { Learnable, defineKind, lessonField, lessonValue } from '@learnables/learnable';

/** Longer than any heading a sheet has; longer text is a paste of something else. */
const LONGEST_HEADING = 200;

/** A lesson's value: `{ column }`, a heading exactly as it appears in the sheet's header row (trimmed). */
export const mappingLesson = lessonValue(
  {
    column: lessonField.text({ missing: 'a mapping needs a column' }).refine((column) => column.length <= LONGEST_HEADING, {
      error: (issue) => `A column heading of ${String(issue.input).length} characters is not a heading; give it as the sheet shows it.`,
    }),
  },
  { unknownKey: (key) => `A mapping takes a column; "${key}" is not one.` },
);
export type MappingLesson = LessonValueOf<typeof mappingLesson>;

/** One field as stored, and as the seed writes it. */
const mappingState = z.object({ label: z.string(), required: z.boolean(), columns: z.array(z.string()).readonly() });
export type MappingState = z.infer<typeof mappingState>;

/** Headings are compared the way people read them: trimmed, case ignored. */
export const sameHeading = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * One field of a manifest and the column headings it has been seen under. A lesson adds one
 * heading: `{ column }`, exactly as it appears in the sheet's header row.
 */
export class ColumnMapping extends Learnable.of(mappingLesson) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly columns: readonly string[],
    readonly required = false,
  ) {
    super();
  }

  learn({ column }: MappingLesson): Learned<ColumnMapping> {
    if (this.columns.some((known) => sameHeading(known, column))) return { next: this, changed: false };
    return { next: new ColumnMapping(this.key, this.label, [...this.columns, column], this.required), changed: true };
  }

  describes({ column }: MappingLesson): string {
    return `reads ${this.key} from the '${column}' column`;
  }

  unlearn({ column }: MappingLesson): Learned<ColumnMapping> {
    const kept = this.columns.filter((known) => !sameHeading(known, column));
    if (kept.length === this.columns.length) return { next: this, changed: false };
    return { next: new ColumnMapping(this.key, this.label, kept, this.required), changed: true };
  }

  describesRetraction({ column }: MappingLesson): string {
    return `no longer reads ${this.key} from the '${column}' column`;
  }

  toState(): MappingState {
    return { label: this.label, required: this.required, columns: this.columns };
  }
}

/** How the authority rebuilds mappings from storage. */
export const columnMappingKind = defineKind({
  collection: 'mappings',
  learnable: ColumnMapping,
  state: mappingState,
  fromState: (key, { label, required, columns }) => new ColumnMapping(key, label, columns, required),
  // A field someone adds is optional: a manifest without its column is still read.
  create: (key, label) => new ColumnMapping(key, label, [], false),
});
