// Text as RE2 can read it. A string with a lone surrogate (half of a UTF-16 pair: a broken
// charset, a JSON "\ud83d", a name typed by a hostile peer) is valid JavaScript but not valid
// Unicode. RE2 reads strings as UTF-8, and how node-re2 encodes one differs by Node: on Node 20 a
// lone surrogate becomes U+FFFD and the rest of the text is read; on Node 24 the text is cut short
// and a mark after it is never found (`new RE2('Oakridge').test('\ud83d Oakridge')` is false), while
// the same text as a UTF-8 Buffer (the path for several marks) still matches. So every text the
// marks are tried on, and every name and pattern, is made well formed where it comes in: a lone
// surrogate becomes U+FFFD, as UTF-8 encoding does anyway, and every Node and every path reads the same.

// ES2024 (Node 20 and later have both); the workspace's lib is ES2023.
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/** The string with each lone surrogate replaced by U+FFFD; itself when it has none. */
export function wellFormed(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

/** Every string in a parsed value (objects and arrays of them), made well formed; the value itself when none needed it. */
export function wellFormedStrings<T>(value: T): T {
  if (typeof value === 'string') return wellFormed(value) as T;
  if (Array.isArray(value)) {
    const mapped = value.map((item) => wellFormedStrings(item));
    return (mapped.some((item, i) => item !== value[i]) ? mapped : value) as T;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false;
    const mapped = Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const next = wellFormedStrings(item);
        if (next !== item) changed = true;
        return [key, next];
      }),
    );
    return (changed ? mapped : value) as T;
  }
  return value;
}
