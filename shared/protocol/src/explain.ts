import type { z } from 'zod';

/**
 * One sentence from a zod error, naming each bad field, for people rather than parsers:
 * `taughtBy must not be empty; value must be an object`.
 */
export function explainInvalid(error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    if (issue.code === 'invalid_type') {
      // zod does not keep the input in its issues; its message says what it received.
      if (/received undefined$/.test(issue.message)) return `${where || 'the body'} is missing`;
      return `${where || 'the body'} must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    }
    if (issue.message.startsWith(where) || where === '') return issue.message;
    return `${where}: ${issue.message}`;
  });
  return [...new Set(parts)].join('; ');
}
