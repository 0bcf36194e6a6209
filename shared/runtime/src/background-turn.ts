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
  advancing += 1;
  try {
    return await work();
  } finally {
    advancing -= 1;
    if (advancing === 0 && waiters.size > 0) {
      const ready = [...waiters];
      waiters.clear();
      // After the task's own continuation (its response is still being written this tick).
      setImmediate(() => {
        for (const resolve of ready) resolve();
      });
    }
  }
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

/** How many tasks are being advanced right now (for tests). */
export function tasksAdvancing(): number {
  return advancing;
}
