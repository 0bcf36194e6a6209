// Preview reads a journaled input in pieces (`parseInPieces`), so that one large input does not
// hold the event loop for the whole of its JSON.parse. It must make exactly the value JSON.parse
// makes, and refuse what JSON.parse refuses: it is held to JSON.parse here over hand-picked
// corners and generated documents, with pieces small enough that every path is taken.
import { describe, expect, it } from 'vitest';
import { PIECE, parseInPieces } from './preview/json-in-pieces.ts';

/** A small deterministic generator, so a failure names a document that can be made again. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const STRINGS = [
  '',
  'a',
  'r1c2',
  'quote " inside',
  'back\\slash',
  'end\\',
  '\\"',
  'line\nbreak',
  'tab\t',
  'ünï©ødé ✓',
  '\u0000\u001f',
  '𝒳 astral',
  '\u2028',
  '__proto__',
  'constructor',
  '1',
  '01',
  '-0',
];
const KEYS = ['a', 'b', '__proto__', 'constructor', '1', '0', '10', '-1', 'toString', 'x y', '"', '\\', 'é'];

function value(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth <= 0 || pick < 0.35) {
    const leaf = next();
    if (leaf < 0.4) return STRINGS[Math.floor(next() * STRINGS.length)]! + (next() < 0.5 ? String(Math.floor(next() * 1000)) : '');
    if (leaf < 0.6) return Math.floor(next() * 1e6) / (next() < 0.5 ? 1 : 7);
    if (leaf < 0.7) return -next() * 1e21;
    if (leaf < 0.8) return null;
    return next() < 0.5;
  }
  const size = Math.floor(next() * (next() < 0.1 ? 40 : 5));
  if (pick < 0.7) return Array.from({ length: size }, () => value(next, depth - 1));
  return Object.fromEntries(
    Array.from({ length: size }, () => [
      KEYS[Math.floor(next() * KEYS.length)]! + (next() < 0.5 ? '' : String(Math.floor(next() * 5))),
      value(next, depth - 1),
    ]),
  );
}

/** JSON text with whitespace of every kind between tokens (JSON.stringify's indent gives newlines and spaces). */
const spaced = (text: string, next: () => number): string =>
  next() < 0.5 ? text : text.replace(/([,:[{])/g, (c) => `${c}${[' ', '\t', '\r\n', ''][Math.floor(next() * 4)]}`);

/** What each parse makes, compared by their JSON and by their own keys in order (a prototype set by `__proto__` would show). */
function same(text: string, made: unknown): void {
  const expected = JSON.parse(text) as unknown;
  expect(JSON.stringify(made)).toBe(JSON.stringify(expected));
  const shape = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(shape)
      : typeof v === 'object' && v !== null
        ? [Object.getPrototypeOf(v) === Object.prototype, Reflect.ownKeys(v), Object.values(v).map(shape)]
        : v;
  expect(shape(made)).toEqual(shape(expected));
}

const pauses = () => {
  let count = 0;
  return {
    pause: async () => void count++,
    get count() {
      return count;
    },
  };
};

describe('parseInPieces', () => {
  it('makes what JSON.parse makes of generated documents, with pieces of every size', async () => {
    const next = generator(20261203);
    for (let n = 0; n < 400; n++) {
      const text = spaced(JSON.stringify(value(next, 4), null, next() < 0.3 ? 2 : undefined), next);
      for (const piece of [1, 7, 40, 500]) same(text, await parseInPieces(text, async () => undefined, piece));
    }
  });

  it('keeps JSON.parse’s own rules: the last of a duplicate key in the first one’s place, __proto__ an own key, numbers as written', async () => {
    const texts = [
      '{"a":1,"b":2,"a":3}',
      '{"__proto__":{"polluted":true},"x":1}',
      '[{"__proto__":[1,2]},{"constructor":{"prototype":{"y":1}}}]',
      '{"b":1,"2":2,"a":3,"1":4,"2":5}',
      '[1e3, -0, 0.1, 1E-7, 123456789012345678901234567890]',
      '  [ "a" , [ ] , { } , [ [ ] ] , "\\u00e9\\"\\\\" ]  ',
      '"just a string that is long enough"',
      '{"long":"' + 'x'.repeat(100) + '","n":null}',
    ];
    for (const text of texts) for (const piece of [1, 3, 16]) same(text, await parseInPieces(text, async () => undefined, piece));
    const made = (await parseInPieces('{"__proto__":{"polluted":true}}', async () => undefined, 1)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what JSON.parse refuses', async () => {
    const bad = [
      '[1,]',
      '[1 2]',
      '{"a" 1}',
      '{"a":1,}',
      '{a:1}',
      '[1',
      '{"a":[1,2}',
      '["open',
      '[1]]',
      '[] []',
      '[nul]',
      '[01]',
      '{"a":1 "b":2}',
      '',
      ' ',
      '[,1]',
      '{,}',
      "['x']",
    ];
    for (const text of bad) {
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
      for (const piece of [1, 3, 64])
        await expect(
          parseInPieces(text, async () => undefined, piece),
          `${text} in pieces of ${piece}`,
        ).rejects.toThrow(SyntaxError);
    }
  });

  it('gives the loop a turn between pieces of a journaled sheet: no JSON.parse of more than a piece', async () => {
    // A 1.46 MB sheet as the manifest agent journals it (the worst-input bench's heavy sheet).
    const rows = Array.from({ length: 550 }, (_, row) => ['176-12345675', '12.5', '3', ...Array.from({ length: 253 }, (_, at) => `r${row}c${at}`)]);
    const sheet = {
      filename: 'heavy.csv',
      format: 'csv',
      sheet: null,
      headings: ['Waybill', 'Weight (kg)', 'Pieces', ...Array.from({ length: 253 }, (_, at) => `Heading ${at + 4}`)],
      headerRow: 1,
      rows,
      rowCount: 550,
      truncated: false,
    };
    const text = JSON.stringify(sheet);
    const longest = { chars: 0 };
    const parse = JSON.parse;
    JSON.parse = ((source: string, reviver?: Parameters<typeof parse>[1]) => {
      longest.chars = Math.max(longest.chars, source.length);
      return parse(source, reviver);
    }) as typeof JSON.parse;
    const paused = pauses();
    let made: unknown;
    try {
      made = await parseInPieces(text, paused.pause);
    } finally {
      JSON.parse = parse;
    }
    same(text, made);
    expect(longest.chars).toBeLessThanOrEqual(PIECE + 2);
    expect(paused.count).toBeGreaterThanOrEqual(Math.floor(text.length / PIECE));
  });
});
