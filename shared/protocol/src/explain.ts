import type { z } from 'zod';

/**
 * One sentence from a zod error, naming each bad field, for people rather than parsers:
 * `taughtBy must not be empty; value must be an object`.
 */
export function explainInvalid(error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    if (issue.code === 'invalid_type' && issue.input === undefined) return `${where || 'the body'} is missing`;
    if (issue.message.startsWith(where) || where === '') return issue.message;
    return `${where}: ${issue.message}`;
  });
  return [...new Set(parts)].join('; ');
}
