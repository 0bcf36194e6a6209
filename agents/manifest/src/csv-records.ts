export type Separator = ',' | ';' | '\t';

const SEPARATORS: readonly Separator[] = [',', ';', '\t'];
const SAMPLE_RECORDS = 50;

/**
 * The records of CSV text, one at a time: fields may be quoted, a quote inside a quoted field is
 * doubled, quoted fields may hold separators and line breaks, lines end in CRLF, LF or CR. It is
 * lenient where files in the wild are sloppy: spaces before an opening quote are dropped, a quote in
 * the middle of an unquoted field is kept as text, and text after a closing quote is kept too.
 */
export function* csvRecords(text: string, separator: Separator): Generator<string[]> {
  const n = text.length;
  let i = 0;
  let record: string[] = [];
  while (i < n) {
    let field = '';
    let opening = i;
    while (text[opening] === ' ') opening++;
    if (text[opening] === '"') {
      let from = opening + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0) {
          field += text.slice(from);
          i = n;
          break;
        }
        field += text.slice(from, quote);
        if (text[quote + 1] !== '"') {
          i = quote + 1;
          break;
        }
        field += '"';
        from = quote + 2;
      }
    }
    const end = fieldEnd(text, i, separator);
    field += text.slice(i, end);
    record.push(field);
    i = end;
    if (i >= n) break;
    if (text[i] === separator) {
      i++;
      if (i >= n) record.push('');
      continue;
    }
    yield record;
    record = [];
    i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
  }
  if (record.length > 0) yield record;
}

function fieldEnd(text: string, from: number, separator: Separator): number {
  let at = from;
  while (at < text.length) {
    const c = text[at];
    if (c === separator || c === '\n' || c === '\r') break;
    at++;
  }
  return at;
}

/**
 * The separator that splits the first records most consistently into the most fields: for each
 * candidate, the most common number of fields per record; the widest wins, `,` on a tie.
 * Decimal commas (`134,8`) in a `;` file split into two fields at most, so `;` still wins.
 */
export function detectSeparator(text: string): Separator {
  let best: Separator = ',';
  let bestWidth = 1;
  for (const separator of SEPARATORS) {
    const width = commonWidth(text, separator);
    if (width > bestWidth) {
      best = separator;
      bestWidth = width;
    }
  }
  return best;
}

function commonWidth(text: string, separator: Separator): number {
  const counts = new Map<number, number>();
  let sampled = 0;
  for (const record of csvRecords(text, separator)) {
    if (record.every((field) => field.trim() === '')) continue;
    counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
    if (++sampled >= SAMPLE_RECORDS) break;
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
