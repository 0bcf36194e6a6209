export { scratchPostgres, TEST_PG_URL } from './postgres.ts';
export type { ScratchDatabase } from './postgres.ts';
export { scratchDir } from './scratch-dir.ts';
export type { ScratchDir } from './scratch-dir.ts';
export { WordList, wordListKind } from './word-list.ts';
export { refusalOf } from './refusal-of.ts';
