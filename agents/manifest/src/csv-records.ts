import type { InfoRecord, Parser } from 'csv-parse';
import { CsvError, parse } from 'csv-parse';
import { refuse } from './refusals.ts';

export type Separator = ',' | ';' | '\t';

const SEPARATORS: readonly Separator[] = [',', ';', '\t'];
const SAMPLE_RECORDS = 50;
/** The text is fed to the parser this many bytes at a time, so it never holds more records than one piece makes. */
const PIECE = 64 * 1024;

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
 * (`['']`), so record numbers count every line of the table. `recordEnded` hears where each record ends.
 */
function parser(separator: Separator, recordEnded: (at: number) => void) {
  return parse({
    delimiter: separator,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_quotes: true,
    relax_column_count: true,
    ltrim: true,
    bom: true,
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_CHARS,
    on_record: (record: string[], context: InfoRecord) => {
      if (record.length > MAX_RECORD_CELLS) throw new TooManyCells(context.records);
      recordEnded(context.bytes);
      return record;
    },
  });
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

/** The records of `text` as csv-parse reads them, streamed a piece at a time: breaking off the loop stops the parser. */
async function* parsed(text: string, separator: Separator): AsyncGenerator<string[]> {
  const bytes = Buffer.from(text, 'utf8');
  const width = new OpenRecordWidth(bytes, separator.charCodeAt(0));
  const csv = parser(separator, (at) => width.recordEnded(at));
  const feeding = feed(csv, bytes, width);
  feeding.catch(() => {}); // its failure is the parser's, and surfaces in the loop below
  try {
    for await (const record of csv) yield record as string[];
  } finally {
    csv.destroy();
  }
}

/** Write `bytes` a piece at a time, each once the parser has read the one before; stop a record growing too wide. */
async function feed(csv: Parser, bytes: Buffer, width: OpenRecordWidth): Promise<void> {
  for (let at = 0; at < bytes.length; at += PIECE) {
    const end = Math.min(bytes.length, at + PIECE);
    await new Promise<void>((resolve, reject) => csv.write(bytes.subarray(at, end), (error) => (error ? reject(error) : resolve())));
    if (width.upTo(end) >= MAX_RECORD_CELLS) {
      csv.destroy(new TooManyCells(csv.info.records + 1));
      return;
    }
  }
  csv.end();
}

/**
 * The records of CSV text, one at a time (see `parser` for how lenient it is). A file that cannot be
 * split into records is refused in a sentence naming the row: a quote never closed, a record longer
 * than `MAX_RECORD_CHARS` or wider than `MAX_RECORD_CELLS`.
 */
export async function* csvRecords(text: string, separator: Separator, filename?: string): AsyncGenerator<string[]> {
  try {
    yield* parsed(text, separator);
  } catch (error) {
    throw refusalFor(error, filename);
  }
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
export async function detectSeparator(text: string): Promise<Separator> {
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

async function commonWidth(text: string, separator: Separator): Promise<number> {
  const counts = new Map<number, number>();
  let sampled = 0;
  try {
    for await (const record of parsed(text, separator)) {
      if (record.every((field) => field.trim() === '')) continue;
      counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
      if (++sampled >= SAMPLE_RECORDS) break;
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
