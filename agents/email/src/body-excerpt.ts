/** How many characters of the body a task's summary shows. */
export const EXCERPT_LENGTH = 200;

/**
 * The body's head is collapsed first: a body may be 1 MiB, and its whole text collapsed (what this
 * did before, 3-5 ms a megabyte) only to keep 200 characters of it. Past this many characters the
 * head stands for the whole whenever it already holds text beyond the excerpt (see `bodyExcerpt`).
 */
const HEAD = 1024;

/**
 * The start of a body as a task's summary shows it: every run of white space one space, trimmed, cut
 * to EXCERPT_LENGTH characters at a word's end with `…`. Exactly what collapsing the whole body gives:
 * the head collapsed (and trimmed at its start) is the start of the whole collapsed, since a run of
 * white space cut by the head's end is one space either way; when it has a character other than white
 * space past EXCERPT_LENGTH, the whole is longer than EXCERPT_LENGTH too and begins with the same
 * EXCERPT_LENGTH characters, which are all the excerpt reads. Otherwise the whole body is collapsed.
 */
export function bodyExcerpt(body: string): string {
  if (body.length > HEAD) {
    const head = body.slice(0, HEAD).replace(/\s+/g, ' ').trimStart();
    if (/\S/.test(head.slice(EXCERPT_LENGTH))) return cut(head);
  }
  const whole = body.replace(/\s+/g, ' ').trim();
  return whole.length > EXCERPT_LENGTH ? cut(whole) : whole;
}

/** The first EXCERPT_LENGTH characters, without a word cut in two at the end, and `…`. */
function cut(collapsed: string): string {
  return `${collapsed.slice(0, EXCERPT_LENGTH).replace(/\s+\S*$/, '')}…`;
}
