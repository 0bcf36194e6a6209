/**
 * A shipment reference: 2–6 capital letters, then groups of digits joined by `-` or `/`
 * (`BW-88213`, `PA-2026-0901`, `NGM/2026/1142`; `TWP2026118` too, the first separator being
 * optional). Not preceded by a letter or digit, so it never starts mid-word.
 */
const REFERENCE = /(?<![\p{L}\p{N}])[A-Z]{2,6}[-/]?\d+(?:[-/]\d+)*/gu;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * Every distinct reference in the text, in order of first appearance, each taken whole:
 * `PA-2026-0901` is one reference, never `PA-2026`. One followed by a letter or digit
 * (`PA-2026-0901X`) is part of a longer word and is left out.
 */
export function findReferences(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) {
    // The match already took every digit group it could, so a shorter one would end mid-group.
    const next = text.charAt(match.index + match[0].length);
    if (!WORD_CHARACTER.test(next)) found.add(match[0]);
  }
  return [...found];
}
