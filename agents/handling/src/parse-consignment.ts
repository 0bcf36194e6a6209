import { parse as parseCsv } from 'csv-parse/sync';
// A parse module (the runtime may run it in a parse thread): it imports only what parsing needs.
import type { InputPart } from '@learnables/learnable';
import { InputRefused } from '@learnables/learnable';
import { LONGEST_EXAMPLE } from './handling-examples.ts';
import { tokensOf } from './tokens.ts';

/** One goods description to decide: a message's one, or one row of a manifest. Plain JSON (journaled). */
export interface GoodsLine {
  /** The manifest's row number, heading row 1; absent for a message holding one description. */
  readonly row?: number;
  readonly description: string;
  /**
   * The words the classifier reads in it (`tokensOf`), taken while parsing: a large manifest is
   * parsed in the runtime's parse threads, so tokenizing its rows holds up no other request.
   */
  readonly tokens: readonly string[];
}

export interface Consignment {
  readonly lines: readonly GoodsLine[];
}

/**
 * The most rows a manifest may hold. Every row is classified when the task reads and again by
 * each reread and preview: 1,000 rows cost about 0.1 s of classifying, which keeps one manifest
 * from holding up the others (BENCHMARKS.md, the handling agent's classify time).
 */
export const MOST_ROWS = 1000;
/** A manifest's text is refused before it is parsed past this many characters. */
const LONGEST_MANIFEST = MOST_ROWS * (LONGEST_EXAMPLE + 200);
const DESCRIPTION_HEADINGS = ['description', 'goods description', 'goods', 'contents', 'commodity'];

const HOW_TO_SEND =
  'Send the goods description as text, e.g. "frozen prawns, 12 cartons, -18 °C", as data {"description": "…"}, or a manifest as CSV text with a "Description" column.';

const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;

function line(description: unknown, row?: number): GoodsLine {
  const where = row === undefined ? 'This consignment' : `Row ${row}`;
  if (typeof description !== 'string' || description.trim() === '') throw new InputRefused(`${where} has no goods description. ${HOW_TO_SEND}`);
  const text = description.trim().replace(/\s+/g, ' ');
  if (text.length > LONGEST_EXAMPLE) {
    throw new InputRefused(
      `${where}'s goods description is ${text.length} characters long, more than the ${LONGEST_EXAMPLE} I read; give what the goods are, e.g. "frozen prawns, 12 cartons".`,
    );
  }
  const tokens = tokensOf(text);
  return row === undefined ? { description: text, tokens } : { row, description: text, tokens };
}

/** Headings named in a refusal: a few, then how many more (the sentence is kept with the task). */
const HEADINGS_NAMED = 12;
const someHeadings = (headings: readonly string[]): string =>
  headings.length <= HEADINGS_NAMED
    ? headings.map(quoted).join(', ')
    : `${headings.slice(0, HEADINGS_NAMED).map(quoted).join(', ')} and ${headings.length - HEADINGS_NAMED} more`;

/** A manifest as CSV text: a heading row, then one consignment per row, read from its description column. */
function manifest(text: string): Consignment {
  if (text.length > LONGEST_MANIFEST) {
    throw new InputRefused(
      `This manifest is ${text.length} characters long; I read manifests of up to ${MOST_ROWS} rows (${LONGEST_MANIFEST} characters). Send it in parts.`,
    );
  }
  let records: string[][];
  try {
    // One row past the most, to tell a manifest that is too long from one that just fits.
    records = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, to: MOST_ROWS + 2, bom: true }) as string[][];
  } catch (error) {
    throw new InputRefused(`This manifest is not CSV I can read (${error instanceof Error ? error.message : String(error)}). ${HOW_TO_SEND}`);
  }
  const [headings = [], ...rows] = records;
  if (rows.length > MOST_ROWS) throw new InputRefused(`This manifest has more than ${MOST_ROWS} rows; send it in parts of ${MOST_ROWS} rows or fewer.`);
  const lowered = headings.map((heading) => heading.trim().toLowerCase());
  const column = headings.length === 1 ? 0 : lowered.findIndex((heading) => DESCRIPTION_HEADINGS.includes(heading));
  if (column < 0) {
    throw new InputRefused(`This manifest has no description column (its headings are ${someHeadings(headings)}). ${HOW_TO_SEND}`);
  }
  if (rows.length === 0) throw new InputRefused(`This manifest has headings and no rows. ${HOW_TO_SEND}`);
  return { lines: rows.map((cells, at) => line(cells[column], at + 2)) };
}

/**
 * The consignments of a message: the first data part `{ "description": "…" }`, else its text — one
 * line is one description, several lines a CSV manifest with a heading row (a `text/csv` file part
 * is read as one too).
 */
export function parseConsignment(parts: readonly InputPart[]): Consignment {
  const data = parts.find((part) => part.kind === 'data');
  if (data) {
    const fields = typeof data.data === 'object' && data.data !== null ? new Map(Object.entries(data.data)) : new Map<string, unknown>();
    return { lines: [line(fields.get('description'))] };
  }
  const csv = parts.find((part) => part.kind === 'file' && (part.mediaType === 'text/csv' || part.filename?.toLowerCase().endsWith('.csv')));
  if (csv?.kind === 'file') return manifest(new TextDecoder('utf-8').decode(csv.bytes));
  const text = parts
    .map((part) => (part.kind === 'text' ? part.text : ''))
    .join('\n')
    .trim();
  if (text === '') throw new InputRefused(`There is no goods description in this message. ${HOW_TO_SEND}`);
  return /[\r\n]/.test(text) ? manifest(text) : { lines: [line(text)] };
}
