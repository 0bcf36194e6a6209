import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unzipParts, zipParts } from '@learnables/testing';
import { columnName } from './collect-table.ts';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * A real workbook (fixtures/manifests/01-basic.xlsx) with its first sheet replaced: each row a
 * list of [column, text] cells, written as inline strings. Small on disk however wide it is.
 */
export function workbookOf(rows: readonly (readonly (readonly [number, string])[])[]): Uint8Array {
  const sheetRows = rows
    .map((cells, index) => {
      const r = index + 1;
      const xml = cells.map(([column, text]) => `<c r="${columnName(column)}${r}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`).join('');
      return `<row r="${r}">${xml}</row>`;
    })
    .join('');
  const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`;
  const basic = readFileSync(fileURLToPath(new URL('../../../fixtures/manifests/01-basic.xlsx', import.meta.url)));
  const parts = unzipParts(basic).map((part) => (part.name === 'xl/worksheets/sheet1.xml' ? { name: part.name, data: Buffer.from(sheet) } : part));
  return zipParts(parts);
}

/** Headings in columns 1..`width`, then `rows` rows of one cell each in column A. */
export function wideWorkbook(width: number, rows: number): Uint8Array {
  const header = Array.from({ length: width }, (_, at) => [at + 1, `Heading ${at + 1}`] as const);
  const data = Array.from({ length: rows }, (_, at) => [[1, `WB${at}`] as const]);
  return workbookOf([header, ...data]);
}

/** An air waybill number with a valid check digit (the serial mod 7), so a waybill column fits its field's form. */
export function airWaybillNumber(serial: number): string {
  const digits = String(serial % 10_000_000).padStart(7, '0');
  return `176-${digits}${Number(digits) % 7}`;
}

/** A normal header, then `rows` rows each with one cell in the last column there is (XFD). */
export function sparseWideWorkbook(rows: number): Uint8Array {
  const header = [
    [1, 'Waybill'],
    [2, 'Consignee'],
    [3, 'Weight (kg)'],
  ] as const;
  const data = Array.from(
    { length: rows },
    (_, at) =>
      [
        [1, airWaybillNumber(at)],
        [16_384, 'far'],
      ] as const,
  );
  return workbookOf([header, ...data]);
}

/**
 * A sheet of two headings and `rows` rows, each cell `characters` long: a few kB on disk at
 * maximum compression however long the cells are (issue 34: 3.5 million characters a cell in 15 kB).
 */
export function longCellWorkbook(rows: number, characters: number): Uint8Array {
  const header = [
    [1, 'Waybill'],
    [2, 'Consignee'],
  ] as const;
  const data = Array.from(
    { length: rows },
    (_, at) =>
      [
        [1, `${at}`.padEnd(characters, 'x')],
        [2, 'y'.repeat(characters)],
      ] as const,
  );
  return workbookOf([header, ...data]);
}
