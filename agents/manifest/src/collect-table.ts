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

const isBlank = (cell: Cell | undefined): boolean => cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');

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
  let header: { readonly number: number; readonly headings: string[] } | undefined;
  let filledAbove = 0;
  const kept: Cell[][] = [];
  let keepRows = maxRows;
  let rowCount = 0;
  for await (const row of rows) {
    if (header === undefined) {
      if (row.cells.every(isBlank)) continue;
      filledAbove++;
      if (looksLikeHeader(row.cells)) {
        const headings = headingsOf(row.cells);
        const columns = Math.max(headings.length, row.width ?? 0);
        if (columns > width.maxColumns) throw refuse.tooManyColumns(where.filename, columns, width.maxColumns);
        header = { number: row.number, headings };
        // Every kept row is as wide as the header; keep fewer rows of a wide table, so what the
        // journal stores stays bounded by cells, not by rows alone.
        keepRows = Math.max(1, Math.min(maxRows, Math.floor(width.maxKeptCells / Math.max(1, headings.length))));
      } else if (filledAbove >= HEADER_SEARCH_ROWS) throw refuse.noHeaderRow(where.filename, filledAbove);
      continue;
    }
    const cells = fit(row.cells, header.headings.length);
    if (cells.every(isBlank)) continue;
    rowCount++;
    if (kept.length < keepRows) kept.push(cells);
  }
  if (header === undefined) {
    throw filledAbove === 0 ? refuse.emptySheet(where.filename, where.csv) : refuse.noHeaderRow(where.filename, filledAbove);
  }
  return { headings: header.headings, headerRow: header.number, rows: kept, rowCount, truncated: rowCount > kept.length };
}

function headingsOf(cells: readonly Cell[]): string[] {
  let width = cells.length;
  while (width > 0 && isBlank(cells[width - 1])) width--;
  return cells.slice(0, width).map((cell) => (cell === null ? '' : String(cell)));
}

/** Exactly `width` cells: blanks as null, anything beyond the last heading dropped. */
function fit(cells: readonly Cell[], width: number): Cell[] {
  return Array.from({ length: width }, (_, at) => {
    const cell = cells[at];
    return cell === undefined || isBlank(cell) ? null : cell;
  });
}
