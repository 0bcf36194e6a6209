import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentVocabulary, agents } from '@learnables/stack';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * Every word that belongs to one agent's idea of a lesson: each registry line's `vocabulary`
 * (stack/src/agents.ts). None may appear in shared code, nor anywhere in the console's source.
 */
const AGENT_WORDS = agentVocabulary;

function sourceFiles(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** The code without its comments: prose may give examples; code may not depend on them. */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Each agent word in a text, as a whole word in any case, with its line. */
function wordsIn(text: string): { line: number; word: string }[] {
  if (AGENT_WORDS.length === 0) return [];
  const whole = new RegExp(`\\b(${AGENT_WORDS.join('|')})\\b`, 'gi');
  return text.split('\n').flatMap((line, index) => [...line.matchAll(whole)].map((match) => ({ line: index + 1, word: match[0] })));
}

describe('the layers between a client and a learnable carry no agent vocabulary', () => {
  for (const pkg of ['protocol', 'learnable', 'authority', 'runtime']) {
    it(`shared/${pkg} names no field or entry of any agent in its code`, () => {
      const hits: string[] = [];
      for (const file of sourceFiles(join(root, 'shared', pkg, 'src'), (name) => name.endsWith('.ts') && !name.includes('.test'))) {
        for (const hit of wordsIn(withoutComments(readFileSync(file, 'utf8')))) hits.push(`${file.slice(root.length)}:${hit.line} ${hit.word}`);
      }
      expect(hits).toEqual([]);
    });
  }

  // The console renders every agent blind: not even its tests, styles or pages name an agent's words
  // (comments aside, as above: they may explain by example).
  it("the console's source names none of them, in code, tests, styles or pages", () => {
    const files = sourceFiles(join(root, 'shared', 'console', 'src'), () => true);
    const text = (file: string) => (file.endsWith('.ts') || file.endsWith('.css') ? withoutComments(readFileSync(file, 'utf8')) : readFileSync(file, 'utf8'));
    const hits = files.flatMap((file) => wordsIn(text(file)).map((hit) => `${file.slice(root.length)}:${hit.line} ${hit.word}`));
    expect(files.length).toBeGreaterThan(20);
    expect(hits).toEqual([]);
  });

  it('takes its words from every registered agent', () => {
    for (const entry of agents) expect(entry.vocabulary.length, `${entry.name} lists no vocabulary in stack/src/agents.ts`).toBeGreaterThan(0);
    expect(AGENT_WORDS).toEqual(expect.arrayContaining(['waybill', 'maxkg', 'customer']));
  });

  it('would catch a layer that named one (the scan itself can fail)', () => {
    expect(wordsIn(withoutComments("const field = value['waybill'];"))).toEqual([{ line: 1, word: 'waybill' }]);
    expect(wordsIn(withoutComments('// e.g. the waybill'))).toEqual([]);
    expect(wordsIn('MAXKG x;\npre-waybills, prewaybill').map((hit) => hit.word)).toEqual(['MAXKG']);
  });
});
