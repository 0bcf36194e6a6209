/**
 * A text a mark's pattern matches, for the simple patterns a reference format is written in
 * (`\bBK-\d{4}-\d{4}\b` gives `BK-0000-0000`), or undefined for any other: literals, escapes,
 * `\d`, `\s`, `\w`, classes (their first character), groups with alternatives (the first), and
 * quantifiers (their least count). The seed check asks other customers' marks of it
 * (issue 35, class 6: a format two customers share tells neither apart).
 */
export function exampleOf(pattern: string): string | undefined {
  const parser = { pattern, at: 0 };
  try {
    const text = alternatives(parser);
    return parser.at === pattern.length ? text : undefined;
  } catch {
    return undefined;
  }
}

interface Parser {
  readonly pattern: string;
  at: number;
}

class Unsupported extends Error {}

function alternatives(parser: Parser): string {
  const first = sequence(parser);
  while (parser.pattern[parser.at] === '|') {
    parser.at += 1;
    // Only the first alternative is written: the others need only be skipped to the group's end.
    skipAlternative(parser);
  }
  return first;
}

/** Past one alternative, whatever it holds, to the `|` or `)` that ends it. */
function skipAlternative(parser: Parser): void {
  const { pattern } = parser;
  let depth = 0;
  while (parser.at < pattern.length) {
    const c = pattern[parser.at]!;
    if (c === '\\') parser.at += 2;
    else if (c === '[') {
      parser.at += pattern[parser.at + 1] === ']' ? 2 : 1;
      while (parser.at < pattern.length && pattern[parser.at] !== ']') parser.at += pattern[parser.at] === '\\' ? 2 : 1;
      parser.at += 1;
    } else if (c === '(') {
      depth += 1;
      parser.at += 1;
    } else if (c === ')' || c === '|') {
      if (depth === 0) return;
      if (c === ')') depth -= 1;
      parser.at += 1;
    } else parser.at += 1;
  }
}

function sequence(parser: Parser): string {
  let text = '';
  while (parser.at < parser.pattern.length && parser.pattern[parser.at] !== '|' && parser.pattern[parser.at] !== ')') {
    const atom = atomOf(parser);
    text += atom.repeat(quantity(parser));
  }
  return text;
}

function atomOf(parser: Parser): string {
  const { pattern } = parser;
  const c = pattern[parser.at]!;
  parser.at += 1;
  if (c === '^' || c === '$') return '';
  if (c === '.' || c === '*' || c === '+' || c === '?' || c === '{') throw new Unsupported();
  if (c === '(') {
    if (pattern.startsWith('?:', parser.at)) parser.at += 2;
    else if (pattern[parser.at] === '?') throw new Unsupported();
    const inner = alternatives(parser);
    if (pattern[parser.at] !== ')') throw new Unsupported();
    parser.at += 1;
    return inner;
  }
  if (c === '[') {
    // A negated class (`[^0-9a-z]`, a reference's edge) is written as a space, which it mostly takes.
    const negated = pattern[parser.at] === '^';
    if (negated) parser.at += 1;
    let first: string | undefined;
    while (parser.at < pattern.length && (pattern[parser.at] !== ']' || first === undefined)) {
      let ch = pattern[parser.at]!;
      parser.at += 1;
      if (ch === '\\') {
        ch = escaped(pattern[parser.at]);
        parser.at += 1;
      }
      first ??= ch;
    }
    if (pattern[parser.at] !== ']') throw new Unsupported();
    parser.at += 1;
    return negated ? ' ' : first!.toUpperCase();
  }
  if (c === '\\') {
    const next = pattern[parser.at];
    parser.at += 1;
    if (next === 'b') return '';
    return escaped(next);
  }
  return c.toUpperCase();
}

function escaped(next: string | undefined): string {
  if (next === undefined) throw new Unsupported();
  if (next === 'd') return '0';
  if (next === 's') return ' ';
  if (next === 'w') return 'A';
  if (/[0-9A-Za-z]/.test(next)) throw new Unsupported();
  return next;
}

/** How many times the atom before is written: a quantifier's least. */
function quantity(parser: Parser): number {
  const { pattern } = parser;
  const c = pattern[parser.at];
  let count = 1;
  if (c === '?' || c === '*') {
    parser.at += 1;
    count = 0;
  } else if (c === '+') parser.at += 1;
  else if (c === '{') {
    const match = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(parser.at));
    if (match === null) throw new Unsupported();
    parser.at += match[0].length;
    count = Math.min(Number(match[1]), 64);
  } else return 1;
  // A lazy quantifier reads the same.
  if (pattern[parser.at] === '?') parser.at += 1;
  return count;
}
