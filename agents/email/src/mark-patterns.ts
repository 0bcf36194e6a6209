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
 * A pattern for exactly this reference: not after a letter or digit, and not followed by a letter,
 * a digit, or a further digit group, so `PA-2026-0901` does not match `PA-2026-09011`,
 * `XPA-2026-0901` or `PA-2026-0901-2`. (RE2 has no lookaround, hence the spelled-out edges.)
 */
export function referencePattern(reference: string): string {
  return `(?:^|[^0-9a-z])${escapePattern(reference)}(?:$|[^0-9a-z/-]|[-/](?:$|[^0-9]))`;
}
