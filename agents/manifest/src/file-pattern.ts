/**
 * A file-name pattern: the scope a lesson may carry (issue 19). It is a file name with each run
 * of digits written `#`, so `2026-10-05-shb-manifest-201.xlsx` gives `#-#-#-shb-manifest-#.xlsx`,
 * which also matches `2026-11-02-shb-manifest-214.xlsx` and nothing from another sender's desk.
 * `#` stands for one or more digits; everything else is itself, case aside, and the whole name
 * must match. A scope narrows a lesson: a lesson with one holds only for files named like this.
 */

/** Longer than any file name a desk sends; longer text is a paste of something else. */
export const LONGEST_PATTERN = 200;

/**
 * Why a typed pattern cannot be used, in the operator's words; undefined when it can. A digit
 * beside a `#` is refused, so every `#` stands between things that are not digits and a match
 * takes one pass over the name (no pattern can make matching slow).
 */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length > LONGEST_PATTERN)
    return `A file-name pattern of ${pattern.length} characters is not a file name; give the name as it arrives, with # for each number.`;
  if (/[/\\]/.test(pattern)) return `"${pattern}" holds a folder; give only the file's name, with # for each number.`;
  if (/##|\d#|#\d/.test(pattern)) return `In "${pattern}" a # stands beside a digit or another #; write # once for each whole number (2026-10-05 is #-#-#).`;
  return undefined;
}

/** The pattern of `filename`: its digit runs as `#`. Undefined when the name cannot give one (it holds `#` itself, or is no usable pattern). */
export function patternOf(filename: string): string | undefined {
  const name = filename.trim();
  if (name === '' || name.includes('#')) return undefined;
  const pattern = name.replace(/\d+/g, '#');
  return patternProblem(pattern) === undefined ? pattern : undefined;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Does `filename` match `pattern`? Case aside, the whole name. */
export function fileMatches(pattern: string, filename: string): boolean {
  if (patternProblem(pattern) !== undefined || filename.length > 4 * LONGEST_PATTERN) return false;
  const expression = new RegExp(`^${pattern.trim().split('#').map(escapeRegExp).join('\\d+')}$`, 'i');
  return expression.test(filename.trim());
}

/** Two patterns are the same scope when they read the same, case aside. */
export const samePattern = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
