import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXCERPT_LENGTH, bodyExcerpt } from './body-excerpt.ts';
import { emailAgent } from './email-agent.ts';
import { parseEmail } from './parse-email.ts';

// bodyExcerpt collapses only the head of a long body. These tests hold it to what summarize did
// before, written out here as it was: the whole body collapsed, then cut.

/** The plain way: every run of white space in the whole body one space, trimmed, then cut. */
function plainExcerpt(text: string): string {
  const body = text.replace(/\s+/g, ' ').trim();
  return body.length > EXCERPT_LENGTH ? `${body.slice(0, EXCERPT_LENGTH).replace(/\s+\S*$/, '')}…` : body;
}

// Every kind of white space JavaScript's \s and trim know, a surrogate pair (the head may cut one in
// two), letters and punctuation; runs of them, so long blank stretches fall across the head's end.
const WHITE = [' ', '\t', '\n', '\r\n', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
const piece = fc.oneof(
  fc.constantFrom(...WHITE),
  fc.constantFrom(...WHITE).chain((space) => fc.integer({ min: 1, max: 1500 }).map((n) => space.repeat(n))),
  fc.constantFrom('a', 'word', 'Pallets', 'NGM/2026/1142', '—', 'é', '😀', '\ud83d', ',', '…'),
  fc.integer({ min: 1, max: 400 }).map((n) => 'x'.repeat(n)),
);
const bodies = fc.array(piece, { maxLength: 120 }).map((pieces) => pieces.join(''));

describe("a task's excerpt of the body: the head collapsed decides as the whole body collapsed did", () => {
  it('for generated bodies, short and long, blank and not', () => {
    let quick = 0;
    fc.assert(
      fc.property(bodies, (body) => {
        expect(bodyExcerpt(body)).toBe(plainExcerpt(body));
        // The bodies the head decides alone (see bodyExcerpt): enough of them must be among these.
        if (body.length > 1024 && /\S/.test(body.slice(0, 1024).replace(/\s+/g, ' ').trimStart().slice(EXCERPT_LENGTH))) quick += 1;
      }),
      { numRuns: 3000 },
    );
    expect(quick).toBeGreaterThan(300);
  });

  it('for bodies whose text past the excerpt starts at every place around the head', () => {
    for (let blank = 0; blank <= 1100; blank += 1) {
      const bodies = [
        `${' '.repeat(blank)}${'y '.repeat(150)}`,
        `${'z'.repeat(blank)}${' '.repeat(1200)}tail`,
        // Text that ends at or about the excerpt's length, then nothing but white space to the end.
        `${'z'.repeat(blank)}${' '.repeat(1200)}`,
        `${'\t'.repeat(blank)}${'q'.repeat(EXCERPT_LENGTH + (blank % 7) - 3)}${'\n'.repeat(1500)}`,
        `${'w '.repeat(100)}${'\n'.repeat(blank)}end of it all ${'v'.repeat(900)}`,
      ];
      for (const body of bodies) {
        expect(bodyExcerpt(body)).toBe(plainExcerpt(body));
      }
    }
  });

  it("for every email fixture's body, and summarize gives it", async () => {
    const folder = new URL('../../../fixtures/email/', import.meta.url);
    const files = readdirSync(folder).filter((name) => name.endsWith('.eml') && !name.startsWith('malformed-'));
    expect(files.length).toBeGreaterThanOrEqual(40);
    for (const file of files) {
      const input = await parseEmail(readFileSync(new URL(file, folder)));
      // And padded past the head, so the quick way is taken.
      for (const body of [input.body, `${input.body}${input.body}`.repeat(4), `${'\n'.repeat(1000)}${input.body}`]) {
        expect(bodyExcerpt(body), file).toBe(plainExcerpt(body));
      }
      expect(emailAgent.summarize?.(input).excerpt, file).toBe(plainExcerpt(input.body));
    }
  });
});
