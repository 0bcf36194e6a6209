/**
 * Commit wait (as Spanner's): nobody learns of an activation — by the answer to its write or by
 * the change feed — sooner than the authority's wait after it committed. An agent then knows
 * that a request for the active version it sent less than that wait before a message arrived was
 * sent after every activation acknowledged before that message, and may reuse its answer (SPEC
 * §4.4; `FreshRead` on the client). Durations only are compared, each on its own machine's
 * monotonic clock: no clocks need agree.
 */

/** The default wait, in milliseconds: long against an answer's round trip, short against a person. */
export const DEFAULT_COMMIT_WAIT_MS = 25;

/** The most an authority may be told to wait (and the most a client believes), in milliseconds. */
export const MAX_COMMIT_WAIT_MS = 1_000;

/** A monotonic clock in milliseconds (never `Date.now()`: the wall clock can be set back). */
export type MonotonicClock = () => number;

export const monotonicNow: MonotonicClock = () => performance.now();

/** The wait given, checked: a whole number of milliseconds from 0 to MAX_COMMIT_WAIT_MS. */
export function checkedCommitWait(ms: number): number {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_COMMIT_WAIT_MS) {
    throw new RangeError(`The commit wait must be a whole number of milliseconds from 0 to ${MAX_COMMIT_WAIT_MS}; ${ms} is not.`);
  }
  return ms;
}

/**
 * Resolves once `ms` have passed on the monotonic clock since `since`. Timers alone may fire a
 * little early (libuv schedules from the time its loop last read, which can be behind), so the
 * clock is read again and the rest waited out.
 */
export async function waitOut(since: number, ms: number, now: MonotonicClock = monotonicNow): Promise<void> {
  for (let left = since + ms - now(); left > 0; left = since + ms - now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
  }
}

/**
 * Items delivered in the order they were given, each no sooner than `ms` after it was given: the
 * change feed of one subscriber. One timer at a time, for the oldest item.
 */
export class DelayedDelivery<T> {
  private readonly queue: { readonly due: number; readonly item: T }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly ms: number,
    private readonly deliver: (item: T) => void,
    private readonly now: MonotonicClock = monotonicNow,
  ) {}

  push(item: T): void {
    if (this.stopped) return;
    if (this.ms === 0 && this.queue.length === 0) {
      this.deliver(item);
      return;
    }
    this.queue.push({ due: this.now() + this.ms, item });
    if (this.timer === undefined) this.drain();
  }

  /** Take out of the queue the items not yet delivered that `unwanted` says are not to be. */
  drop(unwanted: (item: T) => boolean): void {
    for (let at = this.queue.length - 1; at >= 0; at -= 1) if (unwanted(this.queue[at]!.item)) this.queue.splice(at, 1);
  }

  /** Drop what is waiting (the subscriber left). */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private drain(): void {
    this.timer = undefined;
    while (!this.stopped && this.queue.length > 0) {
      const left = this.queue[0]!.due - this.now();
      if (left > 0) {
        this.timer = setTimeout(() => this.drain(), Math.ceil(left));
        return;
      }
      this.deliver(this.queue.shift()!.item);
    }
  }
}
