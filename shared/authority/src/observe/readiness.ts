import type { Request, Response } from 'express';

/** One thing a service needs to do its work: a name, and a check that answers what is wrong, if anything. */
export interface ReadinessCheck {
  readonly name: string;
  /** Undefined when fine; else a sentence an operator understands (what is down, what it means). */
  readonly check: () => Promise<string | undefined>;
  /**
   * Whether a failure makes the service unready (default true). A check that is not required is
   * still shown, so an operator sees it, but keeps the service in rotation.
   */
  readonly required?: boolean;
}

export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly message?: string;
}

/** How long a readiness check may take before it counts as failed. */
export const READINESS_TIMEOUT_MS = 2_000;

/** A check given at most `ms`, a slow answer said as one. */
export async function bounded(name: string, check: () => Promise<string | undefined>, ms = READINESS_TIMEOUT_MS): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${name} did not answer within ${ms / 1000} s.`), ms);
    timer.unref();
  });
  try {
    return await Promise.race([check().catch((error: unknown) => `${name} failed: ${(error as Error)?.message ?? String(error)}`), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A check asked at most once per `ms`, however many probes come (a balancer asks every two
 * seconds per replica, and an orchestrator as well): the answer is kept that long, and callers
 * that ask while it runs share it.
 */
export function cached(check: () => Promise<string | undefined>, ms: number): () => Promise<string | undefined> {
  let kept: { at: number; answer: string | undefined } | undefined;
  let running: Promise<string | undefined> | undefined;
  return async () => {
    if (kept !== undefined && performance.now() - kept.at < ms) return kept.answer;
    running ??= check().then(
      (answer) => {
        kept = { at: performance.now(), answer };
        running = undefined;
        return answer;
      },
      (error: unknown) => {
        running = undefined;
        throw error;
      },
    );
    return running;
  };
}

/** Every check, each bounded; ready when every required one passed. */
export async function readiness(checks: readonly ReadinessCheck[]): Promise<{ ok: boolean; checks: CheckResult[]; message?: string }> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      const message = await bounded(name, check);
      return message === undefined ? { name, ok: true } : { name, ok: false, message };
    }),
  );
  const failing = results.filter((result, i) => !result.ok && checks[i]!.required !== false);
  return failing.length === 0 ? { ok: true, checks: results } : { ok: false, checks: results, message: failing.map((result) => result.message).join(' ') };
}

/**
 * GET /readyz: 200 `{ ok: true, checks }` when the service can do its work, else 503 with
 * `message`, the failing checks' sentences. /healthz stays liveness (the process answers at all):
 * an orchestrator restarts on /healthz and takes out of rotation on /readyz.
 */
export function readinessHandler(service: string, checks: readonly ReadinessCheck[]) {
  return async (_req: Request, res: Response): Promise<void> => {
    const answer = await readiness(checks);
    res.set('cache-control', 'no-store');
    if (answer.ok) res.json({ ok: true, service, checks: answer.checks });
    else res.status(503).json({ ok: false, service, error: 'not-ready', message: `The ${service} is not ready: ${answer.message}`, checks: answer.checks });
  };
}
