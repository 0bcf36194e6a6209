import { CsvError, parse } from 'csv-parse';
import { refuse } from './refusals.ts';

export type Separator = ',' | ';' | '\t';

const SEPARATORS: readonly Separator[] = [',', ';', '\t'];
const SAMPLE_RECORDS = 50;
/** The text is fed to the parser this many bytes at a time, so it never holds more records than one piece makes. */
const PIECE = 64 * 1024;
const SAMPLE_PIECE = 4 * 1024;

/**
 * Characters one record may hold (its cells, not counting separators). No manifest row comes near
 * it; a record that does is almost always a quote never closed, swallowing the rest of the file.
 */
export const MAX_RECORD_CHARS = 1_000_000;
/**
 * Cells one record may hold: Excel's own limit, so no CSV it saves is refused. Separators are not
 * counted by `MAX_RECORD_CHARS`, and a line of 40 million commas would otherwise be 40 million cells.
 */
export const MAX_RECORD_CELLS = 16_384;

class TooManyCells extends Error {
  constructor(readonly row: number) {
    super(`more than ${MAX_RECORD_CELLS} cells in record ${row}`);
  }
}

/**
 * csv-parse, set to read CSV as files in the wild write it: quoted fields may hold separators,
 * doubled quotes and line breaks; lines end in CRLF, LF or CR; rows may differ in width; a quote in
 * the middle of an unquoted field, or after a closing quote, is kept as text; spaces at the start of
 * a field are dropped (so `a, "b,c"` is two fields, as its writer meant). Blank lines stay records
 * (`['']`), so record numbers count every line of the table. No `on_record` hook: csv-parse builds
 * an info object for every record it hands one, which cost a third of its own time on 100k rows;
 * a record's width is checked where it is received instead.
 */
function parser(separator: Separator) {
  return parse(csvOptions(separator));
}

/** The csv-parse options every CSV is read with (also the reference the tests and the read-rate benchmark compare against). */
export function csvOptions(separator: Separator) {
  return {
    delimiter: separator,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_quotes: true,
    relax_column_count: true,
    ltrim: true,
    bom: true,
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_CHARS,
  };
}

/**
 * The separators between the start of the record being read and where the parser has got to: its
 * cells, less one, at most. csv-parse bounds a record's characters but not its cells (separators do
 * not count), and has no hook while a record grows, so this is checked after every piece it reads.
 * Each byte is counted at most twice.
 */
class OpenRecordWidth {
  /** Where the record being read starts, as far as the parser has said. */
  private start = 0;
  private countedFrom = 0;
  private countedTo = 0;
  private separators = 0;

  constructor(
    private readonly bytes: Buffer,
    private readonly separator: number,
  ) {}

  recordEnded(at: number): void {
    this.start = at;
  }

  upTo(end: number): number {
    if (this.start > this.countedFrom) {
      this.countedFrom = this.start;
      this.countedTo = this.start;
      this.separators = 0;
    }
    for (let at = this.bytes.indexOf(this.separator, this.countedTo); at >= 0 && at < end; at = this.bytes.indexOf(this.separator, at + 1)) {
      this.separators++;
    }
    this.countedTo = end;
    return this.separators;
  }
}

/** CSV as bytes to parse: text is encoded as UTF-8; bytes are taken as UTF-8 already (see `readCsv`). */
const bytesOf = (csv: string | Uint8Array): Buffer =>
  typeof csv === 'string' ? Buffer.from(csv, 'utf8') : Buffer.from(csv.buffer, csv.byteOffset, csv.byteLength);

/**
 * The records csv-parse reads, a batch per piece of the file fed to it (each piece once it has read
 * the one before), so a reader pays for one wait per piece rather than one per record, and never
 * holds more records than one piece makes. Breaking off the loop stops the parser.
 */
async function* parsedBatches(csv: string | Uint8Array, separator: Separator, piece = PIECE): AsyncGenerator<string[][]> {
  const bytes = bytesOf(csv);
  const width = new OpenRecordWidth(bytes, separator.charCodeAt(0));
  const records = parser(separator);
  let batch: string[][] = [];
  let received = 0;
  // In flowing mode the parser hands each record over as it ends it, while it reads the piece: its
  // `info.bytes` is then where that record ends, which is where the next one starts.
  records.on('data', (record: string[]) => {
    received++;
    if (record.length > MAX_RECORD_CELLS) records.destroy(new TooManyCells(received));
    batch.push(record);
    width.recordEnded(records.info.bytes);
  });
  const ended = new Promise<void>((resolve, reject) => {
    records.once('end', resolve);
    records.once('error', reject);
    records.once('close', () => reject(new Error('the CSV parser stopped')));
  });
  ended.catch(() => {}); // its failure surfaces where it is awaited, below
  const take = (): string[][] => {
    const taken = batch;
    batch = [];
    return taken;
  };
  try {
    for (let at = 0; at < bytes.length; at += piece) {
      const end = Math.min(bytes.length, at + piece);
      await Promise.race([
        new Promise<void>((resolve, reject) => records.write(bytes.subarray(at, end), (error) => (error ? reject(error) : resolve()))),
        ended,
      ]);
      if (records.destroyed) await ended;
      if (width.upTo(end) >= MAX_RECORD_CELLS) throw new TooManyCells(records.info.records + 1);
      if (batch.length > 0) yield take();
    }
    records.end();
    await ended;
    if (batch.length > 0) yield take();
  } finally {
    records.destroy();
  }
}

/**
 * The records of a CSV file (text, or bytes in UTF-8), a batch at a time (see `parser` for how
 * lenient it is). A file that cannot be split into records is refused in a sentence naming the
 * row: a quote never closed, a record longer than `MAX_RECORD_CHARS` or wider than `MAX_RECORD_CELLS`.
 */
export async function* csvRecordBatches(csv: string | Uint8Array, separator: Separator, filename?: string): AsyncGenerator<string[][]> {
  try {
    yield* parsedBatches(csv, separator);
  } catch (error) {
    throw refusalFor(error, filename);
  }
}

/** The records of a CSV file one at a time, as `csvRecordBatches` reads them. */
export async function* csvRecords(csv: string | Uint8Array, separator: Separator, filename?: string): AsyncGenerator<string[]> {
  for await (const batch of csvRecordBatches(csv, separator, filename)) yield* batch;
}

function refusalFor(error: unknown, filename: string | undefined) {
  if (error instanceof TooManyCells) return refuse.tooManyCells(filename, error.row, MAX_RECORD_CELLS);
  if (error instanceof CsvError) {
    const row = (typeof error.records === 'number' ? error.records : 0) + 1;
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') return refuse.quoteNotClosed(filename, row);
    if (error.code === 'CSV_MAX_RECORD_SIZE') return refuse.recordTooLong(filename, row, MAX_RECORD_CHARS);
  }
  return refuse.damaged(filename, error);
}

/**
 * The separator that splits the first records most consistently into the most fields: for each
 * candidate, the most common number of fields per record; the widest wins, `,` on a tie.
 * Decimal commas (`134,8`) in a `;` file split into two fields at most, so `;` still wins.
 */
export async function detectSeparator(text: string | Uint8Array): Promise<Separator> {
  let best: Separator = ',';
  let bestWidth = 1;
  for (const separator of SEPARATORS) {
    const width = await commonWidth(text, separator);
    if (width > bestWidth) {
      best = separator;
      bestWidth = width;
    }
  }
  return best;
}

async function commonWidth(text: string | Uint8Array, separator: Separator): Promise<number> {
  const counts = new Map<number, number>();
  let sampled = 0;
  try {
    // Small pieces: 50 records are a few kilobytes, and each separator tried reads its own.
    sampling: for await (const batch of parsedBatches(text, separator, SAMPLE_PIECE)) {
      for (const record of batch) {
        if (record.every((field) => field.trim() === '')) continue;
        counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
        if (++sampled >= SAMPLE_RECORDS) break sampling;
      }
    }
  } catch {
    // A sample that stops at a record this separator cannot split is judged on what came before;
    // reading the file will say what is wrong with it.
  }
  let width = 1;
  let seen = 0;
  for (const [fields, times] of counts) {
    if (times > seen || (times === seen && fields > width)) {
      width = fields;
      seen = times;
    }
  }
  return width;
}
