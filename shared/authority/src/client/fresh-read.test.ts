import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FreshRead } from './fresh-read.ts';

/** A read whose requests are answered by hand: each request answers the counter as it is when answered... */
function controlledRead() {
  let state = 0;
  const out: { sentAt: number; answer: (fail?: boolean) => void }[] = [];
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const sentAt = state;
      // The authority reads its state when the request arrives, i.e. after it is sent.
      out.push({ sentAt, answer: (fail) => (fail ? reject(new Error(`request sent at ${sentAt} failed`)) : resolve(sentAt)) });
    });
  return {
    read,
    out,
    change: () => (state += 1),
    get state() {
      return state;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FreshRead: one request shared by the callers that may use it', () => {
  it('never hands a caller the answer of a request sent before it called, and sends at most one at a time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('call', 'change', 'answer', 'fail'), { maxLength: 60 }), async (script) => {
        const authority = controlledRead();
        const shared = new FreshRead(authority.read);
        const calls: { calledAt: number; got?: number; failed?: boolean }[] = [];
        const answerOldest = async (fail: boolean) => {
          const request = authority.out.shift();
          request?.answer(fail);
          await tick();
        };
        for (const action of script) {
          if (action === 'call') {
            const call: { calledAt: number; got?: number; failed?: boolean } = { calledAt: authority.state };
            calls.push(call);
            shared.get().then(
              (value) => (call.got = value),
              () => (call.failed = true),
            );
            await tick();
          } else if (action === 'change') authority.change();
          else await answerOldest(action === 'fail');
          expect(authority.out.length).toBeLessThanOrEqual(1);
        }
        while (authority.out.length > 0) await answerOldest(false);
        for (const call of calls) {
          expect(call.failed === true || call.got !== undefined).toBe(true);
          // What it got was read at or after the moment it called: never a staler state.
          if (call.got !== undefined) expect(call.got).toBeGreaterThanOrEqual(call.calledAt);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shares one request among the callers that arrive while another is out', async () => {
    const authority = controlledRead();
    const shared = new FreshRead(authority.read);
    const first = shared.get();
    await tick();
    authority.change();
    const later = [shared.get(), shared.get(), shared.get()];
    await tick();
    expect(authority.out.length).toBe(1);
    authority.out.shift()!.answer();
    expect(await first).toBe(0);
    await tick();
    expect(authority.out.length).toBe(1);
    authority.out.shift()!.answer();
    expect(await Promise.all(later)).toEqual([1, 1, 1]);
  });

  it('passes a failed request to the callers that shared it only; the next caller asks afresh', async () => {
    const authority = controlledRead();
    const shared = new FreshRead(authority.read);
    const first = shared.get();
    await tick();
    authority.out.shift()!.answer(true);
    await expect(first).rejects.toThrow('failed');
    const second = shared.get();
    await tick();
    authority.out.shift()!.answer();
    expect(await second).toBe(0);
  });
});
