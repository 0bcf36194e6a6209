/**
 * Foreground and background work in one agent process. A task being advanced is foreground: a
 * person or a client waits for it. An agent's own catching up (the email agent compiling the
 * shards a lesson made stale, behind the small patch that serves the version meanwhile) is
 * background: nobody waits for it, but each slice of it holds the event loop, and a slice that
 * starts while a task is between two of its steps makes that task wait the whole slice. At 50,000
 * marks such catching up is about a second of slices of 10-25 ms, and with each message's few
 * steps interleaved with them the lesson → decision p99 was 90-110 ms against a p50 of 30.
 *
 * So background work asks for its turn: `backgroundTurn()` resolves once no task is being
 * advanced in the process (every agent of the process counts: they share the event loop), or
 * after `atMostMs` in any case, so that under constant load the catching up still goes on (then a
 * slice now and then, not one between every two steps).
 */
let advancing = 0;
const waiters = new Set<() => void>();

/** Run a task's advance as foreground work: background turns wait until none is running. */
export async function foreground<T>(work: () => Promise<T>): Promise<T> {
  const end = foregroundUntil();
  try {
    return await work();
  } finally {
    end();
  }
}

/**
 * Count the foreground from now until the returned function is called (more than once is as
 * once): for work that is not one promise, such as a request from its arrival to its response.
 */
export function foregroundUntil(): () => void {
  let ended = false;
  advancing += 1;
  return () => {
    if (ended) return;
    ended = true;
    advancing -= 1;
    if (advancing === 0) wake();
  };
}

/**
 * Middleware: a request is foreground from its arrival until its response ends, so that a slice
 * does not start between the request's arrival and its task's advance (its body read, the SDK's
 * own steps before `execute`). At most `REQUEST_FOREGROUND_MS`: a stream stays open as long as
 * its client listens, and what it waits for meanwhile, the task, is counted on its own. /healthz
 * is not counted: a prober asking every few milliseconds would keep the background waiting.
 */
export function foregroundRequests(
  req: { readonly path: string },
  res: { once(event: 'finish' | 'close', listener: () => void): unknown },
  next: () => void,
): void {
  if (req.path === '/healthz') {
    next();
    return;
  }
  const end = foregroundUntil();
  const cap = setTimeout(end, REQUEST_FOREGROUND_MS);
  cap.unref?.();
  const done = () => {
    clearTimeout(cap);
    end();
  };
  res.once('finish', done);
  res.once('close', done);
  next();
}

/** The most a request counts as foreground (see `foregroundRequests`). */
export const REQUEST_FOREGROUND_MS = 1000;

/** Hand the background its turn, after the current task's own continuation (its response is still being written this tick). */
function wake(): void {
  if (waiters.size === 0) return;
  const ready = [...waiters];
  waiters.clear();
  setImmediate(() => {
    for (const resolve of ready) resolve();
  });
}

/** The most a background slice waits for the foreground to pause, by default. */
export const BACKGROUND_WAIT_MS = 100;

/**
 * Resolves when background work may take its next slice: at once (on the next turn of the event
 * loop) if no task is being advanced, else when the last one running pauses or after `atMostMs`,
 * whichever comes first.
 */
export function backgroundTurn(atMostMs = BACKGROUND_WAIT_MS): Promise<void> {
  return new Promise<void>((resolve) => {
    if (advancing === 0) {
      setImmediate(resolve);
      return;
    }
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, atMostMs));
    timer.unref?.();
    waiters.add(done);
  });
}

/** How much foreground work (tasks being advanced, requests being answered) runs right now (for tests). */
export function tasksAdvancing(): number {
  return advancing;
}
