import { CsvError } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectTable } from './collect-table.ts';
import { MAX_RECORD_CHARS, csvOptions, detectSeparator } from './csv-records.ts';
import { decodeText } from './decode-text.ts';
import { fixture, refusalOf } from './fixtures.test-support.ts';
import { readCsv } from './read-csv.ts';
import { refuse } from './refusals.ts';
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

/**
 * The way CSV was read before it was made faster, kept here as the reference: the bytes decoded to
 * text, split by csv-parse in one go (its sync API, the same options, an `on_record` hook as the
 * reader had), a record at a time into `collectTable`.
 */
async function readTheSlowWay(bytes: Uint8Array, limits: ReadLimits): Promise<Omit<SheetInput, 'filename' | 'format' | 'sheet'>> {
  const text = decodeText(bytes).text;
  const separator = await detectSeparator(text);
  const records = parseSync(text, { ...csvOptions(separator), on_record: (record: string[]) => record }) as string[][];
  return collectTable(
    records.map((cells, at) => ({ number: at + 1, cells })),
    limits.maxRows,
    { filename: 'm.csv', csv: true },
    limits,
  );
}

describe('readCsv, read a piece of the file at a time', () => {
  it('gives exactly what reading the decoded text a record at a time gives, for generated files in any encoding', async () => {
    const cell = fc.oneof(
      fc.constantFrom('', ' ', '\u00a0', '\t', 'AWB', 'Weight (kg)', '176-10000000', '12,5', '"quoted"', 'Zürich', '€ 5', ' lead', 'x\ny', '  '),
      fc.string({ unit: fc.constantFrom('a', 'é', ' ', ',', ';', '"', '\n', '\r', '1', '\u00a0', '\t', '€') }),
    );
    const table = fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 40 });
    const write = (rows: string[][], separator: string) =>
      rows.map((row) => row.map((value) => (/[",;\t\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value)).join(separator)).join('\r\n');
    await fc.assert(
      fc.asyncProperty(
        table,
        fc.constantFrom(',', ';', '\t'),
        fc.constantFrom('utf-8', 'utf-8 with BOM', 'windows-1252'),
        fc.integer({ min: 1, max: 50 }),
        async (rows, separator, encoding, maxRows) => {
          const text = write([['AWB', 'Consignee', 'Weight'], ...rows], separator);
          const bytes =
            encoding === 'windows-1252'
              ? Buffer.from(text.replaceAll('€', 'E'), 'latin1')
              : Buffer.from(`${encoding === 'utf-8 with BOM' ? '\ufeff' : ''}${text}`, 'utf8');
          const limits = { ...DEFAULT_LIMITS, maxRows };
          // The reference's own refusals are csv-parse's; the reader words them for the sender.
          const slow = await readTheSlowWay(bytes, limits).catch((error: CsvError | Error) =>
            error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED'
              ? refuse.quoteNotClosed('m.csv', Number(error.records) + 1).message
              : error.message,
          );
          const fast = await readWith(bytes, 'm.csv', limits).then(
            ({ headings, headerRow, rows: kept, rowCount, truncated }) => ({ headings, headerRow, rows: kept, rowCount, truncated }),
            (error: Error) => error.message,
          );
          expect(fast).toEqual(slow);
        },
      ),
      { numRuns: 300 },
    );
  });
});
