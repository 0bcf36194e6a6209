import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { InputPart } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';
import { heldOut, lessonStream, scenario, seedExamples } from '../scripts/make-examples.ts';
import { LONGEST_EXAMPLE, handlingExamplesKind } from './handling-examples.ts';
import { classify, decide, modelOf } from './handling-model.ts';
import { tokensOf } from './tokens.ts';
import { MOST_ROWS, parseConsignment } from './parse-consignment.ts';

const text = (value: string): InputPart => ({ kind: 'text', text: value });

function refusalOf(parts: InputPart[]): string {
  try {
    parseConsignment(parts);
  } catch (error) {
    expect(error).toBeInstanceOf(InputRefused);
    return (error as InputRefused).message;
  }
  throw new Error('expected a refusal, and the consignment was read');
}

describe('parseConsignment', () => {
  it('reads one description from text (spacing tidied) or from data', () => {
    expect(parseConsignment([text('  frozen prawns,\t12 cartons ')])).toEqual({
      lines: [{ description: 'frozen prawns, 12 cartons', tokens: ['frozen', 'prawn', 'carton'] }],
    });
    expect(parseConsignment([data({ description: 'glass vases' })])).toEqual({ lines: [{ description: 'glass vases', tokens: tokensOf('glass vases') }] });
  });

  it('reads a CSV manifest, text or file, from its description column, rows numbered as a spreadsheet does', () => {
    const csv = 'Ref,Goods\nA1,glass vases\nA2,"frozen peas, 4 cartons"\n';
    expect(parseConsignment([text(csv)]).lines).toEqual([
      { row: 2, description: 'glass vases', tokens: tokensOf('glass vases') },
      { row: 3, description: 'frozen peas, 4 cartons', tokens: tokensOf('frozen peas, 4 cartons') },
    ]);
    const file: InputPart = { kind: 'file', bytes: new TextEncoder().encode(csv), mediaType: 'text/csv', filename: 'm.csv' };
    expect(parseConsignment([file]).lines).toHaveLength(2);
  });

  it('refuses, in a sentence, what it cannot read or what would cost too much to read', () => {
    expect(refusalOf([])).toMatch(/^There is no goods description in this message\./);
    expect(refusalOf([text('x'.repeat(LONGEST_EXAMPLE + 1))])).toBe(
      `This consignment's goods description is ${LONGEST_EXAMPLE + 1} characters long, more than the ${LONGEST_EXAMPLE} I read; give what the goods are, e.g. "frozen prawns, 12 cartons".`,
    );
    expect(refusalOf([text('Ref,Pieces\nA1,3')])).toMatch(/^This manifest has no description column \(its headings are "Ref", "Pieces"\)\./);
    expect(refusalOf([text(`Description\n${'glass\n'.repeat(MOST_ROWS + 1)}`)])).toBe(
      `This manifest has more than ${MOST_ROWS} rows; send it in parts of ${MOST_ROWS} rows or fewer.`,
    );
    expect(refusalOf([text('Description,Ref\nglass,1\n,2')])).toMatch(/^Row 3 has no goods description\./);
  });

  it('names a few of a manifest’s headings, not all of them: the sentence is kept with the task', () => {
    // 60,000 headings fit within the characters a manifest may have; the refusal stays a sentence.
    const headings = Array.from({ length: 60_000 }, (_, i) => `h${i}`).join(',');
    const refusal = refusalOf([text(`${headings}\n${'1,'.repeat(10)}`)]);
    expect(refusal).toMatch(/^This manifest has no description column \(its headings are "h0", "h1", .*"h11" and 59988 more\)\./);
    expect(refusal.length).toBeLessThan(1_000);
  });
});

const data = (value: unknown): InputPart => ({ kind: 'data', data: value });

describe('tokens taken while parsing (in a parse thread, for a large manifest)', () => {
  it('decide exactly as tokenizing the description when it is read', () => {
    const seed = JSON.parse(readFileSync(new URL('../seeds/handling.json', import.meta.url), 'utf8')) as { entries: Record<string, unknown> };
    const model = modelOf({ collection: 'handling', entries: Object.entries(seed.entries).map(([key, state]) => handlingExamplesKind.fromState(key, state)) });
    const csv = `Description\n${heldOut()
      .map((line) => `"${line.description}"`)
      .join('\n')}`;
    // As a thread hands it over: copied, not shared with this thread's memory of tokens.
    const parsed = structuredClone(parseConsignment([text(csv)]));
    for (const line of parsed.lines) expect(decide(model, line.description, line.tokens)).toEqual(decide(model, line.description));
  });
});

describe('the examples', () => {
  it('are written by scripts/make-examples.ts, the same every run, and the held-out set is never taught', () => {
    const seed = JSON.parse(readFileSync(new URL('../seeds/handling.json', import.meta.url), 'utf8')) as { entries: Record<string, { examples: string[] }> };
    const seeded = Object.values(seed.entries).flatMap((entry) => entry.examples);
    expect(seeded.sort()).toEqual(
      seedExamples()
        .map((line) => line.description)
        .sort(),
    );
    expect(JSON.parse(readFileSync(new URL('../fixtures/held-out.json', import.meta.url), 'utf8'))).toEqual(heldOut());
    expect(JSON.parse(readFileSync(new URL('../fixtures/lessons.json', import.meta.url), 'utf8'))).toEqual(lessonStream());
    expect(JSON.parse(readFileSync(new URL('../fixtures/scenario.json', import.meta.url), 'utf8'))).toEqual(scenario());
    const taught = new Set([...seeded, ...lessonStream().map((line) => line.description)].map((line) => line.toLowerCase()));
    expect(heldOut().filter((line) => taught.has(line.description.toLowerCase()))).toEqual([]);
  });

  it('a word such as __proto__ or constructor is a word: the classifier keys words in maps, not plain objects', () => {
    const entries = [
      handlingExamplesKind.fromState('general', {
        label: 'General cargo',
        examples: ['constructor toString hasOwnProperty valueOf', 'cotton shirts, cartons'],
      }),
      handlingExamplesKind.fromState('fragile', { label: 'Fragile', examples: ['glass vases __proto__', 'porcelain plates, crates'] }),
    ];
    const model = modelOf({ collection: 'handling', entries });
    expect(classify(model, 'constructor valueOf')[0]!.key).toBe('general');
    expect(classify(model, '__proto__ glass')[0]!.key).toBe('fragile');
  });
});
