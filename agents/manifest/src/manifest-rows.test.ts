import { describe, expect, it } from 'vitest';
import type { Definition } from '@learnables/learnable';
import type { ColumnMapping } from './column-mapping.ts';
import { expected, fixture, seedDefinition, teach } from './fixtures.test-support.ts';
import type { ManifestRow } from './manifest-result.ts';
import { manifestRows } from './manifest-rows.ts';
import { mapColumns } from './map-columns.ts';
import { readSheet } from './read-sheet.ts';

const seed = seedDefinition();

async function rowsOf(file: string, definition: Definition<ColumnMapping> = seed): Promise<ManifestRow[]> {
  const sheet = await readSheet(fixture(file), file);
  return manifestRows(sheet, mapColumns(sheet.headings, definition.entries));
}

describe('manifestRows', () => {
  it('reads every field of a row from its column', async () => {
    const [first] = await rowsOf('01-basic.xlsx');
    expect(first).toEqual({ ...expected['01-basic.xlsx']?.firstRow, weight: { value: 287.2, unit: 'kg' } });
  });

  it('takes the unit from the heading: Gross Weight (kg)', async () => {
    const rows = await rowsOf('10-two-sheets.xlsx');
    expect(rows.every((row) => row.weight?.unit === 'kg')).toBe(true);
  });

  it('takes the unit from a Unit column row by row, kg and lb mixed', async () => {
    const sheet = await readSheet(fixture('02-title-blank-rows.xlsx'));
    const units = sheet.rows.map((row) => row[sheet.headings.indexOf('Unit')]);
    expect((await rowsOf('02-title-blank-rows.xlsx')).map((row) => row.weight?.unit)).toEqual(units);
    expect(new Set(units)).toEqual(new Set(['kg', 'lb']));
  });

  it('takes the unit from the cell: 374.8 kg, 109.8 lb, 317.7KG, 2,844.0 lbs', async () => {
    const weights = (await rowsOf('05-weight-in-cell.xlsx')).slice(0, 4).map((row) => row.weight);
    expect(weights.map((weight) => weight?.unit)).toEqual(['kg', 'lb', 'kg', 'lb']);
    expect(weights[0]?.value).toBe(374.8);
    expect(weights[3]?.value).toBeGreaterThan(1000);
    expect(Number.isInteger((weights[3]?.value ?? 0.5) * 10)).toBe(true);
  });

  it('leaves the unit null when nothing says it (a Gross Weight formula with no unit)', async () => {
    const [first] = await rowsOf('04-excel-types.xlsx');
    expect(first?.weight).toEqual({ value: expected['04-excel-types.xlsx']?.firstRow.weight, unit: null });
  });

  it('reads decimal commas and numeric text in a CSV once those columns are taught', async () => {
    const taught = teach(teach(seed, 'weight', 'Poids (kg)').definition, 'pieces', 'Colis').definition;
    const [first] = await rowsOf('06-semicolon-latin1.csv', taught);
    expect(first).toMatchObject({ pieces: 19, weight: { value: 134.8, unit: 'kg' }, consignee: null, description: 'Café torréfié' });
  });

  it('reads a UOM column for a weight column taught later', async () => {
    const [first] = await rowsOf('11-other-vocabulary.xlsx', teach(seed, 'weight', 'Wt').definition);
    expect(first?.weight).toEqual({ value: expected['11-other-vocabulary.xlsx']?.firstRow.weight, unit: 'lb' });
  });

  it('gives a numeric waybill as its digits', async () => {
    const [first] = await rowsOf('08-air-waybill-no.xlsx', teach(seed, 'waybill', 'Air Waybill No').definition);
    expect(first?.waybill).toBe('17675326473');
  });

  it('gives null for every field the sheet has no column for', async () => {
    const [first] = await rowsOf('11-other-vocabulary.xlsx');
    expect(first).toEqual({ waybill: 'NWC250314001', consignee: null, origin: null, destination: null, pieces: null, weight: null, description: null });
  });
});
