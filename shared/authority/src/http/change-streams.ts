/** How many change streams the authority keeps open: in all, and to one address. */
export interface ChangeStreamLimits {
  /** Open streams in all. Default 1,000. */
  readonly total?: number;
  /** Open streams to one remote address. Default 64 (a local stack's agents and console share 127.0.0.1). */
  readonly perAddress?: number;
}

export const DEFAULT_CHANGE_STREAMS = { total: 1_000, perAddress: 64 } as const;

/**
 * The open change streams, counted. The feed is anonymous (reads are open), and each stream holds a
 * socket, a timer and a subscription for as long as the caller keeps it: 300 were taken from one
 * caller. Each agent replica and console needs one, so the bound is far above a deployment's own
 * and below what would wear the authority down; past it a stream is refused (503, Retry-After).
 */
export class ChangeStreams {
  private readonly total: number;
  private readonly perAddress: number;
  private open = 0;
  // A Map: the address is the caller's, and no name of it may find anything but a count.
  private readonly byAddress = new Map<string, number>();

  constructor(limits: ChangeStreamLimits = {}) {
    this.total = limits.total ?? DEFAULT_CHANGE_STREAMS.total;
    this.perAddress = limits.perAddress ?? DEFAULT_CHANGE_STREAMS.perAddress;
    for (const [name, value] of [
      ['total', this.total],
      ['perAddress', this.perAddress],
    ] as const) {
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`The change streams' ${name} bound must be a whole number of at least 1; ${value} is not.`);
    }
  }

  /** Take a stream for `address`, or say in a sentence why none is open to it now. */
  take(address: string): { release: () => void } | { refused: string } {
    const mine = this.byAddress.get(address) ?? 0;
    if (this.open >= this.total) {
      return { refused: `The authority keeps ${this.total} change streams open at most, and that many are; nothing was opened, try again shortly.` };
    }
    if (mine >= this.perAddress) {
      return {
        refused: `The authority keeps ${this.perAddress} change streams open to one address at most, and yours has that many; close one, or try again shortly.`,
      };
    }
    this.open += 1;
    this.byAddress.set(address, mine + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.open -= 1;
        const left = (this.byAddress.get(address) ?? 1) - 1;
        if (left === 0) this.byAddress.delete(address);
        else this.byAddress.set(address, left);
      },
    };
  }

  /** Streams open now, in all. */
  get size(): number {
    return this.open;
  }
}
