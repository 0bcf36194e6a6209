import type { SheetRow } from './collect-table.ts';
import { collectTable } from './collect-table.ts';
import { csvRecords, detectSeparator } from './csv-records.ts';
import { decodeText } from './decode-text.ts';
import type { ReadLimits, SheetInput } from './sheet-input.ts';

function* numbered(records: Iterable<string[]>): Generator<SheetRow> {
  let number = 0;
  for (const cells of records) yield { number: ++number, cells };
}

/** A CSV manifest: decoded (UTF-8, else windows-1252), split on `,` `;` or tab, whichever fits. */
export async function readCsv(bytes: Uint8Array, filename: string | undefined, limits: ReadLimits): Promise<SheetInput> {
  const { text } = decodeText(bytes);
  const table = await collectTable(numbered(csvRecords(text, detectSeparator(text))), limits.maxRows, { filename, csv: true }, limits);
  return { filename: filename ?? 'untitled.csv', format: 'csv', sheet: null, ...table };
}
