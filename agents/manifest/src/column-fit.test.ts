import { describe, expect, it } from 'vitest';
import { questionOf, resultOf, seedDefinition, teach } from './fixtures.test-support.ts';
import { readManifest } from './read-manifest.ts';
import { readSheet } from './read-sheet.ts';
import type { SheetInput } from './sheet-input.ts';

// Issue 19: a learned heading is evidence about one shipper's sheets, not about every sheet.
// Shipper A heads its air waybills `Ref`; Shipper B's `Ref` holds purchase orders and its air
// waybills stand under `AWB`, a heading the seed knows.

/** `count` valid air waybills: prefix, 7-digit serial, serial mod 7. */
const waybills = (count: number, from = 4_417_000): string[] => Array.from({ length: count }, (_, i) => `176-${from + i * 31}${(from + i * 31) % 7}`);
const purchaseOrders = (count: number): string[] => Array.from({ length: count }, (_, i) => `PO-${4471 + i}`);

function csv(filename: string, columns: Record<string, readonly (string | number)[]>): Promise<SheetInput> {
  const headings = Object.keys(columns);
  const rows = Math.max(...Object.values(columns).map((values) => values.length));
  const lines = [headings.join(',')];
  for (let row = 0; row < rows; row += 1) lines.push(headings.map((heading) => String(columns[heading]?.[row] ?? '')).join(','));
  return readSheet(new TextEncoder().encode(`${lines.join('\n')}\n`), filename);
}

const seed = seedDefinition();
/** The clerk taught `Ref` for the waybill on Shipper A's first sheet. */
const taughtRef = teach(seed, 'waybill', 'Ref').definition;

const sheetA = (n = 12) =>
  csv('2026-10-05-sha-manifest-101.csv', {
    Ref: waybills(n),
    Consignee: Array(n).fill('Paloma Textiles'),
    Pieces: Array(n).fill(3),
    'Weight (kg)': Array(n).fill('12.5'),
  });
const sheetB = (n = 12) =>
  csv('2026-10-06-shb-manifest-201.csv', {
    Ref: purchaseOrders(n),
    Consignee: Array(n).fill('Blue Fin Imports'),
    AWB: waybills(n, 5_100_000),
    Pcs: Array(n).fill(2),
    Weight: Array(n).fill('40 kg'),
  });

describe('a learned heading whose column does not hold its field (Shipper B)', () => {
  it('asks, suggesting the column whose values are air waybills, and says why in plain words; it does not complete', async () => {
    const reading = readManifest(await sheetB(), taughtRef.entries);
    expect(reading.settled).toBe(false);
    const question = questionOf(reading);
    expect(question.entry).toBe('waybill');
    // Scoped to Shipper B's file names: on its sheets `Ref` means something else (SPEC §2.3.1).
    expect(question.suggested).toEqual({ column: 'AWB', files: '#-#-#-shb-manifest-#.csv' });
    expect(question.question).toMatch(
      /^Which column holds the waybill number\? The column headed 'Ref' holds PO-4471, PO-4472, PO-4473, …, which are not air waybill numbers with a valid check digit \(12 of 12 values\), so I do not read it as the waybill number here; 12 of 12 values in 'AWB' are air waybill numbers with a valid check digit\./,
    );
    expect(question.entries.map((entry) => entry.key)).toEqual(expect.arrayContaining(['Ref', 'AWB']));
    expect(reading.findings.waybill).toEqual({
      settled: false,
      reads:
        "does not read waybill from the 'Ref' column, though I know that heading for it: 12 of 12 values in it are not air waybill numbers with a valid check digit (PO-4471, PO-4472, PO-4473, …), so I ask which column holds it",
      collection: 'mappings',
    });
  });

  it('asks when most values do not fit, reads when at least half do', async () => {
    const mostlyPo = await csv('m.csv', { Ref: [...purchaseOrders(3), ...waybills(2)], AWB: waybills(5, 5_100_000) });
    expect(readManifest(mostlyPo, taughtRef.entries).settled).toBe(false);
    const halfWaybills = await csv('m.csv', { Ref: [...purchaseOrders(2), ...waybills(2)], AWB: waybills(4, 5_100_000) });
    expect(resultOf(readManifest(halfWaybills, taughtRef.entries)).columns.waybill).toBe('Ref');
  });
});

describe('a learned heading whose column does hold its field (Shipper A)', () => {
  it('reads it, and the reading names the check that passed', async () => {
    const reading = readManifest(await sheetA(), taughtRef.entries);
    expect(resultOf(reading).columns.waybill).toBe('Ref');
    expect(reading.findings.waybill?.reads).toBe(
      "reads waybill from the 'Ref' column; 12 of 12 values in 'Ref' are air waybill numbers with a valid check digit",
    );
    expect(reading.findings.weight?.reads).toBe(
      "reads weight from the 'Weight (kg)' column; 12 of 12 values in 'Weight (kg)' are weights (a number, with or without kg or lb)",
    );
    expect(reading.findings.pieces?.reads).toBe("reads pieces from the 'Pieces' column; 12 of 12 values in 'Pieces' are whole numbers of pieces");
  });
});

describe('a sheet from a shipper never seen, with colliding headings', () => {
  it('is asked about, not decided: `Ref` (known) holds purchase orders, the air waybills are under a heading nobody taught', async () => {
    const sheet = await csv('unknown-shipper.csv', {
      Ref: purchaseOrders(6),
      'Shipment No': waybills(6, 2_000_000),
      Consignee: Array(6).fill('Cobalt Instruments'),
    });
    const question = questionOf(readManifest(sheet, taughtRef.entries));
    expect(question.suggested).toEqual({ column: 'Shipment No', files: 'unknown-shipper.csv' });
  });

  it('suggests, among unknown headings, the column with valid check digits over one of 11-digit numbers that are no waybills', async () => {
    // Both columns are eleven digits; only the second has check digits. The old rule (shape only) offered the first.
    const sheet = await csv('unknown-shipper.csv', { 'Order Ref': ['17612345670', '17612345671', '17612345672'], 'Shipment No': waybills(3, 2_000_000) });
    expect(questionOf(readManifest(sheet, seed.entries)).suggested).toEqual({ column: 'Shipment No', files: 'unknown-shipper.csv' });
  });

  it('leaves an optional field empty, saying why, when its known column holds something else', async () => {
    const sheet = await csv('m.csv', { AWB: waybills(4), Weight: ['fragile', 'keep dry', 'this way up', '12 kg'] });
    const reading = readManifest(sheet, seed.entries);
    const result = resultOf(reading);
    expect(result.columns.weight).toBeNull();
    expect(result.rows.every((row) => row.weight === null)).toBe(true);
    expect(reading.findings.weight).toEqual({
      settled: true,
      reads:
        "does not read weight from the 'Weight' column, though I know that heading for it: 3 of 4 values in it are not weights (a number, with or without kg or lb) (fragile, keep dry and this way up); weight comes back empty",
      collection: 'mappings',
    });
  });
});

describe('the operator’s answer for one sheet stands', () => {
  it('reads the column the operator named even when its values do not fit, and says how they measured', async () => {
    const { answerManifest } = await import('./answer-manifest.ts');
    const sheet = await sheetB(4);
    const question = questionOf(readManifest(sheet, taughtRef.entries));
    const reading = answerManifest(sheet, taughtRef.entries, question, { entry: 'Ref' });
    expect(resultOf(reading).columns.waybill).toBe('Ref');
    expect(reading.findings.waybill?.reads).toBe(
      "reads waybill from the 'Ref' column, as the operator answered; 0 of 4 values in 'Ref' are air waybill numbers with a valid check digit",
    );
  });
});
