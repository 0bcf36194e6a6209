import { describe, expect, it, vi } from 'vitest';
import { REQUEST_FOREGROUND_MS, backgroundTurn, foreground, foregroundRequests, tasksAdvancing } from './background-turn.ts';

const elapsed = async (wait: Promise<void>): Promise<number> => {
  const started = performance.now();
  await wait;
  return performance.now() - started;
};

describe('background turns wait for a pause in the foreground', () => {
  it('come at once (next turn of the event loop) when no task is being advanced', async () => {
    expect(tasksAdvancing()).toBe(0);
    let turned = false;
    const turn = backgroundTurn(10_000).then(() => (turned = true));
    // Not synchronously: a slice always gives the loop back first.
    await Promise.resolve();
    expect(turned).toBe(false);
    expect(await elapsed(turn.then(() => undefined))).toBeLessThan(1_000);
  });

  it('wait while a task is being advanced, and come when the last one running ends', async () => {
    let endFirst!: () => void;
    let endSecond!: () => void;
    const first = foreground(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = foreground(() => new Promise<void>((resolve) => (endSecond = resolve)));
    expect(tasksAdvancing()).toBe(2);
    let turned = false;
    const turn = backgroundTurn(10_000).then(() => (turned = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(turned).toBe(false);
    endFirst();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One task still runs: no turn yet.
    expect(turned).toBe(false);
    endSecond();
    await second;
    await turn;
    expect(turned).toBe(true);
    expect(tasksAdvancing()).toBe(0);
  });

  it('come after atMostMs when the foreground never pauses, so catching up goes on under constant load', async () => {
    let end!: () => void;
    const busy = foreground(() => new Promise<void>((resolve) => (end = resolve)));
    const waited = await elapsed(backgroundTurn(40));
    expect(waited).toBeGreaterThanOrEqual(35);
    end();
    await busy;
  });

  it('count a task that failed as ended', async () => {
    await expect(foreground(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(tasksAdvancing()).toBe(0);
  });
});

describe('a request is foreground from its arrival to its response', () => {
  const request = (path: string) => {
    const listeners = new Map<string, () => void>();
    const res = { once: (event: string, listener: () => void) => listeners.set(event, listener) };
    let passed = false;
    foregroundRequests({ path }, res, () => (passed = true));
    return { passed: () => passed, emit: (event: 'finish' | 'close') => listeners.get(event)?.() };
  };

  it('until its response finishes or its connection closes, once, and /healthz not at all', () => {
    const sent = request('/a2a/jsonrpc');
    expect(sent.passed()).toBe(true);
    expect(tasksAdvancing()).toBe(1);
    sent.emit('finish');
    sent.emit('close');
    expect(tasksAdvancing()).toBe(0);
    const probe = request('/healthz');
    expect(probe.passed()).toBe(true);
    expect(tasksAdvancing()).toBe(0);
  });

  it('for at most REQUEST_FOREGROUND_MS (a stream stays open as long as its client listens)', async () => {
    vi.useFakeTimers();
    try {
      request('/a2a/rest/message:stream');
      expect(tasksAdvancing()).toBe(1);
      vi.advanceTimersByTime(REQUEST_FOREGROUND_MS);
      expect(tasksAdvancing()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
