import type { MonotonicClock } from '../commit-wait.ts';
import { monotonicNow } from '../commit-wait.ts';

export interface FreshReadOptions<T> {
  /**
   * The reuse window an answer carries, in milliseconds: the commit wait its authority
   * advertised (SPEC §4.4). Default 0 for every answer: only requests sent after a call answer it.
   */
  windowOf?: (answer: T) => number;
  /** The monotonic clock requests and calls are timed on (tests simulate one). */
  now?: MonotonicClock;
}

interface Caller<T> {
  readonly calledAt: number;
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
}

/** The one request out: when it was sent, who asked before that, and who joined it since. */
interface Request<T> {
  readonly sentAt: number;
  /** Callers that asked before it was sent: its answer, or its failure, is theirs. */
  readonly before: Caller<T>[];
  /** Callers that asked while it was out: theirs only if its answer's window covers them. */
  readonly joined: Caller<T>[];
}

/**
 * One read shared by every caller that may use its answer, and by no caller that may not.
 *
 * A caller arriving at t may be given the answer of a request sent at s when the request was
 * sent after it called (s ≥ t), or when t − s < W, W the window that answer carries (its
 * authority's commit wait). Why the second is exact: the authority acknowledges or announces an
 * activation no sooner than W after committing it, so an activation acknowledged before a message
 * arrived at t was committed no later than t − W, and a request sent at s > t − W was sent — and
 * so read — after that commit. Only durations on this process's monotonic clock are compared;
 * `s` is taken before the request is written, so it is never later than the sending.
 *
 * So: an answer whose window still covers the caller is handed out at once (a cache); otherwise
 * the caller joins the request out, provisionally, and when its answer comes those it does not
 * cover (t − s ≥ W under the W it carries) share the next request, sent then for all of them;
 * with no request out, one is sent. Requests go one at a time, and only for a caller that needs
 * one: under a steady stream of callers, about one a window, and the few callers who arrive
 * between an answer's running out and the next one's coming wait that round trip. (Asking ahead
 * of need, before the window ran out, spared them the wait but sent a request every four fifths
 * of a window or less, each costing the authority about 2 ms of CPU on a 2-core VM: the runtime
 * benchmark's authority took 0.41-0.56 ms a message asking ahead, 0.20-0.35 not, and its agent
 * about a tenth less.) With every window 0 (an authority that advertises none) this is exactly
 * a fresh read: each caller gets the answer of a request sent after it called, shared by all who
 * asked while the one before was out. A failed request is never reused; its failure goes to the
 * callers it was sent for, and those who joined it ask again with the next.
 */
export class FreshRead<T> {
  private out: Request<T> | undefined;
  /** The newest answer, with when its request was sent and the window it carries. */
  private last: { readonly sentAt: number; readonly value: T; readonly window: number } | undefined;
  private readonly windowOf: (answer: T) => number;
  private readonly now: MonotonicClock;

  constructor(
    private readonly read: () => Promise<T>,
    options: FreshReadOptions<T> = {},
  ) {
    this.windowOf = options.windowOf ?? (() => 0);
    this.now = options.now ?? monotonicNow;
  }

  get(): Promise<T> {
    const calledAt = this.now();
    const last = this.last;
    if (last !== undefined && calledAt - last.sentAt < last.window) return Promise.resolve(last.value);
    return new Promise<T>((resolve, reject) => {
      const caller = { calledAt, resolve, reject };
      if (this.out) this.out.joined.push(caller);
      else this.send([caller]);
    });
  }

  private send(before: Caller<T>[]): void {
    // Taken before the request is written: the request is sent no sooner than this.
    const request: Request<T> = { sentAt: this.now(), before, joined: [] };
    this.out = request;
    let answer: Promise<T>;
    try {
      answer = this.read();
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (value) => {
        const window = this.windowOf(value);
        this.out = undefined;
        this.last = { sentAt: request.sentAt, value, window };
        for (const caller of request.before) caller.resolve(value);
        this.settleJoined(
          request,
          (caller) => caller.calledAt - request.sentAt < window,
          (caller) => caller.resolve(value),
        );
      },
      (error: unknown) => {
        this.out = undefined;
        for (const caller of request.before) caller.reject(error);
        this.settleJoined(
          request,
          () => false,
          () => undefined,
        );
      },
    );
  }

  /** Hand the answer to the joined callers it covers; the others share the next request. */
  private settleJoined(request: Request<T>, covers: (caller: Caller<T>) => boolean, give: (caller: Caller<T>) => void): void {
    const next: Caller<T>[] = [];
    for (const caller of request.joined) {
      if (covers(caller)) give(caller);
      else next.push(caller);
    }
    if (next.length > 0) this.send(next);
  }
}
