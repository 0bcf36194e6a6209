import type { Finding, Question, Reading } from '@learnables/runtime';
import type { ColumnMapping, MappingLesson } from './column-mapping.ts';
import { mappingLesson } from './column-mapping.ts';
import type { ManifestResult } from './manifest-result.ts';
import { manifestRows } from './manifest-rows.ts';
import type { ColumnMap, MappedColumn } from './map-columns.ts';
import { mapColumns, sameHeadedColumns, unmappedColumns } from './map-columns.ts';
import { sentences } from './reading-sentences.ts';
import type { SheetInput } from './sheet-input.ts';
import { suggestColumn } from './suggest-column.ts';

export const COLLECTION = 'mappings';

/** Columns the operator named for this sheet, by field; they never reach the definition. */
export type Answered = Readonly<Record<string, MappedColumn>>;

/**
 * Read a sheet under the pinned mappings: every field is mapped by `mapColumns`, then any column
 * the operator named for this sheet takes its field's place. A required field with no column
 * makes the reading unsettled, with one question about the first such field. Pure.
 */
export function readManifest(input: SheetInput, mappings: readonly ColumnMapping[], answered: Answered = {}): Reading<ManifestResult, MappingLesson> {
  const columns: ColumnMap = { ...mapColumns(input.headings, mappings), ...answered };
  const findings: Record<string, Finding> = {};
  for (const field of mappings) findings[field.key] = findingFor(field, columns[field.key] ?? null, field.key in answered, input);
  const missing = mappings.find((field) => field.required && !columns[field.key]);
  if (missing) return { settled: false, findings, question: questionFor(missing, input, columns) };
  return { settled: true, findings, result: resultOf(input, mappings, columns) };
}

function findingFor(field: ColumnMapping, column: MappedColumn | null, answered: boolean, input: SheetInput): Finding {
  if (column === null) {
    const reads = field.required ? sentences.missingRequired(field.key) : sentences.emptyField(field.key);
    return { settled: !field.required, reads, collection: COLLECTION };
  }
  const sameHeaded = sameHeadedColumns(input.headings, column.index).filter((at) => at > column.index).length;
  return { settled: true, reads: sentences.reads(field.key, column.heading, { answered, sameHeaded }), collection: COLLECTION };
}

/** A suggestion must be one the learnable takes (SPEC §2.4): asked of its own schema. */
const teachable = (column: MappedColumn): boolean => mappingLesson.safeParse({ column: column.heading }).success;

function questionFor(field: ColumnMapping, input: SheetInput, columns: ColumnMap): Question<MappingLesson> {
  const taken = Object.values(columns).flatMap((column) => (column ? [column.index] : []));
  const unplaced = unmappedColumns(input.headings, taken);
  // With every column placed, the answer may still be one of them: offer them all.
  const offered = unplaced.length > 0 ? unplaced : unmappedColumns(input.headings, []);
  const suggestion = suggestColumn(field, offered.filter(teachable), input.rows);
  return {
    collection: COLLECTION,
    question: sentences.question(field.label, input.filename, unplaced.map((column) => column.heading)),
    entries: offered.map((column) => ({ key: column.heading.trim(), label: column.heading.trim() })),
    entry: field.key,
    ...(suggestion ? { suggested: { column: suggestion.heading.trim() } } : {}),
  };
}

function resultOf(input: SheetInput, mappings: readonly ColumnMapping[], columns: ColumnMap): ManifestResult {
  const notes: string[] = [];
  for (const field of mappings) {
    const column = columns[field.key];
    if (!column) continue;
    const others = sameHeadedColumns(input.headings, column.index);
    if (others.length > 0) notes.push(sentences.duplicateNote(field.key, column.heading, [column.index, ...others].sort((a, b) => a - b)));
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
