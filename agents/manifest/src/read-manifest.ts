import type { Finding, Question, Reading } from '@learnables/runtime';
import type { ColumnMapping, MappingLesson } from './column-mapping.ts';
import { mappingLesson, sameHeading } from './column-mapping.ts';
import type { ColumnFit } from './field-forms.ts';
import { fitFor } from './field-forms.ts';
import { patternOf } from './file-pattern.ts';
import type { ManifestResult } from './manifest-result.ts';
import { manifestRows } from './manifest-rows.ts';
import type { ColumnMap, MappedColumn } from './map-columns.ts';
import { mapColumns, sameHeadedColumns, unmappedColumns } from './map-columns.ts';
import type { ScopeReason } from './reading-sentences.ts';
import { sentences } from './reading-sentences.ts';
import type { SheetInput } from './sheet-input.ts';
import { namesField, suggestColumn } from './suggest-column.ts';

export const COLLECTION = 'mappings';

/** Columns the operator named for this sheet, by field; they never reach the definition. */
export type Answered = ReadonlyMap<string, MappedColumn>;

/** A learned heading's column whose values do not have its field's form: the field is not read from it. */
interface Misfit {
  readonly column: MappedColumn;
  readonly fit: ColumnFit;
}

/** Each field's column after the form check, how that column measured, and the columns that failed it. */
interface Placed {
  readonly columns: ColumnMap;
  readonly fits: ReadonlyMap<string, ColumnFit>;
  readonly misfits: ReadonlyMap<string, Misfit>;
}

/**
 * Every field's column: a column the operator named for this sheet, else the one `mapColumns`
 * finds under a learned heading, kept only when most of its values have the field's form (a
 * learned heading is evidence about the sheets it was learned from, the values about this one).
 */
function place(input: SheetInput, mappings: readonly ColumnMapping[], answered: Answered): Placed {
  const mapped = mapColumns(input.headings, mappings, input.filename);
  const columns: Record<string, MappedColumn | null> = {};
  const fits = new Map<string, ColumnFit>();
  const misfits = new Map<string, Misfit>();
  for (const field of mappings) {
    const named = answered.get(field.key);
    const column = named ?? mapped[field.key] ?? null;
    const fit = column === null ? undefined : fitFor(field.key, column, input.rows);
    if (fit !== undefined) fits.set(field.key, fit);
    // The operator's word stands: for this sheet (an answer), or for files named like this one (a
    // scoped lesson). Only a heading learned for every sheet is held to the form.
    if (column !== null && named === undefined && column.files === undefined && fit !== undefined && !fit.fits) {
      misfits.set(field.key, { column, fit });
      columns[field.key] = null;
    } else columns[field.key] = column;
  }
  return { columns, fits, misfits };
}

/**
 * Read a sheet under the pinned mappings: every field is mapped by `mapColumns` and held to its
 * form, then any column the operator named for this sheet takes its field's place. A required
 * field with no column (or a learned column whose values do not fit) makes the reading
 * unsettled, with one question about the first such field. Pure.
 */
export function readManifest(input: SheetInput, mappings: readonly ColumnMapping[], answered: Answered = new Map()): Reading<ManifestResult, MappingLesson> {
  const placed = place(input, mappings, answered);
  const { columns } = placed;
  const findings: Record<string, Finding> = {};
  for (const field of mappings) findings[field.key] = findingFor(field, placed, answered.has(field.key), input);
  const missing = mappings.find((field) => field.required && !columns[field.key]);
  if (missing) return { settled: false, findings, question: questionFor(missing, input, placed, mappings) };
  return { settled: true, findings, result: resultOf(input, mappings, columns) };
}

/**
 * `readManifest`'s findings alone, without its question or result (which read every row: a wide
 * sheet's result is most of its reading). What preview decides recent sheets by (the agent's
 * Decider): for every input and mappings, exactly `readManifest(input, mappings).findings`.
 */
export function manifestFindings(input: SheetInput, mappings: readonly ColumnMapping[]): Record<string, Finding> {
  const placed = place(input, mappings, new Map());
  const findings: Record<string, Finding> = {};
  for (const field of mappings) findings[field.key] = findingFor(field, placed, false, input);
  return findings;
}

function findingFor(field: ColumnMapping, { columns, fits, misfits }: Placed, answered: boolean, input: SheetInput): Finding {
  const misfit = misfits.get(field.key);
  if (misfit !== undefined) {
    return { settled: !field.required, reads: sentences.misfit(field.key, misfit.column.heading, misfit.fit, field.required), collection: COLLECTION };
  }
  const column = columns[field.key] ?? null;
  if (column === null) {
    const reads = field.required ? sentences.missingRequired(field.key) : sentences.emptyField(field.key);
    return { settled: !field.required, reads, collection: COLLECTION };
  }
  const sameHeaded = sameHeadedColumns(input.headings, column.index).filter((at) => at > column.index).length;
  return {
    settled: true,
    reads: sentences.reads(field.key, column.heading, { answered, sameHeaded, fit: fits.get(field.key), files: column.files }),
    collection: COLLECTION,
  };
}

/** A suggestion must be one the learnable takes (SPEC §2.4): asked of its own schema. */
const teachable = (column: MappedColumn): boolean => mappingLesson.safeParse({ column: column.heading }).success;

function questionFor(field: ColumnMapping, input: SheetInput, { columns, misfits }: Placed, mappings: readonly ColumnMapping[]): Question<MappingLesson> {
  const taken = Object.values(columns).flatMap((column) => (column ? [column.index] : []));
  const unplaced = unmappedColumns(input.headings, taken);
  // With every column placed, the answer may still be one of them: offer them all.
  const offered = unplaced.length > 0 ? unplaced : unmappedColumns(input.headings, []);
  const misfit = misfits.get(field.key);
  // The column whose values did not fit is offered (the operator may know better) but never
  // suggested, nor is a heading another field reads: its lesson would be refused (SPEC §2.3.1).
  const heldElsewhere = (column: MappedColumn): boolean =>
    mappings.some((other) => other.key !== field.key && other.columns.some((heading) => sameHeading(heading, column.heading)));
  const candidates = offered.filter((column) => teachable(column) && column.index !== misfit?.column.index && !heldElsewhere(column));
  const candidate = suggestColumn(field, candidates, input.rows);
  const headings = unplaced.map((column) => column.heading);
  const suggestedFit = candidate && fitFor(field.key, candidate, input.rows);
  const scoping = candidate && scopeFor(field, candidate, suggestedFit, misfit, input.filename);
  // A suggestion that needs a scope this sheet's name cannot give is not offered at all: for
  // every sheet it would be wider than its evidence (SPEC §2.3), and the sender chose the name.
  const suggestion = scoping === UNSCOPABLE ? undefined : candidate;
  const scope = scoping === UNSCOPABLE ? undefined : scoping;
  const files = scope?.files;
  const asked =
    misfit === undefined
      ? sentences.question(field.label, input.filename, headings)
      : sentences.misfitQuestion(
          field.label,
          misfit.column.heading,
          misfit.fit,
          headings,
          suggestion && suggestedFit && { heading: suggestion.heading, fit: suggestedFit },
        );
  return {
    collection: COLLECTION,
    question: suggestion && scope ? `${asked} ${sentences.scopedSuggestion(suggestion.heading, scope.files, scope.why)}` : asked,
    entries: offered.map((column) => ({ key: column.heading.trim(), label: column.heading.trim() })),
    entry: field.key,
    ...(suggestion ? { suggested: files ? { column: suggestion.heading.trim(), files } : { column: suggestion.heading.trim() } } : {}),
  };
}

/**
 * The file-name pattern a suggestion is scoped to (SPEC §2.3.1, §2.3.5), and why; undefined for
 * every sheet. A suggestion holds for every sheet only when its heading names the field in words
 * (`Air Waybill No`) and nothing on this sheet says otherwise. It is scoped when a heading learned
 * for the field holds something else here (the headings collide), when the suggested heading is a
 * word any desk uses for anything (`Ref`: this sheet is the only evidence of what it means), when
 * the column's values do not have the field's form (nothing on another sheet could check it), or
 * when the heading is one the field already reads everywhere (unscoped, the lesson would teach
 * nothing and the sheet ask again).
 */
function scopeFor(
  field: ColumnMapping,
  suggestion: MappedColumn,
  fit: ColumnFit | undefined,
  misfit: Misfit | undefined,
  filename: string,
): { readonly files: string; readonly why: ScopeReason } | typeof UNSCOPABLE | undefined {
  const why: ScopeReason | undefined =
    misfit !== undefined
      ? { collided: misfit.column.heading }
      : fit !== undefined && fit.values > 0 && !fit.fits
        ? 'unchecked'
        : field.columns.some((heading) => sameHeading(heading, suggestion.heading))
          ? 'known'
          : !namesField(field, suggestion.heading)
            ? 'generic'
            : undefined;
  if (why === undefined) return undefined;
  const files = patternOf(filename);
  // The scoped value must be one the learnable takes (SPEC §2.4); if not, nothing is suggested.
  return files !== undefined && mappingLesson.safeParse({ column: suggestion.heading, files }).success ? { files, why } : UNSCOPABLE;
}

/** A suggestion needs a scope that the sheet's file name cannot give (it holds #, or is too long). */
const UNSCOPABLE = Symbol('unscopable');

function resultOf(input: SheetInput, mappings: readonly ColumnMapping[], columns: ColumnMap): ManifestResult {
  const notes: string[] = [];
  for (const field of mappings) {
    const column = columns[field.key];
    if (!column) continue;
    const others = sameHeadedColumns(input.headings, column.index);
    if (others.length > 0)
      notes.push(
        sentences.duplicateNote(
          field.key,
          column.heading,
          [column.index, ...others].sort((a, b) => a - b),
        ),
      );
  }
  if (input.truncated) notes.push(sentences.truncatedNote(input.rows.length, input.rowCount));
  return {
    rows: manifestRows(input, columns),
    columns: Object.fromEntries(mappings.map((field) => [field.key, columns[field.key]?.heading ?? null])),
    rowCount: input.rowCount,
    truncated: input.truncated,
    notes,
  };
}
