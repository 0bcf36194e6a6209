// What an agent says a message is about (`metadata.summary`) is drawn blind: by the shape of each
// value, never by its key. Text is text, a list of texts is a list, a list of lists is a table.

export type SummaryValue =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'list'; readonly items: readonly string[]; readonly more: number }
  | { readonly kind: 'table'; readonly head?: readonly string[]; readonly rows: readonly (readonly string[])[]; readonly more: number }
  | { readonly kind: 'group'; readonly items: readonly SummaryItem[] };

export interface SummaryItem {
  readonly label: string;
  readonly value: SummaryValue;
}

const MAX_LIST = 12;
const MAX_ROWS = 8;
const MAX_CELLS = 12;
const MAX_TEXT = 600;
const MAX_DEPTH = 2;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const clip = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** One cell or list item as text: scalars as they are, anything else as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return clip(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return clip(JSON.stringify(value));
  } catch {
    return '';
  }
}

/** A key as a label, by its spelling alone: `firstRows` and `first_rows` read "First rows". */
export function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? key : words[0]!.toUpperCase() + words.slice(1);
}

function summaryValueOf(value: unknown, depth: number): SummaryValue | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.every(Array.isArray)) {
      const rows = value.slice(0, MAX_ROWS).map((row: unknown[]) => row.slice(0, MAX_CELLS).map(cellText));
      return { kind: 'table', rows, more: value.length - rows.length };
    }
    const items = value.slice(0, MAX_LIST).map(cellText);
    return { kind: 'list', items, more: value.length - items.length };
  }
  if (isObject(value) && depth < MAX_DEPTH) {
    const items = itemsOf(value, depth + 1);
    return items.length > 0 ? { kind: 'group', items } : undefined;
  }
  return { kind: 'text', text: cellText(value) };
}

const isFlatList = (value: unknown): value is unknown[] =>
  Array.isArray(value) && value.length > 0 && !value.some((item) => Array.isArray(item) || isObject(item));

/**
 * A list of texts just before a list of rows exactly as wide as it is the rows' header, by shape:
 * the two are drawn as one table with a header row, so a preview of a sheet reads like the sheet.
 */
const headsTable = (head: unknown, rows: unknown): boolean =>
  isFlatList(head) && Array.isArray(rows) && rows.length > 0 && rows.every((row) => Array.isArray(row) && row.length === head.length);

function itemsOf(summary: Record<string, unknown>, depth: number): SummaryItem[] {
  const entries = Object.entries(summary);
  const items: SummaryItem[] = [];
  for (let index = 0; index < entries.length; index++) {
    const [key, raw] = entries[index]!;
    const next = entries[index + 1];
    if (next && headsTable(raw, next[1])) {
      const table = summaryValueOf(next[1], depth);
      if (table?.kind === 'table') {
        items.push({ label: labelOf(next[0]), value: { ...table, head: (raw as unknown[]).slice(0, MAX_CELLS).map(cellText) } });
        index++;
        continue;
      }
    }
    const value = summaryValueOf(raw, depth);
    if (value) items.push({ label: labelOf(key), value });
  }
  return items;
}

/** The summary as items to draw; a summary that is not an object is shown as one unlabelled item. */
export function summaryItems(summary: unknown): SummaryItem[] {
  if (isObject(summary)) return itemsOf(summary, 0);
  const value = summaryValueOf(summary, 0);
  return value ? [{ label: '', value }] : [];
}
