import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures.test-support.ts';
import { XLSX_MEDIA_TYPE, isSheetFile, sniffFormat } from './sniff-format.ts';

const text = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

describe('sniffFormat trusts the bytes over the name', () => {
  it('reads a zip as a workbook whatever it is called', () => {
    expect(sniffFormat(fixture('01-basic.xlsx'), 'manifest.csv', 'text/csv')).toBe('xlsx');
  });

  it('reads text as CSV when the name, the media type, or nothing says otherwise', () => {
    expect(sniffFormat(text('a,b\n1,2\n'), 'manifest.csv')).toBe('csv');
    expect(sniffFormat(text('a,b\n1,2\n'), undefined, 'text/csv')).toBe('csv');
    expect(sniffFormat(text('a,b\n1,2\n'))).toBe('csv');
  });

  it('says a password-protected workbook is password-protected, not corrupt', () => {
    expect(() => sniffFormat(fixture('18-encrypted.xlsx'), 'x.xlsx')).toThrow(
      'This workbook is password-protected; save it without a password and send it again.',
    );
  });

  it('tells an old .xls (the same container, nothing encrypted) to be saved as .xlsx', () => {
    const xls = new Uint8Array([...CFB, ...new Array<number>(504).fill(0)]);
    expect(() => sniffFormat(xls, 'old.xls')).toThrow(
      "'old.xls' is an old Excel 97-2003 workbook (.xls); save it as an Excel Workbook (.xlsx) or as CSV and send it again.",
    );
  });

  it('names what a file that is not a spreadsheet looks like', () => {
    expect(() => sniffFormat(fixture('15-not-a-spreadsheet.xlsx'), 'x.xlsx')).toThrow("'x.xlsx' is not a spreadsheet: it is a PNG image.");
    expect(() => sniffFormat(text('%PDF-1.7 …'), 'scan.xlsx')).toThrow('it is a PDF document');
    expect(() => sniffFormat(text('just a note'), 'note.xlsx')).toThrow('it is plain text, not an Excel workbook');
    expect(() => sniffFormat(new Uint8Array(), 'nothing.xlsx')).toThrow('it is an empty file');
  });

  it('refuses binary data sent as CSV', () => {
    expect(() => sniffFormat(fixture('15-not-a-spreadsheet.xlsx'), 'photo.csv')).toThrow("'photo.csv' is not a CSV file: it is a PNG image.");
  });
});

describe('isSheetFile', () => {
  it.each([
    ['manifest.xlsx', undefined],
    ['MANIFEST.XLSX', undefined],
    ['manifest.csv', undefined],
    [undefined, XLSX_MEDIA_TYPE],
    [undefined, 'text/csv; charset=utf-8'],
    ['manifest.csv', 'application/vnd.ms-excel'],
  ])('takes %s (%s) for a spreadsheet', (filename, mediaType) => {
    expect(isSheetFile(filename, mediaType)).toBe(true);
  });

  it.each([
    ['photo.png', 'image/png'],
    ['scan.pdf', undefined],
    [undefined, 'application/octet-stream'],
  ])('does not take %s (%s) for one', (filename, mediaType) => {
    expect(isSheetFile(filename, mediaType)).toBe(false);
  });
});
