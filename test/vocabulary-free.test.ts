import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCANNED_PACKAGES, agentVocabulary, agents, scannedTexts, sourceFiles, withoutComments } from '@learnables/stack';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * Every word that belongs to one agent's idea of a lesson: each registry line's `vocabulary`
 * (stack/src/agents.ts). None may appear in shared code, nor anywhere in the console's source.
 * The scan (stack/src/vocabulary-scan.ts) is the one `pnpm new-agent` reads to propose words.
 */
const AGENT_WORDS = agentVocabulary;

/** Each agent word in a text, as a whole word in any case, with its line. */
function wordsIn(text: string, vocabulary: readonly string[] = AGENT_WORDS): { line: number; word: string }[] {
  if (vocabulary.length === 0) return [];
  const whole = new RegExp(`\\b(${vocabulary.join('|')})\\b`, 'gi');
  return text.split('\n').flatMap((line, index) => [...line.matchAll(whole)].map((match) => ({ line: index + 1, word: match[0] })));
}

/**
 * What to do about the hits, one sentence per word: a word of an agent's vocabulary that shared code
 * uses for its own purposes is the registry line's to drop, not the shared layer's to avoid. The
 * sentence names the line and the places.
 */
export function collisions(hits: readonly { where: string; word: string }[], lines: readonly { name: string; vocabulary: readonly string[] }[]): string[] {
  const byWord = new Map<string, string[]>();
  for (const hit of hits) byWord.set(hit.word.toLowerCase(), [...(byWord.get(hit.word.toLowerCase()) ?? []), hit.where]);
  return [...byWord].map(([word, where]) => {
    const owners = lines.filter((line) => line.vocabulary.includes(word)).map((line) => `registerAgent({ name: '${line.name}', … })`);
    return `"${word}" (${owners.join(', ')} in stack/src/agents.ts) is used ${where.length} time(s) by shared code, e.g. ${where.slice(0, 3).join(', ')}. If shared code uses it for its own purposes, remove "${word}" from that line's vocabulary; if shared code names that agent's field or entry, that code is wrong.`;
  });
}

const lines = agents.map((entry) => ({ name: entry.name, vocabulary: entry.vocabulary }));
const texts = scannedTexts(root);
const hitsUnder = (folder: string) =>
  texts
    .filter(({ file }) => file.startsWith(join(root, folder)))
    .flatMap(({ file, text }) => wordsIn(text).map((hit) => ({ where: `${file.slice(root.length)}:${hit.line}`, word: hit.word })));

describe('the layers between a client and a learnable carry no agent vocabulary', () => {
  for (const pkg of SCANNED_PACKAGES) {
    it(`shared/${pkg} names no field or entry of any agent in its code`, () => {
      expect(collisions(hitsUnder(`shared/${pkg}/src/`), lines)).toEqual([]);
    });
  }

  // The console renders every agent blind: not even its tests, styles or pages name an agent's words
  // (comments aside, as above: they may explain by example).
  it("the console's source names none of them, in code, tests, styles or pages", () => {
    expect(sourceFiles(join(root, 'shared', 'console', 'src'), () => true).length).toBeGreaterThan(20);
    expect(collisions(hitsUnder('shared/console/src/'), lines)).toEqual([]);
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

  it('says which registry line to change when a new agent\'s word is the framework\'s own (e.g. "ledger")', () => {
    const ledger = { name: 'ledger', vocabulary: ['ledger', 'invoice'] };
    const hits = texts.flatMap(({ file, text }) =>
      wordsIn(text, ['ledger', 'invoice']).map((hit) => ({ where: `${file.slice(root.length)}:${hit.line}`, word: hit.word })),
    );
    const said = collisions(hits, [ledger]);
    expect(said.length).toBeGreaterThan(0);
    expect(said[0]).toMatch(
      /^"ledger" \(registerAgent\(\{ name: 'ledger', … \}\) in stack\/src\/agents\.ts\) is used \d+ time\(s\) by shared code, e\.g\. shared\/.*remove "ledger" from that line's vocabulary/,
    );
  });
});
