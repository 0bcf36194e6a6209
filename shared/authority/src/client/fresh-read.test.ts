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

/**
 * An authority with a commit wait, on a simulated clock, answered by hand: each request reads the
 * state as it is when sent (the earliest it could), and its answer carries a reuse window no longer
 * than the authority's wait (its own, a shorter one, or none, as an older authority would).
 */
function waitingAuthority(wait: number) {
  let now = 0;
  let order = 0;
  const changes: number[] = [];
  const out: { seq: number; answer: (window: number | 'fail') => void }[] = [];
  type Answer = { seq: number; sentAt: number; state: number; window: number };
  const read = () =>
    new Promise<Answer>((resolve, reject) => {
      order += 1;
      const sent = { seq: order, sentAt: now, state: changes.length };
      out.push({
        seq: sent.seq,
        answer: (window) =>
          window === 'fail' ? reject(Object.assign(new Error(`request ${sent.seq} failed`), { seq: sent.seq })) : resolve({ ...sent, window }),
      });
    });
  return {
    read,
    out,
    wait,
    now: () => now,
    advance: (ms: number) => (now += ms),
    change: () => changes.push(now),
    nextOrder: () => (order += 1),
    /** How many changes were acknowledged (or announced) by `at`: committed at least the wait before. */
    acknowledgedBy: (at: number) => changes.filter((committed) => committed + wait <= at).length,
  };
}

type Step = { call: true } | { change: true } | { advance: number } | { answer: number | 'fail' };

/** A FreshRead over an authority waiting 10, whose first request (seq 1) was answered with a window of 10 at time 0. */
async function answeredOnce() {
  const authority = waitingAuthority(10);
  const shared = new FreshRead(authority.read, { windowOf: (answer) => answer.window, now: authority.now });
  const first = shared.get();
  await tick();
  authority.out.shift()!.answer(10);
  expect((await first).seq).toBe(1);
  return { authority, shared };
}

describe('FreshRead with a reuse window (an authority that advertises its commit wait)', () => {
  it("hands each caller an answer of a request sent after it called or less than that answer's window before, and so every change acknowledged before it called", async () => {
    const step = (wait: number): fc.Arbitrary<Step> =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constant({ call: true as const }) },
        { weight: 2, arbitrary: fc.constant({ change: true as const }) },
        { weight: 3, arbitrary: fc.integer({ min: 0, max: wait + 3 }).map((advance) => ({ advance })) },
        { weight: 3, arbitrary: fc.oneof(fc.constant('fail' as const), fc.constantFrom(0, Math.floor(wait / 2), wait)).map((answer) => ({ answer })) },
      );
    const schedule = fc.integer({ min: 1, max: 30 }).chain((wait) => fc.tuple(fc.constant(wait), fc.array(step(wait), { maxLength: 80 })));
    await fc.assert(
      fc.asyncProperty(schedule, async ([wait, script]) => {
        const authority = waitingAuthority(wait);
        const shared = new FreshRead(authority.read, { windowOf: (answer) => answer.window, now: authority.now });
        type Call = { seq: number; at: number; got?: { seq: number; sentAt: number; state: number; window: number }; failedBy?: number };
        const calls: Call[] = [];
        const answerOldest = async (window: number | 'fail') => {
          authority.out.shift()?.answer(window);
          await tick();
        };
        for (const action of script) {
          if ('call' in action) {
            const call: Call = { seq: authority.nextOrder(), at: authority.now() };
            calls.push(call);
            shared.get().then(
              (answer) => (call.got = answer),
              (error: { seq: number }) => (call.failedBy = error.seq),
            );
            await tick();
          } else if ('change' in action) authority.change();
          else if ('advance' in action) authority.advance(action.advance);
          else await answerOldest(action.answer);
          expect(authority.out.length).toBeLessThanOrEqual(1);
        }
        while (authority.out.length > 0) await answerOldest(wait);
        for (const call of calls) {
          if (call.failedBy !== undefined) {
            // A failure is passed only to callers its request was sent for: sent after they called.
            expect(call.failedBy).toBeGreaterThan(call.seq);
            continue;
          }
          const got = call.got;
          expect(got).toBeDefined();
          // Sent after the call, or less than its own window before it...
          expect(got!.seq > call.seq || call.at - got!.sentAt < got!.window).toBe(true);
          // ...so it holds every change acknowledged before the call: never an older state.
          expect(got!.state).toBeGreaterThanOrEqual(authority.acknowledgedBy(call.at));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reuses an answer within its window and asks for the next only for a caller it no longer covers, one request at a time', async () => {
    // Window 10, answered at once.
    const { authority, shared } = await answeredOnce();
    authority.advance(9);
    // At 9, the last moment it covers: answer 1, and nothing asked (asking ahead of need, at four
    // fifths of the window or sooner, cost the authority more than it spared the callers).
    expect((await shared.get()).seq).toBe(1);
    await tick();
    expect(authority.out).toHaveLength(0);
    // At 10 it has run out: the caller waits for the next, and one arriving meanwhile joins it.
    authority.advance(1);
    const waiting = shared.get();
    authority.advance(1);
    const joining = shared.get();
    await tick();
    expect(authority.out).toHaveLength(1);
    authority.out.shift()!.answer(10);
    expect((await waiting).seq).toBe(2);
    expect((await joining).seq).toBe(2);
    // Answer 2 (sent at 10) covers callers until 20, with nothing more asked.
    authority.advance(8);
    expect((await shared.get()).seq).toBe(2);
    await tick();
    expect(authority.out).toHaveLength(0);
  });

  it('joins the request out provisionally, and sends the next for those its answer does not cover', async () => {
    const { authority, shared } = await answeredOnce();
    // Answer 1 has run out: the next caller sends.
    authority.advance(10);
    const second = shared.get();
    await tick();
    expect(authority.out).toHaveLength(1);
    authority.advance(2);
    const covered = shared.get();
    authority.advance(4);
    const notCovered = shared.get();
    await tick();
    // Answered with a window of 5: the caller 2 after the send is covered, the one 6 after is not.
    authority.out.shift()!.answer(5);
    expect((await second).seq).toBe(2);
    expect((await covered).seq).toBe(2);
    await tick();
    expect(authority.out).toHaveLength(1);
    authority.out.shift()!.answer(5);
    expect((await notCovered).seq).toBe(3);
  });

  it('never reuses a failed request: those who joined it share the next', async () => {
    const authority = waitingAuthority(10);
    const shared = new FreshRead(authority.read, { windowOf: (answer) => answer.window, now: authority.now });
    const first = shared.get();
    authority.advance(1);
    const joined = shared.get();
    await tick();
    authority.out.shift()!.answer('fail');
    await expect(first).rejects.toThrow('request 1 failed');
    await tick();
    authority.out.shift()!.answer(10);
    expect((await joined).seq).toBe(2);
    expect((await shared.get()).seq).toBe(2);
    expect(authority.out).toHaveLength(0);
  });
});
