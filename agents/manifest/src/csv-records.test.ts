import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Separator } from './csv-records.ts';
import { csvRecords, detectSeparator } from './csv-records.ts';

const records = (text: string, separator: Separator = ','): string[][] => [...csvRecords(text, separator)];

describe('csvRecords', () => {
  it('splits plain fields and lines', () => {
    expect(records('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps separators, doubled quotes and line breaks inside quoted fields', () => {
    expect(records('"Acme, Inc.","12"" pipes","two\nlines"\nx,y,z')).toEqual([
      ['Acme, Inc.', '12" pipes', 'two\nlines'],
      ['x', 'y', 'z'],
    ]);
  });

  it('ends lines at CRLF, LF or CR alike', () => {
    expect(records('a;b\r\nc;d\re;f\ng;h', ';')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('keeps empty fields, including a trailing one, and yields blank lines as one empty field', () => {
    expect(records('a,,c,\n\n;;;\n')).toEqual([['a', '', 'c', ''], [''], [';;;']]);
  });

  it('is lenient with sloppy quoting: a stray quote mid-field is text, a space before a quote is dropped', () => {
    expect(records('5" pipe,x\na, "b,c"\n')).toEqual([
      ['5" pipe', 'x'],
      ['a', 'b,c'],
    ]);
  });

  it('gives back any table written with standard quoting', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'é', ' ', ',', ';', '"', '\n', '\r', 'x') });
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 }), (table) => {
        const text = table.map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\r\n');
        expect(records(text)).toEqual(table);
      }),
    );
  });
});

describe('detectSeparator', () => {
  it('picks the separator that splits the rows most consistently into the most fields', () => {
    expect(detectSeparator('AWB;Poids (kg);Colis\n1;134,8;2\n2;12,5;3\n')).toBe(';');
    expect(detectSeparator('AWB,Weight,Pieces\n1,"134,8",2\n')).toBe(',');
    expect(detectSeparator('AWB\tWeight\tPieces\n1\t134.8\t2\n')).toBe('\t');
  });

  it('is not fooled by a title line above the table', () => {
    expect(detectSeparator('Export manifest, 14 March\nAWB;Consignee;Weight\n1;A;2\n2;B;3\n')).toBe(';');
  });

  it('falls back to a comma when nothing splits', () => {
    expect(detectSeparator('one column\nonly\n')).toBe(',');
  });
});
