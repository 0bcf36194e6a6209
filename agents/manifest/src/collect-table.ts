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
  width: Pick<ReadLimits, 'maxColumns' | 'maxKeptCells'> = DEFAULT_LIMITS,
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

  constructor(
    private readonly maxRows: number,
    private readonly where: { readonly filename: string | undefined; readonly csv: boolean },
    private readonly width: Pick<ReadLimits, 'maxColumns' | 'maxKeptCells'> = DEFAULT_LIMITS,
  ) {
    this.keepRows = maxRows;
  }

  add(row: SheetRow): void {
    this.addCells(row.number, row.cells, row.width);
  }

  /** `add`, the row given by its parts (`lastFilled`: its `width`). */
  addCells(number: number, cells: readonly Cell[], lastFilled?: number): void {
    const header = this.header;
    if (header === undefined) {
      if (allBlank(cells, cells.length)) return;
      this.filledAbove++;
      if (looksLikeHeader(cells)) {
        const headings = headingsOf(cells);
        const columns = Math.max(headings.length, lastFilled ?? 0);
        if (columns > this.width.maxColumns) throw refuse.tooManyColumns(this.where.filename, columns, this.width.maxColumns);
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
    if (this.kept.length < this.keepRows) this.kept.push(fit(cells, columns));
  }

  table(): Table {
    const header = this.header;
    if (header === undefined) {
      throw this.filledAbove === 0 ? refuse.emptySheet(this.where.filename, this.where.csv) : refuse.noHeaderRow(this.where.filename, this.filledAbove);
    }
    return { headings: header.headings, headerRow: header.number, rows: this.kept, rowCount: this.rowCount, truncated: this.rowCount > this.kept.length };
  }
}

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
