import type { SheetRow } from './collect-table.ts';
import { collectTable } from './collect-table.ts';
import { csvRecords, detectSeparator } from './csv-records.ts';
import { decodeText } from './decode-text.ts';
import type { ReadLimits, SheetInput } from './sheet-input.ts';

async function* numbered(records: AsyncIterable<string[]>): AsyncGenerator<SheetRow> {
  let number = 0;
  for await (const cells of records) yield { number: ++number, cells };
}

/** A CSV manifest: decoded (UTF-8, else windows-1252), split by csv-parse on `,` `;` or tab, whichever fits. */
export async function readCsv(bytes: Uint8Array, filename: string | undefined, limits: ReadLimits): Promise<SheetInput> {
  const { text } = decodeText(bytes);
  const separator = await detectSeparator(text);
  const table = await collectTable(numbered(csvRecords(text, separator, filename)), limits.maxRows, { filename, csv: true }, limits);
  return { filename: filename ?? 'untitled.csv', format: 'csv', sheet: null, ...table };
}
