/** How many failed sign-ins a key (a name, an address) may have within a window before it waits. */
export interface AttemptLimit {
  readonly failures: number;
  readonly windowMs: number;
}

export interface SignInLimitOptions {
  /** Failed sign-ins per typed name. Default 10 per 15 minutes. */
  readonly perName?: AttemptLimit;
  /** Failed sign-ins per client address. Default 30 per 15 minutes. */
  readonly perAddress?: AttemptLimit;
  /** Most names (and, apart, addresses) remembered at once. Default 10,000 each. */
  readonly remembered?: number;
  /** Password checks running at once (each holds 128 MiB at the default cost). Default 2. */
  readonly concurrentChecks?: number;
  /** Sign-ins waiting for a check before the next is told to retry. Default 32. */
  readonly waitingChecks?: number;
}

/**
 * Failed attempts per key in a fixed window from the first failure. Keys are untrusted text (any
 * typed name, any address), so they live in a Map with a cap: when full, windows that have ended are
 * dropped first, then the longest-unused key. Forgetting a key only lets it try again sooner; it
 * never locks anyone out.
 */
export class AttemptCounter {
  private readonly entries = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly limit: AttemptLimit,
    private readonly cap: number,
  ) {}

  /** Milliseconds before this key may try again; 0 when it may now. */
  waitFor(key: string, now = Date.now()): number {
    const entry = this.entries.get(key);
    if (!entry || now - entry.since >= this.limit.windowMs) return 0;
    return entry.count >= this.limit.failures ? entry.since + this.limit.windowMs - now : 0;
  }

  fail(key: string, now = Date.now()): void {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (entry && now - entry.since < this.limit.windowMs) {
      this.entries.set(key, { count: entry.count + 1, since: entry.since });
      return;
    }
    if (this.entries.size >= this.cap) {
      for (const [other, { since }] of this.entries) if (now - since >= this.limit.windowMs) this.entries.delete(other);
    }
    // Map keeps insertion order, and a key is re-inserted on every failure: the first is the longest unused.
    while (this.entries.size >= this.cap) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { count: 1, since: now });
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
