import { Readable } from 'node:stream';
import { InputRefused } from '@learnables/learnable';
import ExcelJS from 'exceljs';
import { cellOf } from './cell-value.ts';
import { checkUnpackedSize } from './check-unpacked-size.ts';
import type { SheetRow } from './collect-table.ts';
import { TableCollector } from './collect-table.ts';
import { refuse } from './refusals.ts';
import type { Cell, ReadLimits, SheetInput } from './sheet-input.ts';
import type { ZipEntry } from './zip-directory.ts';
import { readZipDirectory } from './zip-directory.ts';

type WorksheetReader = ExcelJS.stream.xlsx.WorksheetReader;
type WorkbookReader = ExcelJS.stream.xlsx.WorkbookReader;

const CHUNK = 64 * 1024;

/**
 * Styles are cached, not ignored: a date is stored as a number with a date format, and only
 * styles.xml says which formats are dates. It is read once and does not grow with the rows.
 */
const READER_OPTIONS = { sharedStrings: 'cache', worksheets: 'emit', styles: 'cache', hyperlinks: 'ignore' } as const;

/**
 * An .xlsx manifest, streamed: the zip's directory is checked first (cut short, damaged, or
 * unpacking past the limit are refused before any XML is parsed), then the first sheet in tab
 * order is read row by row and only the rows kept are held in memory.
 */
export async function readXlsx(bytes: Uint8Array, filename: string | undefined, limits: ReadLimits): Promise<SheetInput> {
  const entries = await readZipDirectory(bytes, filename);
  checkIsWorkbook(entries, filename);
  await checkUnpackedSize(bytes, entries, limits.maxUnpackedBytes, filename);
  for (let attempt = 1; ; attempt++) {
    try {
      return await readFirstSheet(bytes, filename, limits);
    } catch (error) {
      if (error instanceof InputRefused) throw error;
      // exceljs's streaming reader now and then (under load, about once in thousands of reads, never
      // reproducibly) reaches a sheet before its parse of xl/workbook.xml has produced a model, and
      // fails reading `this.model.sheets` on a workbook it reads perfectly the next time. The bytes
      // are already checked and held in memory, so reading them again costs only time; a workbook
      // that fails every time is still refused as damaged.
      if (attempt < READ_ATTEMPTS && isReaderRace(error)) continue;
      throw refuse.damaged(filename, error);
    }
  }
}

const READ_ATTEMPTS = 3;
const isReaderRace = (error: unknown): boolean => error instanceof TypeError && /reading 'sheets'/.test(error.message);

function checkIsWorkbook(entries: readonly ZipEntry[], filename: string | undefined): void {
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has('xl/workbook.xml')) return;
  if (names.has('xl/workbook.bin')) throw refuse.binaryExcel(filename);
  throw refuse.notAWorkbook(filename, 'a zip archive with no workbook inside');
}

async function readFirstSheet(bytes: Uint8Array, filename: string | undefined, limits: ReadLimits): Promise<SheetInput> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(chunked(bytes), READER_OPTIONS);
  let input: SheetInput | undefined;
  for await (const worksheet of reader) {
    if (input === undefined && isFirstSheet(reader, worksheet)) {
      const table = new TableCollector(limits.maxRows, { filename, csv: false }, limits);
      await eachRow(worksheet, (row) => table.add(rowOf(row, limits.maxColumns)));
      input = { filename: filename ?? 'untitled.xlsx', format: 'xlsx', sheet: nameOf(worksheet) ?? null, ...table.table() };
    } else {
      await skip(worksheet);
    }
  }
  if (input === undefined) throw refuse.noWorksheet(filename);
  return input;
}

/** Read an unwanted sheet to its end anyway: exceljs deletes a sheet's temporary file only then. */
async function skip(worksheet: WorksheetReader): Promise<void> {
  const rows = worksheet[Symbol.asyncIterator]();
  while (!(await rows.next()).done);
}

function chunked(bytes: Uint8Array): Readable {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  function* pieces(): Generator<Buffer> {
    for (let at = 0; at < buffer.length; at += CHUNK) yield buffer.subarray(at, at + CHUNK);
  }
  return Readable.from(pieces(), { objectMode: false });
}

/** exceljs names a sheet it has matched to the workbook's list; its types do not say so. */
function nameOf(worksheet: WorksheetReader): string | undefined {
  const name: unknown = Reflect.get(worksheet, 'name');
  return typeof name === 'string' ? name : undefined;
}

/**
 * The first sheet in the workbook's tab order. When exceljs could not match a sheet to that
 * list (the list came late in the zip, or is missing), the first sheet it yields is the best guess.
 */
function isFirstSheet(reader: WorkbookReader, worksheet: WorksheetReader): boolean {
  const model: unknown = Reflect.get(reader, 'model');
  const tabs = (model as Partial<ExcelJS.WorkbookModel> | undefined)?.sheets?.map((sheet) => sheet.name) ?? [];
  const name = nameOf(worksheet);
  return tabs.length === 0 || name === tabs[0] || name === undefined || !tabs.includes(name);
}

/**
 * Every row of the sheet, handed to `visit` a batch at a time as exceljs parses them (its `parse()`:
 * the events of each piece of XML). Its row iterator wraps the same batches in a wait per row,
 * which cost a tenth of the reading on 100k rows. A throw from `visit` stops the reading.
 */
async function eachRow(worksheet: WorksheetReader, visit: (row: ExcelJS.Row) => void): Promise<void> {
  const batches = worksheet.parse();
  try {
    for (;;) {
      const next = await batches.next();
      if (next.done === true) return;
      for (const event of next.value as { eventType: string; value: unknown }[]) {
        if (event.eventType === 'row') visit(event.value as ExcelJS.Row);
      }
    }
  } finally {
    await batches.return?.();
  }
}

/**
 * The row's cells up to `maxColumns`, visiting only the cells the sheet holds: a row with one
 * cell in column XFD costs one cell, not 16,384 (`row.values` is as long as the last column).
 * `width` is the column of the last cell that holds something, however far out.
 */
function rowOf(row: ExcelJS.Row, maxColumns: number): SheetRow {
  const cells: Cell[] = [];
  let width = 0;
  row.eachCell((cell, column) => {
    const value = cellOf(cell.value);
    if (value === null) return;
    width = Math.max(width, column);
    if (column > maxColumns) return;
    while (cells.length < column - 1) cells.push(null);
    cells[column - 1] = value;
  });
  return { number: row.number, cells, width };
}
