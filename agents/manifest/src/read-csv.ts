import { isUtf8 } from 'node:buffer';
import { TableCollector } from './collect-table.ts';
import { csvRecordBatches, detectSeparator } from './csv-records.ts';
import { decodeText } from './decode-text.ts';
import type { ReadLimits, SheetInput } from './sheet-input.ts';

/**
 * A CSV manifest: decoded (UTF-8, else windows-1252), split by csv-parse on `,` `;` or tab, whichever
 * fits. Bytes that are UTF-8 already are parsed as they came; others are parsed as their text in UTF-8.
 */
export async function readCsv(bytes: Uint8Array, filename: string | undefined, limits: ReadLimits): Promise<SheetInput> {
  // Bytes that are UTF-8 (with a BOM or none; UTF-16's BOMs are not UTF-8) are parsed as they are,
  // which spares decoding them into text only to encode it again, as decodeText would read them.
  const csv = isUtf8(bytes) ? bytes : decodeText(bytes).text;
  const separator = await detectSeparator(csv);
  const table = new TableCollector(limits.maxRows, { filename, csv: true }, limits);
  let number = 0;
  for await (const records of csvRecordBatches(csv, separator, filename)) {
    for (const cells of records) table.addCells(++number, cells);
  }
  return { filename: filename ?? 'untitled.csv', format: 'csv', sheet: null, ...table.table() };
}
