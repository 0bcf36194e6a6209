import { InputRefused } from '@learnables/runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SheetRow } from './collect-table.ts';
import { HEADER_SEARCH_ROWS, collectTable, isBlank, keptLength, looksLikeHeader } from './collect-table.ts';
import type { Cell } from './sheet-input.ts';

const sheet = (...rows: (readonly Cell[])[]): SheetRow[] => rows.map((cells, i) => ({ number: i + 1, cells }));
const where = { filename: 'm.xlsx', csv: false };

describe('looksLikeHeader', () => {
  it('takes a row of two or more text cells for headings', () => {
    expect(looksLikeHeader(['Waybill', 'Consignee', null, 'Weight (kg)'])).toBe(true);
  });

  it.each([
    ['a title in one merged cell', ['NORTHWIND CARGO — EXPORT MANIFEST', null, null]],
    ['a label and a date', ['Date:', '2025-03-14']],
    ['a label and a number', ['Flight', 212]],
    ['a data row with numbers', ['618-22208303', 'Paloma Textiles', 16, 287.2]],
    ['text that is a number', ['12', '134,8']],
  ])('passes over %s', (_, cells) => {
    expect(looksLikeHeader(cells)).toBe(false);
  });
});

describe('collectTable', () => {
  it('finds the header below a title, a subtitle and a blank row, and reads the rows under it', async () => {
    const table = await collectTable(sheet(['MANIFEST'], ['Flight NW 212'], [], ['AWB', 'Pcs'], ['1', 2], [null, null], ['3', 4]), 10, where);
    expect(table).toEqual({
      headings: ['AWB', 'Pcs'],
      headerRow: 4,
      rows: [
        ['1', 2],
        ['3', 4],
      ],
      rowCount: 2,
      truncated: false,
    });
  });

  it('makes every row as wide as the headings: short rows padded with null, cells past the last heading dropped', async () => {
    const table = await collectTable(sheet(['A', 'B', 'C', null], ['x'], ['y', 'z', 'w', 'beyond']), 10, where);
    expect(table.rows).toEqual([
      ['x', null, null],
      ['y', 'z', 'w'],
    ]);
  });

  it('skips rows with nothing under any heading, including rows of blank text, and does not count them', async () => {
    const table = await collectTable(sheet(['A', 'B'], ['', '  '], [null, null, 'only beyond'], ['x', 'y']), 10, where);
    expect(table.rowCount).toBe(1);
  });

  it('keeps at most maxRows rows and counts the rest', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => [`w${i}`, i]);
    const table = await collectTable(sheet(['AWB', 'Pcs'], ...rows), 10, where);
    expect(table.rows).toHaveLength(10);
    expect(table.rows.at(-1)).toEqual(['w9', 9]);
    expect([table.rowCount, table.truncated]).toEqual([25, true]);
  });

  it('reads from an async source the same as from a list', async () => {
    async function* rows(): AsyncGenerator<SheetRow> {
      yield* sheet(['AWB', 'Pcs'], ['1', 2]);
    }
    expect(await collectTable(rows(), 10, where)).toEqual(await collectTable(sheet(['AWB', 'Pcs'], ['1', 2]), 10, where));
  });

  it(`gives up after ${HEADER_SEARCH_ROWS} filled rows without a header, without reading the rest`, async () => {
    let read = 0;
    function* numbers(): Generator<SheetRow> {
      for (let i = 1; i <= 10_000; i++) {
        read++;
        yield { number: i, cells: [i, i * 2] };
      }
    }
    await expect(collectTable(numbers(), 10, where)).rejects.toThrow(InputRefused);
    expect(read).toBe(HEADER_SEARCH_ROWS);
  });

  it('calls a sheet with no filled row empty', async () => {
    await expect(collectTable(sheet([], [null, '']), 10, where)).rejects.toThrow("The first sheet of 'm.xlsx' is empty");
  });

  it('calls a sheet with filled rows but no header headerless', async () => {
    await expect(collectTable(sheet(['only one cell'], [1, 2]), 10, where)).rejects.toThrow(
      "I could not find the row of column headings in 'm.xlsx': none of its first 2 filled rows",
    );
  });
});

describe('collectTable bounds the table by its width (issue 15)', () => {
  const narrow = { maxColumns: 4, maxKeptCells: 12 };

  it('refuses a heading row wider than it reads, in a sentence', async () => {
    await expect(collectTable(sheet(['A', 'B', 'C', 'D', 'E'], ['1']), 10, where, narrow)).rejects.toThrow(
      "'m.xlsx' has 5 columns in its heading row; I read manifests of at most 4 columns. Delete the columns that are not part of the manifest and send it again.",
    );
  });

  it('counts a heading the reader stopped short of (a row says how wide it really is)', async () => {
    const rows: SheetRow[] = [
      { number: 1, cells: ['A', 'B', 'C', 'D'], width: 16_384 },
      { number: 2, cells: ['1'] },
    ];
    await expect(collectTable(rows, 10, where, narrow)).rejects.toThrow("'m.xlsx' has 16,384 columns in its heading row");
  });

  it('keeps fewer rows of a wider table, so the cells kept stay bounded; the rest are counted', async () => {
    const rows = Array.from({ length: 10 }, (_, at): Cell[] => [String(at)]);
    const table = await collectTable(sheet(['A', 'B', 'C', 'D'], ...rows), 10, where, narrow);
    expect(table.rows).toHaveLength(3);
    expect(table).toMatchObject({ rowCount: 10, truncated: true });
    const two = await collectTable(sheet(['A', 'B'], ...rows), 10, where, narrow);
    expect(two.rows).toHaveLength(6);
  });
});

describe('collectTable bounds the table by its characters (issue 34)', () => {
  const short = { maxColumns: 4, maxKeptCells: 1_000, maxCellCharacters: 10, maxKeptCharacters: 100 };

  it('refuses a cell longer than it reads, in any row, kept or not, in a sentence', async () => {
    const long = 'x'.repeat(11);
    await expect(collectTable(sheet(['A', 'B'], ['1', long]), 10, where, short)).rejects.toThrow(
      "'m.xlsx' has 11 characters in cell B2; I read cells of at most 10 characters, and no manifest's cell comes near that. Delete what is not part of the manifest and send it again.",
    );
    await expect(collectTable(sheet(['A', 'B'], ['1', '2'], ['3', long]), 1, where, short)).rejects.toThrow('11 characters in cell B3');
    await expect(collectTable(sheet([long], ['A', 'B']), 10, where, short)).rejects.toThrow('11 characters in cell A1');
    expect((await collectTable(sheet(['A', 'B'], ['1', 'x'.repeat(10)]), 10, where, short)).rows).toEqual([['1', 'x'.repeat(10)]]);
  });

  it('keeps rows only while their characters fit, headings counted; the rest are counted', async () => {
    // A cell counts its text, its quotes and a comma; a row its brackets: two 9-character cells, 26.
    const rows = Array.from({ length: 10 }, (): Cell[] => ['123456789', '123456789']);
    const table = await collectTable(sheet(['A', 'B'], ...rows), 10, where, short);
    // The headings take 10 of the 100, then three rows of 26 fit and the fourth does not.
    expect(table.rows).toHaveLength(3);
    expect(table).toMatchObject({ rowCount: 10, truncated: true });
    expect(JSON.stringify([table.headings, table.rows]).length).toBeLessThanOrEqual(100);
  });

  it('counts the characters JSON writes for a cell: a quote or a control character takes more than one', async () => {
    const cells = (): Cell[] => ['"\\\n"x', '123456789'];
    const quoted = await collectTable(sheet(['A', 'B'], ...Array.from({ length: 10 }, cells)), 10, where, short);
    // '"\\\n"x' is 5 characters and journals as 9: 26 a row again, not 22 (which would keep 4).
    expect(quoted.rows).toHaveLength(3);
    expect(JSON.stringify([quoted.headings, quoted.rows]).length).toBeLessThanOrEqual(100);
  });

  it('refuses headings that alone take more characters than it keeps', async () => {
    const heading = 'Heading';
    await expect(collectTable(sheet([heading, heading, heading, heading], ['1']), 10, where, { ...short, maxKeptCharacters: 30 })).rejects.toThrow(
      "The heading row of 'm.xlsx' takes more than the 30 characters I keep of a manifest; shorten the headings, delete those that are not part of the manifest and send it again.",
    );
  });
});

describe('isBlank', () => {
  it('calls text blank exactly when trimming leaves nothing, though it trims only text not starting with a visible ASCII character', () => {
    const text = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\ufeff', '\u0000', '\u007f', 'a', '~', '!', 'é', '€', '0') });
    fc.assert(fc.property(text, (cell) => isBlank(cell) === (cell.trim() === '')));
    expect([isBlank(null), isBlank(0), isBlank(''), isBlank(' \u00a0 ')]).toEqual([true, false, true, true]);
  });
});

describe('keptLength', () => {
  it('is exactly the length of the JSON of a row, less the comma after its last cell, for any text', () => {
    const cell = fc.oneof(
      fc.constant(null),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
    );
    fc.assert(fc.property(fc.array(cell, { minLength: 1 }), (cells) => keptLength(cells) === JSON.stringify(cells).length + 1));
  });
});
