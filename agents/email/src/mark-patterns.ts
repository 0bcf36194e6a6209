/** Escape every RE2 metacharacter, so the text matches only itself. */
export function escapePattern(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/**
 * A pattern for exactly this sender in the from, which reads `Name <address>`: the angle brackets
 * keep it from matching a longer address that contains this one (`ebilling@origin.example`,
 * `billing@origin.example.net`).
 */
export function senderPattern(address: string): string {
  return `<${escapePattern(address.toLowerCase())}>`;
}

/**
 * A pattern for exactly this reference, taken whole as `findReferences` takes it: not after a letter
 * or digit, nor after a part joined to it (`KF-` before `BK-2026-1282`), and not followed by a
 * letter, a digit or a further part, so `PA-2026-0901` does not match `PA-2026-09011`,
 * `XPA-2026-0901`, `PA-2026-0901-2` or `KF-PA-2026-0901`. A lower-case or capitalized word may be
 * joined to it (`packing-list-PA-2026-0901`, `PA-2026-0901-final`), as in file names: matched case
 * by case (`(?-i:…)`), since the mark itself ignores case. (RE2 has no lookaround, hence the
 * spelled-out edges.)
 */
export function referencePattern(reference: string): string {
  return `(?:^[-/]?|[^0-9a-z/-]|[^0-9a-z][-/]|(?-i:[a-z])[-/])${escapePattern(reference)}(?:$|[^0-9a-z/-]|[-/](?:$|[^0-9a-z])|[-/](?-i:[a-z]|[A-Z][a-z]))`;
}
