import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * What one preview may spend, and how many may run at once. A preview is a lesson-writing aid, so
 * it answers within these and says how far it got (`tried` of `recent`, SPEC §6.5) rather than
 * holding the agent for as long as its recent tasks would take.
 */
export interface PreviewBudget {
  /** Wall-clock time one preview spends reading recent tasks, in ms. Default 5,000. */
  readonly milliseconds?: number;
  /** Bytes of recorded input one preview takes from the journal (kept evidence costs none). Default 64 MiB. */
  readonly bytes?: number;
  /**
   * The largest recorded input one preview reads, in bytes; a larger one is not read: it is counted
   * as too large (`tooLarge`). Its JSON is parsed in pieces (parseInPieces), the loop given back
   * between them, but its reading by the agent is still one piece of work, and all of it is held at
   * once. Default 2 MiB: every sheet the manifest agent keeps (its 2 million characters journal to at
   * most about 2.0 MB) and every ordinary email.
   */
  readonly inputBytes?: number;
  /** Previews of one caller (tenant and user) running at once. Default 1. */
  readonly perCaller?: number;
  /** Previews running at once on this agent, of all callers. Default 2. */
  readonly overall?: number;
}

export const DEFAULT_PREVIEW_BUDGET: Required<PreviewBudget> = {
  milliseconds: 5_000,
  bytes: 64 * 1024 * 1024,
  inputBytes: 2 * 1024 * 1024,
  perCaller: 1,
  overall: 2,
};

/** Work done between two turns of the event loop, at most (one input's reading can take longer). */
const SLICE_MS = 10;
/** The journal is read this many bytes at a time (one larger input alone): one slice's work. */
export const CHUNK_BYTES = 1024 * 1024;

/** Which budget ended a preview early. */
export type BudgetEnded = 'time' | 'bytes';

/**
 * One preview's spending: its deadline, the bytes it may still read, and the slices it works in.
 * `pace()` gives the event loop back once a slice is used up, whatever was being done in it.
 */
export class PreviewSpend {
  private readonly deadline: number;
  private sliceStarted = performance.now();
  private bytesLeft: number;
  /** The largest input read. */
  readonly inputBytes: number;
  ended: BudgetEnded | undefined;

  constructor(budget: Required<PreviewBudget>) {
    this.deadline = performance.now() + budget.milliseconds;
    this.bytesLeft = budget.bytes;
    this.inputBytes = budget.inputBytes;
  }

  /**
   * Give the loop back if this slice is used up; false once the time is up (`ended` says so). What
   * was read before the bytes ran out is still worked through.
   */
  async pace(): Promise<boolean> {
    if (this.ended === 'time') return false;
    if (performance.now() - this.sliceStarted >= SLICE_MS) {
      await yieldToLoop();
      this.sliceStarted = performance.now();
    }
    if (performance.now() >= this.deadline) this.ended = 'time';
    return this.ended !== 'time';
  }

  /** Take `bytes` of the reading budget, or end the preview (`ended: 'bytes'`) if they do not fit. */
  take(bytes: number): boolean {
    if (this.ended !== undefined) return false;
    if (bytes > this.bytesLeft) {
      this.ended = 'bytes';
      return false;
    }
    this.bytesLeft -= bytes;
    return true;
  }
}

/** A preview refused for the previews running already; `mine`: the caller's own. */
export class PreviewsBusy extends Error {
  constructor(readonly mine: boolean) {
    super(
      mine
        ? 'Another preview of yours is still running on this agent; wait for it to answer, then try again.'
        : 'This agent is running as many previews as it takes at once; try again in a few seconds.',
    );
  }
}

/** How many previews run at once, of each caller and of all (keys are callers, never trusted as object keys). */
export class PreviewGate {
  private readonly running = new Map<string, number>();
  private total = 0;

  constructor(private readonly budget: Required<PreviewBudget>) {}

  /** Hold a place for `caller`'s preview, or throw PreviewsBusy; call the answer to give it back. */
  enter(caller: string): () => void {
    const mine = this.running.get(caller) ?? 0;
    if (mine >= this.budget.perCaller) throw new PreviewsBusy(true);
    if (this.total >= this.budget.overall) throw new PreviewsBusy(false);
    this.running.set(caller, mine + 1);
    this.total += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.total -= 1;
      const now = (this.running.get(caller) ?? 1) - 1;
      if (now <= 0) this.running.delete(caller);
      else this.running.set(caller, now);
    };
  }
}
