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
}

/**
 * Excel 97-2003 held at most 256 columns and no manifest comes near it; a heading row wider than
 * that is a sheet built to cost (16,384 headings padded into 5,000 rows took 41 s and 2.5 GB).
 * A million cells journal as about 5 MB at worst.
 */
export const DEFAULT_LIMITS: ReadLimits = { maxRows: 5_000, maxUnpackedBytes: 100_000_000, maxColumns: 256, maxKeptCells: 1_000_000 };
