/** How many sign-ins a key (an address and name, an address, a name) may have within a window before it waits. */
export interface AttemptLimit {
  readonly failures: number;
  readonly windowMs: number;
  /**
   * Past `failures`, wait this long after the last attempt before the next, doubling with each
   * (from `firstMs` up to `maxMs`), instead of until the window ends: slowed, never shut.
   */
  readonly backOff?: { readonly firstMs: number; readonly maxMs: number };
}

export interface SignInLimitOptions {
  /** Failed sign-ins per client address and typed name: the hard limit. Default 10 per 15 minutes. */
  readonly perAddressAndName?: AttemptLimit;
  /** Failed sign-ins per client address, whatever the names. Default 30 per 15 minutes. */
  readonly perAddress?: AttemptLimit;
  /**
   * Failed sign-ins per typed name from browsers that have not signed in as that name before,
   * whatever their address. Default 10 per 15 minutes, then 1 s between attempts, doubling up to a
   * minute. A browser that has signed in as the name is not held back by it (see `knownBrowserMs`).
   */
  readonly perName?: AttemptLimit;
  /** How long a browser that signed in is known for its name (a signed cookie). Default 90 days. */
  readonly knownBrowserMs?: number;
  /** Most keys remembered at once, for each of the three limits. Default 10,000 each. */
  readonly remembered?: number;
  /** Password checks running at once (each holds 128 MiB at the default cost). Default 2. */
  readonly concurrentChecks?: number;
  /** Sign-ins waiting for a check before the next is told to retry. Default 32. */
  readonly waitingChecks?: number;
}

const MINUTE = 60_000;
export const DEFAULT_SIGN_IN_LIMITS = {
  perAddressAndName: { failures: 10, windowMs: 15 * MINUTE },
  perAddress: { failures: 30, windowMs: 15 * MINUTE },
  perName: { failures: 10, windowMs: 15 * MINUTE, backOff: { firstMs: 1000, maxMs: MINUTE } },
  knownBrowserMs: 90 * 24 * 60 * MINUTE,
} as const satisfies SignInLimitOptions;

/**
 * Attempts per key in a fixed window from the first. An attempt is counted when it is *taken*,
 * before its password is checked (`take`), so sign-ins sent at once cannot all pass the limit while
 * the checks run; one that turns out right is given back (`release`) or clears its key (`clear`).
 * Keys are untrusted text (any typed name, any address), so they live in a Map with a cap: when
 * full, windows that have ended are dropped first, then the longest-unused key. Forgetting a key
 * only lets it try again sooner; it never locks anyone out.
 */
export class AttemptCounter {
  private readonly entries = new Map<string, { count: number; since: number; lastAt: number }>();

  constructor(
    private readonly limit: AttemptLimit,
    private readonly cap: number,
  ) {}

  /** Milliseconds before this key may try again; 0 when it may now. */
  waitFor(key: string, now = Date.now()): number {
    const entry = this.entries.get(key);
    if (!entry || now - entry.since >= this.limit.windowMs) return 0;
    if (entry.count < this.limit.failures) return 0;
    const { backOff } = this.limit;
    if (!backOff) return entry.since + this.limit.windowMs - now;
    const delay = Math.min(backOff.maxMs, backOff.firstMs * 2 ** Math.min(entry.count - this.limit.failures, 30));
    return Math.max(0, Math.min(entry.lastAt + delay, entry.since + this.limit.windowMs) - now);
  }

  /** Count an attempt now (after `waitFor` said 0, in the same turn of the event loop). */
  take(key: string, now = Date.now()): void {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (entry && now - entry.since < this.limit.windowMs) {
      this.entries.set(key, { count: entry.count + 1, since: entry.since, lastAt: now });
      return;
    }
    if (this.entries.size >= this.cap) {
      for (const [other, { since }] of this.entries) if (now - since >= this.limit.windowMs) this.entries.delete(other);
    }
    // Map keeps insertion order, and a key is re-inserted on every attempt: the first is the longest unused.
    while (this.entries.size >= this.cap) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { count: 1, since: now, lastAt: now });
  }

  /** Give back an attempt taken: its password was right, or it was never checked. */
  release(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.count <= 1) this.entries.delete(key);
    else this.entries.set(key, { ...entry, count: entry.count - 1 });
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Runs at most `concurrent` password checks at once, with at most `waiting` more queued; beyond that
 * `run` answers undefined at once (the caller says "busy, retry"). scrypt's memory is the cost
 * bounded here: a burst of sign-ins cannot claim 128 MiB each.
 */
export class CheckGate {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly concurrent: number,
    private readonly waiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.running >= this.concurrent) {
      if (this.queue.length >= this.waiting) return undefined;
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next in line, so `running` stays counted.
      if (next) next();
      else this.running--;
    }
  }
}
