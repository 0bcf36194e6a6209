import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileMark } from './customer-marks.ts';
import { referencePattern } from './mark-patterns.ts';
import { findReferences } from './references.ts';

describe('findReferences', () => {
  it('takes PA-2026-0901 whole, never PA-2026', () => {
    expect(findReferences('Pre-alert for our shipment PA-2026-0901: 6 pallets')).toEqual(['PA-2026-0901']);
  });

  it('finds references joined by slashes and by dashes, and ones with no separator after the letters', () => {
    expect(findReferences('NGM/2026/1142, then BW-88213 and TWP2026118.')).toEqual([
      'NGM/2026/1142',
      'BW-88213',
      'TWP2026118',
    ]);
  });

  it('lists each reference once, in the order it first appears', () => {
    expect(findReferences('BW-88213 short; receipt 20 against BW-88213, rest on BW-88240')).toEqual([
      'BW-88213',
      'BW-88240',
    ]);
  });

  it('finds a reference inside a file name', () => {
    expect(findReferences('DGD_ALC-2026-3310.pdf packing-list-QS-2026-118.csv')).toEqual([
      'ALC-2026-3310',
      'QS-2026-118',
    ]);
  });

  it('does not start a reference mid-word or stop one mid-word', () => {
    expect(findReferences('XABCDEFG-12 xPA-2026-0901 9PA-2026-0901 PA-2026-0901X PA-2026-0901é Lieferung')).toEqual([]);
  });

  it('does not take lower-case or single letters for a reference', () => {
    expect(findReferences('pa-2026-0901 A-2026 UN 1760')).toEqual([]);
  });
});

const letters = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 2, maxLength: 6 });
const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 6 });
const reference = fc
  .tuple(letters, fc.constantFrom('-', '/'), fc.array(digits, { minLength: 1, maxLength: 4 }), fc.constantFrom('-', '/'))
  .map(([prefix, first, groups, joint]) => `${prefix}${first}${groups.join(joint)}`);
/** Filler that may hold anything but letters and digits right where it touches a reference. */
const filler = fc.string({ maxLength: 30 }).map((text) => ` ${text} `);

/** A reference that shares everything but its end with the one given: the classic near miss. */
const nearMisses = (ref: string): string[] => [`${ref}1`, `${ref}-7`, `${ref}/7`, `X${ref}`, ref.slice(0, -1) || ref];

describe('findReferences and referencePattern, for any references in any text', () => {
  it('finds every reference set off by spaces, whole', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, reference), { minLength: 1, maxLength: 5 }), filler, (pieces, tail) => {
        const text = pieces.map(([before, ref]) => before + ref).join('') + tail;
        const found = findReferences(text);
        for (const [, ref] of pieces) expect(found).toContain(ref);
      }),
    );
  });

  it('suggests for each reference found a pattern that matches its text and no other reference', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, reference), { minLength: 1, maxLength: 5 }), filler, (pieces, tail) => {
        const text = pieces.map(([before, ref]) => before + ref).join('') + tail;
        const generated = pieces.map(([, ref]) => ref);
        for (const found of findReferences(text)) {
          const suggestion = compileMark(referencePattern(found));
          expect(suggestion.test(text)).toBe(true);
          const others = [...generated, ...nearMisses(found)].filter((other) => other !== found);
          for (const other of others) expect(suggestion.test(other), `${found} vs ${other}`).toBe(false);
        }
      }),
    );
  });
});
