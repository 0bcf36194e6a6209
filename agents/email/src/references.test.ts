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
    expect(findReferences('NGM/2026/1142, then BW-88213 and TWP2026118.')).toEqual(['NGM/2026/1142', 'BW-88213', 'TWP2026118']);
  });

  it('lists each reference once, in the order it first appears', () => {
    expect(findReferences('BW-88213 short; receipt 20 against BW-88213, rest on BW-88240')).toEqual(['BW-88213', 'BW-88240']);
  });

  it('finds a reference inside a file name', () => {
    expect(findReferences('DGD_ALC-2026-3310.pdf packing-list-QS-2026-118.csv')).toEqual(['ALC-2026-3310', 'QS-2026-118']);
  });

  it('does not start a reference mid-word or stop one mid-word', () => {
    expect(findReferences('XABCDEFG-12 xPA-2026-0901 9PA-2026-0901 PA-2026-0901é Lieferung')).toEqual([]);
    // A letter after the last digits makes a longer reference, taken whole, never the one inside it.
    expect(findReferences('PA-2026-0901X')).toEqual(['PA-2026-0901X']);
  });

  it('takes a reference with a prefix whole: KF-BK-2026-1282, never BK-2026-1282 (issue 35, class 7)', () => {
    expect(findReferences('Booking KF-BK-2026-1282 confirmed')).toEqual(['KF-BK-2026-1282']);
    expect(findReferences('B/L BL-SBF26-0587 attached')).toEqual(['BL-SBF26-0587']);
    expect(findReferences('Our ref X-PA-2026-0901, yours AB/CD12/345.')).toEqual(['X-PA-2026-0901', 'AB/CD12/345']);
  });

  it('takes the reference after words of a file name, where the words end: packing-list-QS-2026-118', () => {
    expect(findReferences('Invoice-INV-2026-01.pdf QS-2026-118-final.csv')).toEqual(['INV-2026-01', 'QS-2026-118']);
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

/** A part of a reference: capitals, capitals and digits, or digits (`KF`, `SBF26`, `2026`). */
const upper = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: min, maxLength: max });
const part = fc.oneof(
  upper(2, 5),
  fc.tuple(upper(1, 4), digits).map(([l, d]) => l + d),
  digits,
);
/** References of many shapes, with prefixes: `KF-BK-2026-1282`, `BL-SBF26-0587`, `X-PA-2026-0901`, `AB/CD12/345`. */
const prefixed = fc
  .tuple(
    fc.oneof(
      upper(1, 4),
      fc.tuple(upper(2, 4), digits).map(([l, d]) => l + d),
    ),
    fc.array(part, { minLength: 0, maxLength: 3 }),
    digits,
    fc.constantFrom('-', '/'),
  )
  .map(([head, middle, last, joint]) => [head, ...middle, last].join(joint))
  .filter((ref) => (ref.match(/[A-Z]/g) ?? []).length >= 2);
/** What may stand between references: spaces and punctuation, never a letter or digit touching one. */
const between = fc.constantFrom(' ', ', ', ': ', ' (', ') ', '. ', '\n', ' «', '» ', '; ', ' _', '_ ', ' "', '" ', ' -- ');

describe('references with prefixes, taken whole (issue 35, class 7)', () => {
  it('finds each generated reference exactly as it stands between separators, never a piece of it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(between, prefixed), { minLength: 1, maxLength: 5 }), between, (pieces, tail) => {
        const text = pieces.map(([before, ref]) => before + ref).join('') + tail;
        const found = findReferences(text);
        expect(new Set(found)).toEqual(new Set(pieces.map(([, ref]) => ref)));
      }),
    );
  });

  it('suggests for each a pattern that matches it, and neither a wider reference holding it nor a narrower one inside it', () => {
    fc.assert(
      fc.property(prefixed, upper(1, 3), (ref, extra) => {
        const text = `Booking ${ref} confirmed`;
        const [found] = findReferences(text);
        expect(found).toBe(ref);
        const suggestion = compileMark(referencePattern(found!));
        expect(suggestion.test(text)).toBe(true);
        for (const wider of [`${extra}-${ref}`, `${extra}/${ref}`, `${ref}-${extra}`, `${ref}/${extra}7`, `9-${ref}`]) {
          expect(suggestion.test(`Booking ${wider} confirmed`), `${ref} in ${wider}`).toBe(false);
        }
        const parts = ref.split(/[-/]/);
        if (parts.length > 1) {
          // The reference without its prefix is another shipment: its pattern does not take this one's mail.
          const inner = ref.slice(parts[0]!.length + 1);
          expect(compileMark(referencePattern(inner)).test(text), `${inner} inside ${ref}`).toBe(false);
        }
      }),
    );
  });
});
