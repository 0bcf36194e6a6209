import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The console renders every agent blind, so no agent's vocabulary may appear in its source. The
// words are spelled backwards here so that this file, which must name them, does not contain them.
const FORBIDDEN = ['nrettap', 'erehw', 'nmuloc', 'remotsuc', 'sremotsuc', 'sgnippam', 'lliybaw', 'liame', 'tsefinam', 'etaghtron', 'gkxam', 'lecrap', 'slecrap'].map((word) =>
  [...word].reverse().join(''),
);
const WHOLE_WORD = new RegExp(`\\b(${FORBIDDEN.join('|')})\\b`, 'gi');

const SOURCE = fileURLToPath(new URL('.', import.meta.url));

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)]));
}

/** Every forbidden word in a text, with its line number. */
export function vocabularyIn(text: string): { line: number; word: string }[] {
  return text.split('\n').flatMap((line, index) => [...line.matchAll(WHOLE_WORD)].map((match) => ({ line: index + 1, word: match[0] })));
}

describe("the console's source names no agent's vocabulary", () => {
  it('finds none of the words, as whole words in any case, in any file under src', () => {
    const found = filesUnder(SOURCE).flatMap((file) => vocabularyIn(readFileSync(file, 'utf8')).map((hit) => `${relative(SOURCE, file)}:${hit.line} ${hit.word}`));
    expect(filesUnder(SOURCE).length).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });

  it('would catch them: whole words, any case, but not inside longer words', () => {
    const sample = `${FORBIDDEN[0]!.toUpperCase()} x; grid-${FORBIDDEN[2]}: 1; ${FORBIDDEN[2]}s; pre${FORBIDDEN[6]}`;
    expect(vocabularyIn(sample).map((hit) => hit.word.toLowerCase())).toEqual([FORBIDDEN[0], FORBIDDEN[2]]);
  });
});
