import { describe, expect, it } from 'vitest';
import { AttemptCounter, CheckGate } from './sign-in-limits.ts';

describe('sign-in limits', () => {
  it('makes a key wait once it has failed too often within the window, and forgets it when the window ends', () => {
    const counter = new AttemptCounter({ failures: 3, windowMs: 60_000 }, 100);
    for (let i = 0; i < 3; i++) {
      expect(counter.waitFor('dana', 1000 + i)).toBe(0);
      counter.take('dana', 1000 + i);
    }
    expect(counter.waitFor('dana', 2000)).toBe(59_000);
    expect(counter.waitFor('lee', 2000)).toBe(0);
    expect(counter.waitFor('dana', 61_000)).toBe(0);
    counter.take('dana', 61_000);
    expect(counter.waitFor('dana', 61_001)).toBe(0);
    counter.clear('dana');
    expect(counter.size).toBe(0);
  });

  it('counts an attempt when it is taken, and gives it back when its password was right', () => {
    const counter = new AttemptCounter({ failures: 2, windowMs: 60_000 }, 100);
    counter.take('dana', 0);
    counter.take('dana', 1);
    expect(counter.waitFor('dana', 2)).toBe(59_998);
    counter.release('dana');
    expect(counter.waitFor('dana', 2)).toBe(0);
    counter.release('dana');
    expect(counter.size).toBe(0);
    counter.release('nobody');
    expect(counter.size).toBe(0);
  });

  it('with a back-off, slows past the limit (a wait after the last attempt, doubling up to its most), never shutting until the window ends', () => {
    const counter = new AttemptCounter({ failures: 2, windowMs: 600_000, backOff: { firstMs: 1000, maxMs: 4000 } }, 100);
    counter.take('dana', 0);
    counter.take('dana', 0);
    expect(counter.waitFor('dana', 0)).toBe(1000);
    expect(counter.waitFor('dana', 1000)).toBe(0);
    counter.take('dana', 1000);
    expect(counter.waitFor('dana', 1000)).toBe(2000);
    counter.take('dana', 3000);
    expect(counter.waitFor('dana', 3000)).toBe(4000);
    counter.take('dana', 7000);
    // At its most: never more than maxMs after the last attempt, however many came before.
    for (let i = 0; i < 100; i++) counter.take('dana', 7000);
    expect(counter.waitFor('dana', 7000)).toBe(4000);
    // Nor past the window's end.
    expect(counter.waitFor('dana', 599_000)).toBe(0);
  });

  it('remembers at most its cap of keys, whatever is typed: ended windows go first, then the longest unused', () => {
    const counter = new AttemptCounter({ failures: 1, windowMs: 60_000 }, 100);
    counter.take('__proto__', 0);
    expect(counter.waitFor('__proto__', 1)).toBe(59_999);
    for (let i = 0; i < 10_000; i++) counter.take(`guess-${i}`, 1000 + i);
    expect(counter.size).toBe(100);
    // The newest are still held back; the oldest were let go.
    expect(counter.waitFor('guess-9999', 11_000)).toBeGreaterThan(0);
    expect(counter.waitFor('guess-0', 11_000)).toBe(0);
    // Once their windows have ended, new keys replace the ended ones.
    for (let i = 0; i < 50; i++) counter.take(`late-${i}`, 200_000);
    expect(counter.size).toBe(50);
  });

  it('runs at most so many checks at once, queues a few more, and turns the rest away at once', async () => {
    const gate = new CheckGate(2, 1);
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const work = () =>
      gate.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return 'checked';
      });
    const first = [work(), work(), work()];
    expect(await work()).toBeUndefined();
    await expect.poll(() => releases.length).toBe(2);
    releases.shift()!();
    await expect.poll(() => releases.length).toBe(2);
    for (const release of releases.splice(0)) release();
    expect(await Promise.all(first)).toEqual(['checked', 'checked', 'checked']);
    expect(most).toBe(2);
  });
});
