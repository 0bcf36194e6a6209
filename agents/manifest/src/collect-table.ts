import { parseAmount } from './parse-amount.ts';
import { refuse } from './refusals.ts';
import type { Cell, ReadLimits } from './sheet-input.ts';
import { DEFAULT_LIMITS } from './sheet-input.ts';

/**
 * One row as a reader yields it: its 1-based number in the sheet and its cells, left to right.
 * A reader may stop `cells` at the widest table it reads; `width` then says where the row's last
 * filled cell really is (1-based), so a header wider than that is refused, not cut.
 */
export interface SheetRow {
  readonly number: number;
  readonly cells: readonly Cell[];
  readonly width?: number;
}

export interface Table {
  readonly headings: string[];
  readonly headerRow: number;
  readonly rows: Cell[][];
  readonly rowCount: number;
  readonly truncated: boolean;
}

/** What bounds a table: its width, the cells and characters kept; the characters default to DEFAULT_LIMITS'. */
export type TableLimits = Pick<ReadLimits, 'maxColumns' | 'maxKeptCells'> & Partial<Pick<ReadLimits, 'maxCellCharacters' | 'maxKeptCharacters'>>;

/** Filled rows searched for the header before giving up: a table does not start below this. */
export const HEADER_SEARCH_ROWS = 50;

/** Null, or text of white space only. Text starting with a visible ASCII character is not blank, without trimming it. */
export const isBlank = (cell: Cell | undefined): boolean => {
  if (cell === null || cell === undefined) return true;
  if (typeof cell !== 'string') return false;
  const first = cell.charCodeAt(0);
  return !(first > 0x20 && first < 0x7f) && cell.trim() === '';
};

/** Text a person would write as a heading: not a number, not a date. */
const isHeadingText = (cell: Cell | undefined): boolean =>
  typeof cell === 'string' && cell.trim() !== '' && parseAmount(cell) === null && !/^\d{4}-\d{2}-\d{2}/.test(cell.trim());

/**
 * A header row has at least two filled cells and every one of them is heading text. That passes
 * over a title (one merged cell), a subtitle line and "Date: 14/03/2025" pairs above the table.
 */
export function looksLikeHeader(cells: readonly Cell[]): boolean {
  const filled = cells.filter((cell) => !isBlank(cell));
  return filled.length >= 2 && filled.every(isHeadingText);
}

/**
 * Find the header row and keep the data below it, one row at a time, so a sheet of any length
 * is read in bounded memory: at most `maxRows` rows are kept, the rest only counted. Rows with
 * nothing under any heading are skipped and not counted.
 */
export async function collectTable(
  rows: AsyncIterable<SheetRow> | Iterable<SheetRow>,
  maxRows: number,
  where: { readonly filename: string | undefined; readonly csv: boolean },
  width: TableLimits = DEFAULT_LIMITS,
): Promise<Table> {
  const table = new TableCollector(maxRows, where, width);
  for await (const row of rows) table.add(row);
  return table.table();
}

/**
 * `collectTable` a row at a time, for a reader that receives rows in batches and would rather
 * not wait once per row (CSV: csv-parse hands over a piece of the file's records at once).
 */
export class TableCollector {
  private header: { readonly number: number; readonly headings: string[] } | undefined;
  private filledAbove = 0;
  private readonly kept: Cell[][] = [];
  private keepRows: number;
  private rowCount = 0;
  private readonly maxCellCharacters: number;
  /** Characters still to keep, as JSON counts them (`keptLength`); a row that does not fit is only counted, and so is every row after it. */
  private charactersLeft: number;

  constructor(
    private readonly maxRows: number,
    private readonly where: { readonly filename: string | undefined; readonly csv: boolean },
    private readonly width: TableLimits = DEFAULT_LIMITS,
  ) {
    this.keepRows = maxRows;
    this.maxCellCharacters = width.maxCellCharacters ?? DEFAULT_LIMITS.maxCellCharacters;
    this.charactersLeft = width.maxKeptCharacters ?? DEFAULT_LIMITS.maxKeptCharacters;
  }

  add(row: SheetRow): void {
    this.addCells(row.number, row.cells, row.width);
  }

  /** `add`, the row given by its parts (`lastFilled`: its `width`). */
  addCells(number: number, cells: readonly Cell[], lastFilled?: number): void {
    // Every row read, kept or not: a cell no manifest holds is refused wherever it is.
    this.checkCells(number, cells);
    const header = this.header;
    if (header === undefined) {
      if (allBlank(cells, cells.length)) return;
      this.filledAbove++;
      if (looksLikeHeader(cells)) {
        const headings = headingsOf(cells);
        const columns = Math.max(headings.length, lastFilled ?? 0);
        if (columns > this.width.maxColumns) throw refuse.tooManyColumns(this.where.filename, columns, this.width.maxColumns);
        const limit = this.charactersLeft;
        this.charactersLeft -= keptLength(headings);
        if (this.charactersLeft < 0) throw refuse.headingsTooLong(this.where.filename, limit);
        this.header = { number, headings };
        // Every kept row is as wide as the header; keep fewer rows of a wide table, so what the
        // journal stores stays bounded by cells, not by rows alone.
        this.keepRows = Math.max(1, Math.min(this.maxRows, Math.floor(this.width.maxKeptCells / Math.max(1, headings.length))));
      } else if (this.filledAbove >= HEADER_SEARCH_ROWS) throw refuse.noHeaderRow(this.where.filename, this.filledAbove);
      return;
    }
    // Rows past those kept are only counted: nothing under any heading, or something.
    const columns = header.headings.length;
    if (allBlank(cells, columns)) return;
    this.rowCount++;
    if (this.kept.length < this.keepRows) {
      const row = fit(cells, columns);
      this.charactersLeft -= keptLength(row);
      // The first row that does not fit ends the rows kept (they stay the first rows of the sheet).
      if (this.charactersLeft >= 0) this.kept.push(row);
      else this.keepRows = this.kept.length;
    }
  }

  private checkCells(number: number, cells: readonly Cell[]): void {
    for (let at = 0; at < cells.length; at++) {
      const cell = cells[at];
      if (typeof cell === 'string' && cell.length > this.maxCellCharacters) {
        throw refuse.cellTooLong(this.where.filename, `${columnName(at + 1)}${number}`, cell.length, this.maxCellCharacters);
      }
    }
  }

  table(): Table {
    const header = this.header;
    if (header === undefined) {
      throw this.filledAbove === 0 ? refuse.emptySheet(this.where.filename, this.where.csv) : refuse.noHeaderRow(this.where.filename, this.filledAbove);
    }
    return { headings: header.headings, headerRow: header.number, rows: this.kept, rowCount: this.rowCount, truncated: this.rowCount > this.kept.length };
  }
}

/** Column letters for a 1-based column number, as Excel names a cell: 1 → A, 28 → AB. */
export function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * The characters a row takes in the journal's JSON, with the comma after it: brackets, and for
 * each cell its text with JSON's escapes, quotes and a comma (a number's digits and a comma;
 * `null,`). Counted by the thread that reads the sheet, so what reaches the event loop is bounded
 * already.
 */
export function keptLength(cells: readonly Cell[]): number {
  let length = 2;
  for (const cell of cells) {
    if (cell === null) length += 5;
    else if (typeof cell === 'number') length += String(cell).length + 1;
    else length += jsonTextLength(cell) + 1;
  }
  return length;
}

/** The length of `JSON.stringify(text)`: a quote, a backslash or a control character takes 2 or 6. */
function jsonTextLength(text: string): number {
  let length = text.length + 2;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22 || code === 0x5c) length += 1;
    else if (code < 0x20) length += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 1 : 5;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(at + 1))) at++;
    // A surrogate that is not half of a pair is written as \uXXXX.
    else if (code >= 0xd800 && code <= 0xdfff) length += 5;
  }
  return length;
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Whether the first `width` cells are all blank (cells past the row's end are). */
function allBlank(cells: readonly Cell[], width: number): boolean {
  const end = Math.min(width, cells.length);
  for (let at = 0; at < end; at++) if (!isBlank(cells[at])) return false;
  return true;
}

function headingsOf(cells: readonly Cell[]): string[] {
  let width = cells.length;
  while (width > 0 && isBlank(cells[width - 1])) width--;
  return cells.slice(0, width).map((cell) => (cell === null ? '' : String(cell)));
}

/** Exactly `width` cells: blanks as null, anything beyond the last heading dropped. */
function fit(cells: readonly Cell[], width: number): Cell[] {
  const out = new Array<Cell>(width);
  for (let at = 0; at < width; at++) {
    const cell = cells[at];
    out[at] = cell === undefined || isBlank(cell) ? null : cell;
  }
  return out;
}
