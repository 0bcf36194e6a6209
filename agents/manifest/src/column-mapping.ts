import { z } from 'zod';
import type { Learned, LessonValueOf } from '@learnables/learnable';
import { Learnable, UnlearnableValue, defineKind, lessonField, lessonValue } from '@learnables/learnable';
import { patternProblem, samePattern } from './file-pattern.ts';

/** Longer than any heading a sheet has; longer text is a paste of something else. */
const LONGEST_HEADING = 200;

/**
 * `files`, the lesson's scope: a file-name pattern (`file-pattern.ts`), or absent for every sheet.
 * A form sends every field, so blank text is absent too.
 */
const filesField = z
  .unknown()
  .optional()
  .transform((raw, ctx): string | undefined => {
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
    if (typeof raw !== 'string') {
      ctx.issues.push({
        code: 'custom',
        message: 'A file-name pattern is text, such as #-#-#-shb-manifest-#.xlsx; leave it blank for every sheet.',
        input: raw,
      });
      return z.NEVER;
    }
    const problem = patternProblem(raw.trim());
    if (problem !== undefined) {
      ctx.issues.push({ code: 'custom', message: problem, input: raw });
      return z.NEVER;
    }
    return raw.trim();
  });

/**
 * A lesson's value: `{ column, files? }`, a heading exactly as it appears in the sheet's header row
 * (trimmed) and, when the heading means this field only on one sender's sheets, the file-name
 * pattern of those sheets (`#` for each number).
 */
export const mappingLesson = lessonValue(
  {
    column: lessonField.text({ missing: 'a mapping needs a column' }).refine((column) => column.length <= LONGEST_HEADING, {
      error: (issue) => `A column heading of ${String(issue.input).length} characters is not a heading; give it as the sheet shows it.`,
    }),
    files: filesField,
  },
  { unknownKey: (key) => `A mapping takes a column and, for some files only, their names; "${key}" is not one.` },
);
/** What the schema reads; `files` left out is the same as absent (a suggestion for every sheet has none). */
export type MappingLesson = Omit<LessonValueOf<typeof mappingLesson>, 'files'> & { readonly files?: string | undefined };

/** A heading learned for the files named like `files` only. */
export interface ScopedHeading {
  readonly column: string;
  readonly files: string;
}

/** One field as stored, and as the seed writes it; `scoped` only once a scoped lesson was taught. */
const mappingState = z.object({
  label: z.string(),
  required: z.boolean(),
  columns: z.array(z.string()).readonly(),
  scoped: z
    .array(z.object({ column: z.string(), files: z.string() }).readonly())
    .readonly()
    .optional(),
});
export type MappingState = z.infer<typeof mappingState>;

const sameScoped = (a: ScopedHeading, b: ScopedHeading): boolean => sameHeading(a.column, b.column) && samePattern(a.files, b.files);
const inFiles = (files: string | undefined): string => (files === undefined ? '' : ` in files named like ${files}`);

/** Headings are compared the way people read them: trimmed, case ignored. */
export const sameHeading = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * One field of a manifest and the column headings it has been seen under. A lesson adds one
 * heading: `{ column }`, exactly as it appears in the sheet's header row, for every sheet; or
 * `{ column, files }`, for the sheets whose file name matches `files` only (`scoped`).
 */
export class ColumnMapping extends Learnable.of(mappingLesson) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly columns: readonly string[],
    readonly required = false,
    readonly scoped: readonly ScopedHeading[] = [],
  ) {
    super();
  }

  learn({ column, files }: MappingLesson, others: readonly ColumnMapping[] = []): Learned<ColumnMapping> {
    refuseHeldElsewhere({ column, files }, others);
    if (files !== undefined) {
      const heading = { column, files };
      if (this.scoped.some((known) => sameScoped(known, heading))) return { next: this, changed: false };
      return { next: new ColumnMapping(this.key, this.label, this.columns, this.required, [...this.scoped, heading]), changed: true };
    }
    if (this.columns.some((known) => sameHeading(known, column))) return { next: this, changed: false };
    return { next: new ColumnMapping(this.key, this.label, [...this.columns, column], this.required, this.scoped), changed: true };
  }

  describes({ column, files }: MappingLesson): string {
    return `reads ${this.key} from the '${column}' column${inFiles(files)}`;
  }

  /** In words (SPEC §3.6): `#` is this agent's notation, so it is said as "…" with what it stands for. */
  override says({ column, files }: MappingLesson): string {
    const scope = files === undefined ? '' : `, on files named like '${files.replaceAll('#', '…')}'${files.includes('#') ? ' (… is any number)' : ''}`;
    return `the column headed '${column}'${scope}`;
  }

  unlearn({ column, files }: MappingLesson): Learned<ColumnMapping> {
    if (files !== undefined) {
      const kept = this.scoped.filter((known) => !sameScoped(known, { column, files }));
      if (kept.length === this.scoped.length) return { next: this, changed: false };
      return { next: new ColumnMapping(this.key, this.label, this.columns, this.required, kept), changed: true };
    }
    const kept = this.columns.filter((known) => !sameHeading(known, column));
    if (kept.length === this.columns.length) return { next: this, changed: false };
    return { next: new ColumnMapping(this.key, this.label, kept, this.required, this.scoped), changed: true };
  }

  describesRetraction({ column, files }: MappingLesson): string {
    return `no longer reads ${this.key} from the '${column}' column${inFiles(files)}`;
  }

  toState(): MappingState {
    // Unscoped fields store as they always did, so versions written before scopes read the same.
    return this.scoped.length === 0
      ? { label: this.label, required: this.required, columns: this.columns }
      : { label: this.label, required: this.required, columns: this.columns, scoped: this.scoped };
  }
}

/** Does `field` hold this heading, for the same files (or for every sheet)? */
const holds = (field: ColumnMapping, { column, files }: MappingLesson): boolean =>
  files === undefined ? field.columns.some((known) => sameHeading(known, column)) : field.scoped.some((known) => sameScoped(known, { column, files }));

/**
 * Refuse a heading another field already reads (SPEC §2.3.2): taught here too, both fields would
 * read the same column, and at least one of them wrongly.
 */
function refuseHeldElsewhere(value: MappingLesson, others: readonly ColumnMapping[]): void {
  const holder = others.find((other) => holds(other, value));
  if (holder === undefined) return;
  throw new UnlearnableValue(
    `'${value.column}' is already the heading of ${holder.label} (${holder.key})${inFiles(value.files)}; taught here too, both would be read from the same column. A column holds one field: if it is not ${holder.label}, retract that lesson first.`,
    { field: 'column' },
  );
}

/** A seed follows the rules lessons follow (SPEC §2.3.2): no heading read by two fields, none a lesson would refuse. */
export function checkSeedMappings(entries: readonly ColumnMapping[]): void {
  const problems: string[] = [];
  for (const [index, entry] of entries.entries()) {
    const values: MappingLesson[] = [...entry.columns.map((column) => ({ column })), ...entry.scoped];
    for (const value of values) {
      const refusal = mappingLesson.safeParse(value);
      if (!refusal.success)
        problems.push(
          `${entry.key}'s heading '${value.column.slice(0, 40)}' is one a lesson could not teach (${refusal.error.issues[0]?.message ?? 'refused'})`,
        );
      const holder = entries.slice(index + 1).find((other) => holds(other, value));
      if (holder !== undefined)
        problems.push(
          `'${value.column}'${inFiles(value.files)} is a heading of both ${entry.key} and ${holder.key}, so both would be read from the same column`,
        );
    }
  }
  if (problems.length > 0) throw new Error(`The mappings seed breaks the rules lessons follow: ${problems.join('; ')}.`);
}

/** How the authority rebuilds mappings from storage, and checks a seed at start-up. */
export const columnMappingKind = defineKind({
  collection: 'mappings',
  learnable: ColumnMapping,
  state: mappingState,
  fromState: (key, { label, required, columns, scoped }) => new ColumnMapping(key, label, columns, required, scoped ?? []),
  // A field someone adds is optional: a manifest without its column is still read.
  create: (key, label) => new ColumnMapping(key, label, [], false),
  checkSeed: checkSeedMappings,
});
