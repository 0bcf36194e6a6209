import { describe, expect, it } from 'vitest';
import { refusalOf } from '@learnables/testing';
import type { LessonValue } from '@learnables/protocol';
import { ColumnMapping, checkSeedMappings, columnMappingKind } from './column-mapping.ts';
import { seedDefinition } from './fixtures.test-support.ts';

const waybill = () => new ColumnMapping('waybill', 'Waybill number', ['AWB', 'Waybill No'], true);

/** A lesson's value as the control plane hands it over: read with the learnable's schema, then learned. */
const teach = (mapping: ColumnMapping, value: LessonValue) => mapping.learn(mapping.readValue(value));

describe('ColumnMapping', () => {
  it('adds a heading exactly as the sheet shows it, trimmed', () => {
    const { next, changed } = teach(waybill(), { column: '  Air Waybill No ' });
    expect(changed).toBe(true);
    expect((next as ColumnMapping).columns).toEqual(['AWB', 'Waybill No', 'Air Waybill No']);
  });

  it('knows a heading it already has, whatever its case', () => {
    const before = waybill();
    expect(teach(before, { column: 'waybill no' })).toEqual({ next: before, changed: false });
  });

  it("says what it learned: reads waybill from the 'Air Waybill No' column", () => {
    expect(waybill().describes({ column: 'Air Waybill No' })).toBe("reads waybill from the 'Air Waybill No' column");
  });

  it.each([
    [{ column: '' }, 'a mapping needs a column'],
    [{}, 'a mapping needs a column'],
    [{ column: 7 }, 'a mapping needs a column'],
    [{ column: 'AWB', pattern: 'x' }, 'A mapping takes a column and, for some files only, their names; "pattern" is not one.'],
    [{ column: 'AWB', files: 7 }, 'A file-name pattern is text, such as #-#-#-shb-manifest-#.xlsx; leave it blank for every sheet.'],
    [{ column: 'AWB', files: 'in/#.xlsx' }, '"in/#.xlsx" holds a folder; give only the file\'s name, with # for each number.'],
    [
      { column: 'AWB', files: '2026#.xlsx' },
      'In "2026#.xlsx" a # stands beside a digit or another #; write # once for each whole number (2026-10-05 is #-#-#).',
    ],
    [{ column: 'AWB', files: '##.xlsx' }, 'In "##.xlsx" a # stands beside a digit or another #; write # once for each whole number (2026-10-05 is #-#-#).'],
    [
      { column: 'AWB', files: `${'x'.repeat(201)}` },
      'A file-name pattern of 201 characters is not a file name; give the name as it arrives, with # for each number.',
    ],
    [{ column: 'x'.repeat(201) }, 'A column heading of 201 characters is not a heading; give it as the sheet shows it.'],
  ])('refuses %j in a sentence', (value, sentence) => {
    expect(refusalOf(() => teach(waybill(), value))).toBe(sentence);
  });

  it('comes back from storage as it went in', () => {
    const back = columnMappingKind.fromState('waybill', JSON.parse(JSON.stringify(waybill().toState())));
    expect(back).toEqual(waybill());
  });

  it('refuses a seed entry it cannot read, naming it and the field', () => {
    expect(() => columnMappingKind.fromState('waybill', { label: 'Waybill', required: true, columns: 'AWB' })).toThrow(
      'mappings: "waybill" cannot be rebuilt from its state: columns: Invalid input: expected array, received string.',
    );
  });
});

describe('a heading another field already reads (SPEC §2.3.2)', () => {
  const weight = new ColumnMapping('weight', 'Weight', ['Weight', 'Gross Wt']);
  const pieces = new ColumnMapping('pieces', 'Pieces', ['Pcs'], false, [{ column: 'Qty', files: '#-#-#-brl-manifest-#.xlsx' }]);

  it('is refused, naming that field, in the learnable’s words', () => {
    expect(refusalOf(() => pieces.learn(pieces.readValue({ column: ' gross wt ' }), [weight]))).toBe(
      "'gross wt' is already the heading of Weight (weight); taught here too, both would be read from the same column. A column holds one field: if it is not Weight, retract that lesson first.",
    );
  });

  it('for the same files only: a heading scoped to one desk’s files does not block the same heading elsewhere', () => {
    const waybill = new ColumnMapping('waybill', 'Waybill number', ['AWB'], true);
    expect(waybill.learn(waybill.readValue({ column: 'Qty', files: '#-#-#-sky-manifest-#.xlsx' }), [pieces]).changed).toBe(true);
    expect(refusalOf(() => waybill.learn(waybill.readValue({ column: 'QTY', files: '#-#-#-BRL-manifest-#.xlsx' }), [pieces]))).toMatch(
      /^'QTY' is already the heading of Pieces \(pieces\) in files named like #-#-#-BRL-manifest-#\.xlsx;/,
    );
  });

  it('is refused in a seed at start-up, as is a heading a lesson could not teach; the shipped seed passes', () => {
    expect(() => checkSeedMappings([weight, new ColumnMapping('pieces', 'Pieces', ['WEIGHT'])])).toThrow(
      "The mappings seed breaks the rules lessons follow: 'Weight' is a heading of both weight and pieces, so both would be read from the same column.",
    );
    expect(() => checkSeedMappings([new ColumnMapping('x', 'X', ['y'.repeat(201)])])).toThrow(
      /x's heading 'y{40}' is one a lesson could not teach \(A column heading of 201 characters/,
    );
    expect(() => checkSeedMappings([...seedDefinition().entries])).not.toThrow();
  });
});
