import { describe, expect, it } from 'vitest';
import { fixture, refusalOf } from './fixtures.test-support.ts';
import { readCsv } from './read-csv.ts';
import type { ReadLimits, SheetInput } from './sheet-input.ts';
import { DEFAULT_LIMITS } from './sheet-input.ts';

const readWith = (bytes: Uint8Array, filename?: string, limits: Partial<ReadLimits> = {}): Promise<SheetInput> =>
  readCsv(bytes, filename, { ...DEFAULT_LIMITS, ...limits });
const read = (file: string): Promise<SheetInput> => readWith(fixture(file), file);

describe('readCsv', () => {
  it('decodes a latin1 CSV split on semicolons, and a UTF-8 CSV with quoted commas and quotes', async () => {
    const french = await read('06-semicolon-latin1.csv');
    expect(french.headings.at(-1)).toBe('Désignation');
    expect(french.rows.map((row) => row[6])).toContain('Vins; spiritueux');
    const quoted = await read('07-quoted-commas.csv');
    const cells = quoted.rows.flat();
    expect(cells).toContain('Zürich Instruments AG');
    expect(cells).toContain('Acme, Inc.');
    expect(cells).toContain('12" steel pipes, coated');
  });

  it('reads a title line and blank lines above the header past, and a row of bare separators as empty', async () => {
    const text = 'EXPORT MANIFEST;;\r\n;;\r\nAWB;Colis;Poids (kg)\r\n160-99421243;19;134,8\r\n;;\r\n006-16191523;12;213,3\r\n';
    const sheet = await readWith(Buffer.from(text, 'latin1'), 'm.csv');
    expect([sheet.headerRow, sheet.rowCount, sheet.headings]).toEqual([3, 2, ['AWB', 'Colis', 'Poids (kg)']]);
    expect(sheet.rows[1]).toEqual(['006-16191523', '12', '213,3']);
  });

  it('keeps the first rows, counts them all, and says it truncated', async () => {
    const sheet = await readWith(fixture('07-quoted-commas.csv'), '07-quoted-commas.csv', { maxRows: 2 });
    expect([sheet.rows.length, sheet.rowCount, sheet.truncated]).toEqual([2, 6, true]);
  });

  it('refuses a CSV with no row of headings, saying how many rows it looked at', async () => {
    const numbers = Array.from({ length: 60 }, (_, i) => `${i},${i * 2}`).join('\n');
    expect(await refusalOf(readWith(Buffer.from(numbers), 'numbers.csv'))).toMatch(
      /^I could not find the row of column headings in 'numbers\.csv': none of its first 50 filled rows has two or more headings side by side\./,
    );
  });

  it('refuses an empty CSV', async () => {
    expect(await refusalOf(readWith(new Uint8Array(), 'empty.csv'))).toBe("'empty.csv' is empty; there is no manifest in it to read.");
  });
});
