import { describe, expect, it } from 'vitest';
import { ago, waited } from './relative-time.ts';

const now = Date.parse('2026-12-01T12:00:00Z');
const before = (ms: number) => now - ms;

describe('relative times read the way people say them', () => {
  it('counts up from just now to years', () => {
    expect(ago(before(30_000), now)).toBe('just now');
    expect(ago(before(4 * 60_000), now)).toBe('4 min ago');
    expect(ago(before(3 * 3_600_000 + 5), now)).toBe('3 h ago');
    expect(ago(before(86_400_000), now)).toBe('1 day ago');
    expect(ago(before(9 * 86_400_000), now)).toBe('9 days ago');
    expect(ago(before(35 * 86_400_000), now)).toBe('5 weeks ago');
    expect(ago(before(200 * 86_400_000), now)).toBe('6 months ago');
    expect(ago(before(800 * 86_400_000), now)).toBe('2 years ago');
  });

  it('never says a time in the future is ago', () => {
    expect(ago(now + 90_000, now)).toBe('just now');
  });

  it('says how long a question has waited', () => {
    expect(waited(before(10_000), now)).toBe('waiting under a minute');
    expect(waited(before(7 * 60_000), now)).toBe('waiting 7 min');
  });
});
