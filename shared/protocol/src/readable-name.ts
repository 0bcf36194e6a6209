import { z } from 'zod';

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

/** The longest name or label recorded (SECURITY.md, Limits): a person's or a customer's name fits with room. */
export const MAX_NAME_LENGTH = 120;

/**
 * What is wrong with a name or label as a sentence's end (`taughtBy must …`), or undefined when
 * it may be recorded: 1 to 120 characters once trimmed, none of them unreadable. One rule for
 * every name that reaches the audit trail or a screen: who taught, rolled back, retracted or
 * corrected, and the label of a new entry.
 */
export function nameProblem(name: string, max = MAX_NAME_LENGTH): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'must not be empty';
  if (trimmed.length > max) return `must be at most ${max} characters`;
  const unreadable = unreadableIn(trimmed);
  return unreadable && `must not contain ${unreadable}`;
}

/** The rule as a schema: a name or label, trimmed, refused (naming `what`) as `nameProblem` says. */
export const readableName = (what: string, max = MAX_NAME_LENGTH) =>
  z
    .string()
    .trim()
    .regex(/\S/, `${what} must not be empty`)
    .max(max, `${what} must be at most ${max} characters`)
    .superRefine((name, context) => {
      const unreadable = unreadableIn(name);
      if (unreadable) context.addIssue({ code: 'custom', message: `${what} must not contain ${unreadable}` });
    });
