import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';
import { describe, expect, it, vi } from 'vitest';
import { expected, fixture, refusalOf } from './fixtures.test-support.ts';
import { readXlsx } from './read-xlsx.ts';
import type { ReadLimits, SheetInput } from './sheet-input.ts';
import { DEFAULT_LIMITS } from './sheet-input.ts';
import { rewritePart, unzipParts, zipParts } from '@learnables/testing';
import fc from 'fast-check';
import { airWaybillNumber, sparseWideWorkbook, wideWorkbook, workbookOf } from './hostile-workbooks.test-support.ts';

const readWith = (bytes: Uint8Array, filename?: string, limits: Partial<ReadLimits> = {}): Promise<SheetInput> =>
  readXlsx(bytes, filename, { ...DEFAULT_LIMITS, ...limits });
const read = (file: string): Promise<SheetInput> => readWith(fixture(file), file);

describe('readXlsx reads the first sheet, streamed', () => {
  it('reads Excel dates as ISO dates, formulas as their cached result, rich text as plain text', async () => {
    const sheet = await read('04-excel-types.xlsx');
    const shipped = sheet.headings.indexOf('Shipped');
    const gross = sheet.headings.indexOf('Gross Weight');
    expect(sheet.headings).toContain('Consignee');
    for (const row of sheet.rows) {
      expect(row[shipped]).toMatch(/^2025-03-1[0-4]$/);
      expect(typeof row[gross]).toBe('number');
    }
    expect(sheet.rows[0]?.[gross]).toBe(expected['04-excel-types.xlsx']?.firstRow.weight);
  });

  it('reads a merged cell at its top-left cell only; the cells it covers read empty', async () => {
    const sheet = await read('03-merged-data.xlsx');
    const destination = sheet.headings.indexOf('Destination Airport');
    expect(sheet.rows[0]?.[destination]).toBe('CDG');
    expect(sheet.rows[1]?.[destination]).toBeNull();
    expect(sheet.rows[2]?.[destination]).toBeNull();
  });

  it('reads the first sheet and not the second, and names it', async () => {
    const sheet = await read('10-two-sheets.xlsx');
    expect(sheet.sheet).toBe('Manifest');
    expect(sheet.headings[0]).toBe('MAWB');
    expect(sheet.rowCount).toBe(6);
  });

  it("follows the workbook's tab order, not the order of the parts in the zip", async () => {
    const reordered = rewritePart(fixture('10-two-sheets.xlsx'), 'xl/workbook.xml', (xml) =>
      xml.replace(/(<sheet [^>]*name="Manifest"[^>]*\/>)(<sheet [^>]*name="Rates"[^>]*\/>)/, '$2$1'),
    );
    const sheet = await readWith(reordered, 'reordered.xlsx');
    expect(sheet.sheet).toBe('Rates');
    expect(sheet.headings).toEqual(['AWB', 'Destination', 'Rate per kg', 'Currency', 'Valid from']);
    expect(sheet.rowCount).toBe(15);
  });

  it('refuses a workbook whose first tab is not a worksheet, rather than read another tab', async () => {
    const chartFirst = rewritePart(fixture('01-basic.xlsx'), 'xl/workbook.xml', (xml) =>
      xml.replace('<sheets>', '<sheets><sheet name="Chart1" sheetId="9" r:id="rId99"/>'),
    );
    expect(await refusalOf(readWith(chartFirst, 'chart.xlsx'))).toBe(
      "The first sheet of 'chart.xlsx' is not a table of cells (a chart sheet, perhaps); move the manifest sheet to the front and send it again.",
    );
  });
});

describe('readXlsx keeps the journal bounded', () => {
  it('keeps the first rows, streams through the rest and counts them, and says it truncated', async () => {
    const sheet = await readWith(fixture('01-basic.xlsx'), '01-basic.xlsx', { maxRows: 3 });
    expect([sheet.rows.length, sheet.rowCount, sheet.truncated]).toEqual([3, 10, true]);
    expect(sheet.rows.map((row) => row[0])).toEqual(expected['01-basic.xlsx']?.waybills.slice(0, 3));
  });
});

describe('readXlsx refuses, before exceljs parses anything when it can', () => {
  it('refuses the zip bomb on its declared size, before the streaming reader parses a byte', async () => {
    const reader = vi.spyOn(ExcelJS.stream.xlsx.WorkbookReader.prototype, 'parse');
    try {
      await refusalOf(read('17-zip-bomb.xlsx'));
      expect(reader).not.toHaveBeenCalled();
      await read('01-basic.xlsx');
      expect(reader).toHaveBeenCalledTimes(1);
    } finally {
      reader.mockRestore();
    }
  });

  it('refuses a workbook over a smaller limit, naming the limit', async () => {
    const refusal = await refusalOf(readWith(fixture('01-basic.xlsx'), '01-basic.xlsx', { maxUnpackedBytes: 10_000 }));
    expect(refusal).toBe(
      "'01-basic.xlsx' unpacks to 20 kB, more than the 10 kB limit for one manifest; send a workbook holding only the manifest sheet, or split it into smaller files.",
    );
  });

  it('refuses a part that unpacks past the size the zip declares for it', async () => {
    const lying = zipParts(unzipParts(fixture('01-basic.xlsx')), { declare: { 'xl/worksheets/sheet1.xml': 100 } });
    expect(await refusalOf(readWith(lying, 'lying.xlsx'))).toMatch(/^'lying\.xlsx' unpacks to more than the workbook itself declares/);
  });

  it('refuses a sheet whose XML is broken as damaged, rather than hanging or half-reading it', async () => {
    const broken = rewritePart(fixture('01-basic.xlsx'), 'xl/worksheets/sheet1.xml', (xml) => xml.replace('</row>', '</rowx>'));
    expect(await refusalOf(readWith(broken, 'broken.xlsx'))).toBe(
      "'broken.xlsx' is damaged and cannot be opened. Open it in Excel, save it again and send the new copy.",
    );
  });

  it('reads only the parts its directory lists: a sheet hidden after the directory is refused, not read', async () => {
    // exceljs's streaming unzip walks local headers and would read this sheet in place of the
    // listed one, unseen by the size check.
    const workbook = Buffer.from(fixture('01-basic.xlsx'));
    const sheet = unzipParts(
      workbookOf([
        [
          [1, 'Hidden'],
          [2, 'Table'],
        ],
        [
          [1, 'x'],
          [2, 'y'],
        ],
      ]),
    ).filter((part) => part.name === 'xl/worksheets/sheet1.xml');
    const single = Buffer.from(zipParts(sheet));
    const record = single.subarray(0, single.readUInt32LE(single.length - 6));
    const end = workbook.length - 22;
    const hidden = Buffer.concat([workbook.subarray(0, end), record, workbook.subarray(end)]);
    expect(await refusalOf(readWith(hidden, 'hidden.xlsx'))).toBe(
      "'hidden.xlsx' is damaged and cannot be opened. Open it in Excel, save it again and send the new copy.",
    );
  });

  it('refuses a zip that holds no workbook', async () => {
    const zip = zipParts([{ name: 'notes.txt', data: Buffer.from('hello') }]);
    expect(await refusalOf(readWith(zip, 'archive.xlsx'))).toBe(
      "'archive.xlsx' is not a spreadsheet: it is a zip archive with no workbook inside. Please send the manifest as an Excel workbook (.xlsx) or a CSV file.",
    );
  });
});

describe('readXlsx reads wide and sparse sheets at the cost of their cells (issue 15)', () => {
  it('refuses 16,384 headings before padding any row to them', async () => {
    expect(await refusalOf(readWith(wideWorkbook(16_384, 50), 'wide.xlsx'))).toBe(
      "'wide.xlsx' has 16,384 columns in its heading row; I read manifests of at most 256 columns. Delete the columns that are not part of the manifest and send it again.",
    );
  });

  it('reads rows with a cell in column XFD as the narrow table they are', async () => {
    const sheet = await readWith(sparseWideWorkbook(20), 'sparse.xlsx');
    expect(sheet.headings).toEqual(['Waybill', 'Consignee', 'Weight (kg)']);
    expect(sheet.rows).toHaveLength(20);
    expect(sheet.rows[19]).toEqual([airWaybillNumber(19), null, null]);
  });

  it("visits only the cells a row holds: exceljs's row walks no empty columns (patches/exceljs)", () => {
    // A row's cells as exceljs keeps them, one in column XFD; count every look at an index.
    let looks = 0;
    const sparse: unknown[] = [];
    sparse[0] = { type: ExcelJS.ValueType.String, col: 1, value: 'WB1' };
    sparse[16_383] = { type: ExcelJS.ValueType.String, col: 16_384, value: 'far' };
    const counted = new Proxy(sparse, {
      has: (target, key) => (looks++, Reflect.has(target, key)),
      get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) && looks++, Reflect.get(target, key)),
    });
    const Row = createRequire(import.meta.url)('exceljs/lib/doc/row.js') as { prototype: object };
    const row = Object.create(Row.prototype) as ExcelJS.Row & { _cells: unknown[] };
    row._cells = counted;
    const seen: number[] = [];
    row.eachCell((_, column) => seen.push(column));
    expect(seen).toEqual([1, 16_384]);
    expect(row.dimensions).toMatchObject({ min: 1, max: 16_384 });
    expect(Object.keys(row.values as unknown[])).toEqual(['1', '16384']);
    expect(looks).toBeLessThan(20);
  });

  it('reads any sparse table exactly as its cells say, whatever columns they sit in', async () => {
    const text = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,6}$/);
    const column = fc.integer({ min: 1, max: 300 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.tuple(column, text), { maxLength: 4 }), { minLength: 1, maxLength: 6 }), async (data) => {
        const header = [
          [1, 'Waybill'],
          [2, 'Consignee'],
          [5, 'Weight (kg)'],
        ] as const;
        const rows = data.map((cells) => [...new Map(cells.map(([at, value]) => [at, `x${value}`] as const))].sort(([a], [b]) => a - b));
        const sheet = await readWith(workbookOf([header, ...rows]), 'sparse.xlsx');
        const expectedRows = rows
          .map((cells) => Array.from({ length: 5 }, (_, at) => cells.find(([c]) => c === at + 1)?.[1] ?? null))
          .filter((cells) => cells.some((cell) => cell !== null));
        expect(sheet.headings).toEqual(['Waybill', 'Consignee', '', '', 'Weight (kg)']);
        expect(sheet.rows).toEqual(expectedRows);
      }),
      { numRuns: 40 },
    );
  });
});

describe('readXlsx and exceljs reaching a sheet before the workbook', () => {
  // exceljs's own race (outside this project, seen about once in thousands of reads under load)
  // is simulated here by making its worksheet step fail as it does, reading `this.model.sheets`.
  type WorksheetStep = (this: unknown, ...args: unknown[]) => unknown;
  const readerPrototype = ExcelJS.stream.xlsx.WorkbookReader.prototype as unknown as { _parseWorksheet: WorksheetStep };
  const raceOnce = (times: number) => {
    const original = readerPrototype._parseWorksheet;
    let left = times;
    return vi.spyOn(readerPrototype, '_parseWorksheet').mockImplementation(function (this: unknown, ...args: unknown[]) {
      if (left-- > 0) {
        // A generator that throws on its first step, as exceljs's own does when a sheet is missing.
        return (function* () {
          yield* [];
          throw new TypeError("Cannot read properties of undefined (reading 'sheets')");
        })();
      }
      return original.apply(this, args);
    });
  };

  it('reads the workbook again, and reads it exactly as an undisturbed read does', async () => {
    const undisturbed = await read('08-air-waybill-no.xlsx');
    const spy = raceOnce(1);
    try {
      expect(await read('08-air-waybill-no.xlsx')).toEqual(undisturbed);
    } finally {
      spy.mockRestore();
    }
  });

  it('still refuses, as damaged, a workbook that fails that way every time', async () => {
    const spy = raceOnce(Number.POSITIVE_INFINITY);
    try {
      expect(await refusalOf(read('08-air-waybill-no.xlsx'))).toMatch(/damaged/i);
    } finally {
      spy.mockRestore();
    }
  });
});
