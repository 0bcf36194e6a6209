/**
 * Names end up in the permanent audit trail (who taught, who rolled back, which client) and on
 * every screen that shows it. These characters make a name print as something else, or not print
 * at all: control characters (a newline forges a log line), lone surrogates (not text: they fail
 * to encode, and crashed the console's sign-in) and bidirectional overrides (they reorder what a
 * reader sees, so "dana‮nimda" reads as "danaadmin").
 */
const UNREADABLE: readonly { readonly characters: RegExp; readonly what: string }[] = [
  { characters: /\p{Cc}/u, what: 'a control character (such as a line break or tab)' },
  { characters: /\p{Cs}/u, what: 'a broken character (half of a surrogate pair)' },
  { characters: /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u, what: 'a character that changes the direction text is shown in' },
];

/** What makes a name unreadable, in words, or undefined when it is fine to record and show. */
export function unreadableIn(name: string): string | undefined {
  return UNREADABLE.find(({ characters }) => characters.test(name))?.what;
}
