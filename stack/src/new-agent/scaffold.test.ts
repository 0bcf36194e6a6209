import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { frameworkWords } from '../vocabulary-scan.ts';
import { addToRegistry, checkAnswers, vocabularyOf } from './scaffold.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const TAKEN = [4100, 4300, 4201, 4202, 4203, 4204];

describe('pnpm new-agent: what it is told', () => {
  it('fills in the defaults of each lesson and answer shape', () => {
    expect(checkAnswers({ name: 'carrier' }, TAKEN)).toEqual({
      name: 'carrier',
      collection: 'carrier-limits',
      entry: 'carrier',
      field: 'limit',
      lesson: 'number',
      answer: 'field',
      port: 4205,
    });
    expect(checkAnswers({ name: 'ledger', lesson: 'fields', answer: 'entry' }, TAKEN)).toMatchObject({ collection: 'ledger-rules', field: 'word' });
    expect(checkAnswers({ name: 'router', lesson: 'choice', answer: 'entry' }, TAKEN)).toMatchObject({ field: 'band' });
  });

  it.each([
    [{ name: 'x', lesson: 'date' }, '--lesson date is not a lesson shape; give one of number, text, choice, fields.'],
    [{ name: 'x', answer: 'both' }, '--answer both is not an answer shape; give field'],
    [{ name: 'x', lesson: 'fields', field: 'other' }, '"other" is not a lesson field name: use a camelCase word other than key, label, taught, other, match'],
    [{ name: 'Carrier' }, '"Carrier" is not an agent name'],
    [{ name: 'carrier', port: 4203 }, 'Port 4203 is taken by another service of the stack'],
  ])('refuses %j in a sentence', (raw, sentence) => {
    expect(() => checkAnswers(raw, TAKEN)).toThrow(sentence);
  });
});

describe("the vocabulary it proposes: the framework's own words left out, as the vocabulary scan reads them", () => {
  const words = frameworkWords(root);

  it('reads the words from shared code, so "ledger" (the runtime\'s) and "limit" are never proposed', () => {
    expect(words.has('ledger')).toBe(true);
    expect(words.has('limit')).toBe(true);
    const ledger = checkAnswers({ name: 'ledger', lesson: 'fields', answer: 'entry', entry: 'account', field: 'supplier' }, TAKEN);
    const proposed = vocabularyOf(ledger, words);
    expect(proposed).not.toContain('ledger');
    expect(proposed.every((word) => !words.has(word))).toBe(true);
  });

  it("falls back to the agent's own identifier when every word is the framework's", () => {
    expect(vocabularyOf(checkAnswers({ name: 'ledger' }, TAKEN), words)).toEqual(['ledgeragent']);
  });

  it('writes the registry line with the words it proposes', () => {
    const registry = "// the registry\nimport { a } from 'a';\nexport const agents: readonly RegisteredAgent[] = [\n];\n";
    expect(addToRegistry(registry, checkAnswers({ name: 'ledger' }, TAKEN), words)).toContain(
      "registerAgent({ name: 'ledger', kinds: [ledgerRuleKind], agent: async () => (await import('@learnables/ledger-agent')).ledgerAgent, seeds: ledgerSeeds, port: 4205, vocabulary: ['ledgeragent'] }),",
    );
  });
});
