import { describe, expect, it } from 'vitest';
import { commitWaitFrom } from './config.ts';

describe('the commit wait setting', () => {
  it('is 25 ms unset, takes whole milliseconds from 0 to 1,000, and refuses anything else in a sentence', () => {
    expect(commitWaitFrom(undefined)).toBe(25);
    expect(commitWaitFrom(' ')).toBe(25);
    expect(commitWaitFrom('0')).toBe(0);
    expect(commitWaitFrom(' 300 ')).toBe(300);
    expect(commitWaitFrom('1000')).toBe(1000);
    for (const bad of ['-1', '2.5', '1001', '25ms', 'soon', '1e2']) {
      expect(() => commitWaitFrom(bad)).toThrow(
        `AUTHORITY_COMMIT_WAIT_MS must be a whole number of milliseconds from 0 to 1000 (how long an activation is held back after its commit; default 25); "${bad}" is not.`,
      );
    }
  });
});
