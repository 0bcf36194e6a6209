import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Definition } from '@learnables/learnable';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import type { PinnedDefinitions, Question, Reading } from '@learnables/runtime';
import { InputRefused, pinDefinitions } from '@learnables/runtime';
import type { ColumnMapping, MappingLesson, MappingState } from './column-mapping.ts';
import { columnMappingKind } from './column-mapping.ts';
import type { ManifestResult } from './manifest-result.ts';

export const FIELDS = ['waybill', 'consignee', 'origin', 'destination', 'pieces', 'weight', 'description'] as const;
export type Field = (typeof FIELDS)[number];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One entry of fixtures/manifests/expected.json; see the README there. */
export interface Expected {
  readonly headerRow: number | null;
  readonly rows: number | null;
  readonly columns: Record<Field, string | null>;
  readonly asks: Field | null;
  readonly error: 'truncated' | 'not-a-spreadsheet' | 'empty' | 'too-large' | 'encrypted' | null;
  readonly format: string;
  readonly columnIndexes: Record<Field, number | null>;
  readonly unmapped: Partial<Record<Field, string>>;
  readonly weightUnit: { from: 'heading'; unit: 'kg' | 'lb' } | { from: 'column'; column: string } | { from: 'cell' } | { from: 'unstated' } | null;
  readonly waybills: string[];
  readonly firstRow: Partial<Record<Field, Json>>;
  readonly [extra: string]: Json | undefined | object;
}

const root = (path: string): string => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const expected = JSON.parse(readFileSync(root('fixtures/manifests/expected.json'), 'utf8')) as Record<string, Expected>;

export const fixture = (file: string): Uint8Array => new Uint8Array(readFileSync(root(`fixtures/manifests/${file}`)));

export const goodFiles = Object.keys(expected).filter((file) => expected[file]?.error === null);
export const badFiles = Object.keys(expected).filter((file) => expected[file]?.error !== null);

/** The seed of fixtures/seeds/mappings.json as version 1 of the mappings definition. */
export function seedDefinition(): Definition<ColumnMapping> {
  const seed = JSON.parse(readFileSync(root('fixtures/seeds/mappings.json'), 'utf8')) as { entries: Record<string, MappingState> };
  return defineCollection(
    'mappings',
    Object.entries(seed.entries).map(([key, state]) => columnMappingKind.fromState(key, state)),
  );
}

export const pinned = (definition: Definition<ColumnMapping>, version = 1): PinnedDefinitions => pinDefinitions([{ ...definition, version }]);

/** Teach `entry` the heading `column`, as the authority would: through `absorbLesson`. */
export const teach = (definition: Definition<ColumnMapping>, entry: string, column: string) =>
  absorbLesson(definition, { collection: 'mappings', entry, value: { column }, taughtBy: 'dana', reason: 'seen on a manifest' });

export function resultOf(reading: Reading<ManifestResult, MappingLesson>): ManifestResult {
  if (!reading.settled) throw new Error(`expected a settled reading, and it asks: ${reading.question.question}`);
  return reading.result;
}

export function questionOf(reading: Reading<ManifestResult, MappingLesson>): Question<MappingLesson> {
  if (reading.settled) throw new Error('expected a question, and the reading settled');
  return reading.question;
}

/** The sentence an input is refused with; fails the test if it is not refused with InputRefused. */
export async function refusalOf(attempt: Promise<unknown>): Promise<string> {
  const error = await attempt.then(
    () => new Error('expected a refusal, and the input was read'),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof InputRefused)) throw error;
  return error.message;
}
