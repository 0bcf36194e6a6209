/**
 * A journaled input read back in pieces: `JSON.parse` of a 1.46 MB sheet held the event loop
 * 73–277 ms on a busy 2-core machine, in one piece of work, whatever the preview's slices were. Here
 * the text is walked at the level of its large arrays and objects only; each run of their members
 * that spans up to PIECE characters is still handed to `JSON.parse` (so values are made exactly as
 * it makes them), and `pause` is awaited between runs, so the loop can be given back every few
 * milliseconds. The value is the one `JSON.parse(text)` gives, property order, duplicate keys (the
 * last wins, in the first one's place) and a `__proto__` key (an own property, never the prototype)
 * included; a text `JSON.parse` refuses is refused too, with a SyntaxError.
 */

/** Characters given to one `JSON.parse`: about a millisecond's work. */
export const PIECE = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** A large array or object being filled, member run by member run. */
type Frame = { readonly array: unknown[]; first: boolean } | { readonly object: Record<string, unknown>; first: boolean; key?: string };

const refused = (what: string, at: number): SyntaxError => new SyntaxError(`${what} in JSON at position ${at}`);

export async function parseInPieces(text: string, pause: () => Promise<unknown>, piece = PIECE): Promise<unknown> {
  if (text.length <= piece) return JSON.parse(text);
  const length = text.length;
  const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
  const skip = (at: number): number => {
    while (at < length && isSpace(text.charCodeAt(at))) at++;
    return at;
  };
  /** Just past the string that opens at `at`. */
  const stringEnd = (at: number): number => {
    let from = at + 1;
    for (;;) {
      const quote = text.indexOf('"', from);
      if (quote < 0) throw refused('Unterminated string', at);
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  };
  /** Just past the value that starts at `at`, if it ends within `limit` characters; -1 if not. */
  const smallEnd = (at: number, limit: number): number => {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      const end = stringEnd(at);
      return end - at <= limit ? end : -1;
    }
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      let depth = 0;
      for (let j = at; j < length && j - at <= limit; ) {
        const d = text.charCodeAt(j);
        if (d === QUOTE) {
          j = stringEnd(j);
          continue;
        }
        if (d === OPEN_ARRAY || d === OPEN_OBJECT) depth++;
        else if (d === CLOSE_ARRAY || d === CLOSE_OBJECT) {
          depth--;
          if (depth === 0) return j + 1 - at <= limit ? j + 1 : -1;
        }
        j++;
      }
      return -1;
    }
    // A number or a literal (or what JSON.parse will refuse): up to the next delimiter.
    let j = at;
    while (j < length) {
      const d = text.charCodeAt(j);
      if (d === COMMA || d === CLOSE_ARRAY || d === CLOSE_OBJECT || isSpace(d)) break;
      j++;
    }
    return j === at ? -1 : j;
  };
  /** Members, from `at` (a member's start), that together span about a piece: the end of the last, or `at` if the first is large. */
  const runEnd = (at: number, inObject: boolean): number => {
    let end = at;
    let next = at;
    for (;;) {
      let start = next;
      if (inObject) {
        if (text.charCodeAt(start) !== QUOTE) return end;
        start = skip(stringEnd(start));
        if (text.charCodeAt(start) !== COLON) return end;
        start = skip(start + 1);
      }
      const valueEnd = start < length ? smallEnd(start, piece - (start - at)) : -1;
      if (valueEnd < 0) return end;
      end = valueEnd;
      const after = skip(end);
      if (text.charCodeAt(after) !== COMMA || after - at >= piece) return end;
      next = skip(after + 1);
    }
  };

  const stack: Frame[] = [];
  let root: unknown;
  let done = false;
  const deliver = (value: unknown): void => {
    const parent = stack.at(-1);
    if (parent === undefined) {
      root = value;
      done = true;
    } else if ('array' in parent) parent.array.push(value);
    else put(parent.object, parent.key!, value);
  };
  /** The value that starts at `at`: made whole if small (answers its end), or opened as a frame (answers just inside it). */
  const open = (at: number): number => {
    if (at >= length) throw refused('Unexpected end', at);
    const end = smallEnd(at, piece);
    if (end >= 0) {
      deliver(JSON.parse(text.slice(at, end)));
      return end;
    }
    const c = text.charCodeAt(at);
    if (c === OPEN_ARRAY) stack.push({ array: [], first: true });
    else if (c === OPEN_OBJECT) stack.push({ object: {}, first: true });
    else {
      // A long string (or what JSON.parse will refuse): whole, as JSON.parse would make it.
      const whole = smallEnd(at, length);
      const end = whole < 0 ? length : whole;
      deliver(JSON.parse(text.slice(at, end)));
      return end;
    }
    return at + 1;
  };

  let at = open(skip(0));
  while (!done) {
    await pause();
    const frame = stack.at(-1)!;
    const inObject = 'object' in frame;
    const close = inObject ? CLOSE_OBJECT : CLOSE_ARRAY;
    at = skip(at);
    if (text.charCodeAt(at) === close && frame.first) {
      stack.pop();
      deliver(inObject ? frame.object : frame.array);
      at += 1;
      continue;
    }
    if (!frame.first) {
      if (text.charCodeAt(at) === close) {
        stack.pop();
        deliver(inObject ? frame.object : frame.array);
        at += 1;
        continue;
      }
      if (text.charCodeAt(at) !== COMMA) throw refused(at >= length ? 'Unexpected end' : `Unexpected token ${text[at]}`, at);
      at = skip(at + 1);
    }
    frame.first = false;
    const end = runEnd(at, inObject);
    if (end > at) {
      // A run of small members, made by JSON.parse as one array or object, then moved in.
      const made = JSON.parse(inObject ? `{${text.slice(at, end)}}` : `[${text.slice(at, end)}]`) as unknown[] | Record<string, unknown>;
      if (inObject) for (const key of Object.keys(made)) put(frame.object, key, (made as Record<string, unknown>)[key]);
      else for (const value of made as unknown[]) frame.array.push(value);
      at = end;
      continue;
    }
    // A large member: its own frame.
    if (inObject) {
      if (text.charCodeAt(at) !== QUOTE) throw refused(at >= length ? 'Unexpected end' : `Unexpected token ${text[at]}`, at);
      const keyEnd = stringEnd(at);
      frame.key = JSON.parse(text.slice(at, keyEnd)) as string;
      at = skip(keyEnd);
      if (text.charCodeAt(at) !== COLON) throw refused(at >= length ? 'Unexpected end' : `Unexpected token ${text[at]}`, at);
      at = skip(at + 1);
    }
    at = open(at);
  }
  at = skip(at);
  if (at < length) throw refused(`Unexpected token ${text[at]}`, at);
  return root;
}

/** As JSON.parse sets a member: an own, plain property, whatever its name (`__proto__` too). */
function put(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}
