import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusalOf } from './fixtures.test-support.ts';
import type { Separator } from './csv-records.ts';
import { MAX_RECORD_CELLS, MAX_RECORD_CHARS, csvRecords, detectSeparator } from './csv-records.ts';

async function records(text: string, separator: Separator = ',', filename?: string): Promise<string[][]> {
  const all: string[][] = [];
  for await (const record of csvRecords(text, separator, filename)) all.push(record);
  return all;
}

describe('csvRecords', () => {
  it('splits plain fields and lines', async () => {
    expect(await records('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps separators, doubled quotes and line breaks inside quoted fields', async () => {
    expect(await records('"Acme, Inc.","12"" pipes","two\nlines"\nx,y,z')).toEqual([
      ['Acme, Inc.', '12" pipes', 'two\nlines'],
      ['x', 'y', 'z'],
    ]);
  });

  it('ends lines at CRLF, LF or CR alike', async () => {
    expect(await records('a;b\r\nc;d\re;f\ng;h', ';')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('keeps empty fields, including a trailing one, and yields blank lines as one empty field', async () => {
    expect(await records('a,,c,\n\n;;;\n')).toEqual([['a', '', 'c', ''], [''], [';;;']]);
  });

  it('is lenient with sloppy quoting: a stray quote mid-field is text, a space before a quote is dropped', async () => {
    expect(await records('5" pipe,x\na, "b,c"\n')).toEqual([
      ['5" pipe', 'x'],
      ['a', 'b,c'],
    ]);
  });

  it('keeps text after a closing quote as written, quotes and all, rather than guess what was meant', async () => {
    // csv-parse's reading; the hand-written parser used to join the pieces ('5 pipe'), losing the inch mark.
    expect(await records('a,"5" pipe\n"abc"def,x\n')).toEqual([
      ['a', '"5" pipe'],
      ['"abc"def', 'x'],
    ]);
  });

  it('drops spaces at the start of a field, keeps them at its end', async () => {
    expect(await records(' a , b \n')).toEqual([['a ', 'b ']]);
  });

  it('refuses a quote never closed, naming the row it opens in, rather than read the rest of the file as one cell', async () => {
    expect(await refusalOf(records('AWB,Consignee\n1,Acme\n2,"Blue Fin\n3,Kestrel\n', ',', 'm.csv'))).toBe(
      "'m.csv' has a quote (\") in row 3 that is never closed, so I cannot tell where its cells end. Close the quote, or save the file again from Excel, and send it again.",
    );
  });

  it('refuses a record longer than it reads, or wider than Excel allows, naming the row', async () => {
    const long = `AWB,Notes\n1,${'x'.repeat(MAX_RECORD_CHARS + 1)}\n`;
    expect(await refusalOf(records(long, ',', 'm.csv'))).toMatch(/^'m\.csv' has more than 1,000,000 characters in row 2, far more than any manifest row;/);
    const wide = `AWB,Notes\n1,2\n${','.repeat(MAX_RECORD_CELLS)}\n`;
    expect(await refusalOf(records(wide, ',', 'm.csv'))).toMatch(/^'m\.csv' has more than 16,384 cells in row 3, more than Excel itself allows in a row;/);
    const wider = `AWB,Notes\n1,2\n${','.repeat(MAX_RECORD_CELLS)}\n3,4\n`;
    expect(await refusalOf(records(wider, ',', 'm.csv'))).toMatch(/^'m\.csv' has more than 16,384 cells in row 3,/);
    // A record that never ends is stopped while it grows, a piece of the file at a time.
    const growing = `AWB,Notes\n${'"\n",'.repeat(40_000)}x\n`;
    expect(await refusalOf(records(growing, ',', 'm.csv'))).toMatch(/^'m\.csv' has more than 16,384 cells in row 2,/);
    expect(await records(`${','.repeat(MAX_RECORD_CELLS - 1)}\n`)).toEqual([Array.from({ length: MAX_RECORD_CELLS }, () => '')]);
  });

  it("counts a growing record's cells from where it starts, however many records came before it in the piece", async () => {
    // 40,000 narrow records: 80,000 separators before the last one, none of them its own.
    const narrow = `A,B,C\n${',,\n'.repeat(40_000)}${'x,'.repeat(MAX_RECORD_CELLS - 1)}x\n`;
    const read = await records(narrow);
    expect(read).toHaveLength(40_002);
    expect(read.at(-1)).toHaveLength(MAX_RECORD_CELLS);
    // And one that never ends, after them, is stopped while it grows, in its own row.
    const growing = `A,B,C\n${',,\n'.repeat(40_000)}${'"\n",'.repeat(40_000)}x\n`;
    expect(await refusalOf(records(growing, ',', 'm.csv'))).toMatch(/^'m\.csv' has more than 16,384 cells in row 40,002,/);
  });

  it('gives back any table written with standard quoting', async () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'é', ' ', ',', ';', '"', '\n', '\r', 'x') });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(field, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 }), async (table) => {
        const text = table.map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\r\n');
        expect(await records(text)).toEqual(table);
      }),
    );
  });
});

describe('detectSeparator', () => {
  it('picks the separator that splits the rows most consistently into the most fields', async () => {
    expect(await detectSeparator('AWB;Poids (kg);Colis\n1;134,8;2\n2;12,5;3\n')).toBe(';');
    expect(await detectSeparator('AWB,Weight,Pieces\n1,"134,8",2\n')).toBe(',');
    expect(await detectSeparator('AWB\tWeight\tPieces\n1\t134.8\t2\n')).toBe('\t');
  });

  it('is not fooled by a title line above the table', async () => {
    expect(await detectSeparator('Export manifest, 14 March\nAWB;Consignee;Weight\n1;A;2\n2;B;3\n')).toBe(';');
  });

  it('falls back to a comma when nothing splits', async () => {
    expect(await detectSeparator('one column\nonly\n')).toBe(',');
  });
});
