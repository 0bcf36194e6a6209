/** One cell as the agent keeps it: text, a number, or nothing. Dates arrive as ISO text. */
export type Cell = string | number | null;

export type SheetFormat = 'xlsx' | 'csv';

/**
 * What `readSheet` makes of a file. The runtime journals it, so it is plain JSON and bounded:
 * at most `maxRows` rows are kept, however many the sheet holds.
 */
export interface SheetInput {
  readonly filename: string;
  readonly format: SheetFormat;
  /** The worksheet that was read (the first in the workbook's tab order); null for CSV. */
  readonly sheet: string | null;
  /** The header row's cells exactly as the sheet shows them, spaces and case kept. */
  readonly headings: readonly string[];
  /** 1-based row of the header in the sheet (in a CSV file, the record number). */
  readonly headerRow: number;
  /** The data rows below the header, empty rows skipped, each exactly as wide as `headings`. */
  readonly rows: readonly (readonly Cell[])[];
  /** Every non-empty data row below the header, counting those not kept in `rows`. */
  readonly rowCount: number;
  /** True when the sheet holds more rows than `rows` keeps. */
  readonly truncated: boolean;
}

/** How much of a sheet `readSheet` is willing to hold and unpack. */
export interface ReadLimits {
  /** Data rows kept in `SheetInput.rows`; the rest are counted, not kept. */
  readonly maxRows: number;
  /** Bytes an .xlsx may unpack to, all its parts together. */
  readonly maxUnpackedBytes: number;
  /** Columns a heading row may span; a wider one is refused. */
  readonly maxColumns: number;
  /** Cells kept in `rows` (rows × headings): a wide table keeps fewer rows, so the journal stays small. */
  readonly maxKeptCells: number;
  /** Characters one cell may hold, in any row read; a longer one is refused. */
  readonly maxCellCharacters: number;
  /**
   * Characters kept, headings and `rows` together, each cell counted as it journals (its text and
   * the JSON around it): rows past it are counted, not kept, as past `maxKeptCells`.
   */
  readonly maxKeptCharacters: number;
}

/**
 * Excel 97-2003 held at most 256 columns and no manifest comes near it; a heading row wider than
 * that is a sheet built to cost (16,384 headings padded into 5,000 rows took 41 s and 2.5 GB).
 * Excel holds at most 32,767 characters in a cell, so no workbook or CSV it saves is refused for
 * one; a 15 kB workbook of four cells of 3.5 million characters (issue 34) is. Two million
 * characters keep 5,000 rows of twelve 30-character cells, far more than any manifest's text, and
 * are what the main thread copies, journals and reads once a thread has read the file (a million
 * cells of `maxKeptCells` can journal as 12 MB, 14 million characters of cells as 14 MB).
 */
export const DEFAULT_LIMITS: ReadLimits = {
  maxRows: 5_000,
  maxUnpackedBytes: 100_000_000,
  maxColumns: 256,
  maxKeptCells: 1_000_000,
  maxCellCharacters: 32_767,
  maxKeptCharacters: 2_000_000,
};
