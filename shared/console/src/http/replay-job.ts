import type { Request, Response, Router } from 'express';
import express from 'express';
import { operatorOf } from './session.ts';

/**
 * A long job the composition root may hand the console — e.g. replaying a scenario through the
 * agents — run at most once at a time, with its progress kept for the page to poll.
 */
export interface ReplayAction {
  /** What the button says, e.g. "Replay the six-week scenario". */
  readonly label: string;
  /** A sentence saying what it does, shown beside the button. */
  readonly description: string;
  run(report: (line: string) => void, signal: AbortSignal): Promise<string>;
}

/** What the page sends to start the replay, so that nothing but a deliberate request starts it. */
export const REPLAY_CONFIRMATION = 'replay';

export interface ReplayState {
  readonly available: boolean;
  readonly label?: string;
  readonly description?: string;
  readonly running: boolean;
  readonly lines: readonly string[];
  readonly summary?: string;
  readonly problem?: string;
}

export function replayRoutes(action: ReplayAction | undefined, log: (message: string, error?: unknown) => void): Router {
  const router = express.Router();
  let running = false;
  let lines: string[] = [];
  let summary: string | undefined;
  let problem: string | undefined;
  const stop = new AbortController();

  const state = (): ReplayState => ({
    available: action !== undefined,
    ...(action && { label: action.label, description: action.description }),
    running,
    lines: lines.slice(-200),
    ...(summary !== undefined && { summary }),
    ...(problem !== undefined && { problem }),
  });

  router.get('/', (_req: Request, res: Response) => {
    res.json(state());
  });

  router.post('/', (req: Request, res: Response) => {
    const operator = operatorOf(res);
    if (!operator) {
      res.status(401).json({ error: 'not-signed-in', message: 'Sign in first: the replay teaches the agents, and every change records who started it.' });
      return;
    }
    // The replay writes dozens of versions: it starts only on an explicit JSON confirmation (the
    // JSON content type and the same-origin check in front of the API keep other pages from sending one).
    const body = req.body as { confirm?: unknown } | undefined;
    if (body?.confirm !== REPLAY_CONFIRMATION) {
      res.status(400).json({ error: 'malformed', message: `Starting the replay needs { "confirm": "${REPLAY_CONFIRMATION}" }: it teaches the agents dozens of lessons.` });
      return;
    }
    if (!action) {
      res.status(404).json({ error: 'not-found', message: 'This console was started without a scenario to replay.' });
      return;
    }
    if (running) {
      res.status(409).json({ error: 'conflict', message: 'The scenario is already being replayed; wait for it to finish.' });
      return;
    }
    running = true;
    lines = [];
    summary = undefined;
    problem = undefined;
    lines.push(`Started by ${operator}.`);
    void action
      .run((line) => lines.push(line), stop.signal)
      .then((done) => {
        summary = done;
      })
      .catch((error: unknown) => {
        log('console: the replay failed', error);
        problem = `The replay stopped: ${error instanceof Error ? error.message : String(error)}`;
      })
      .finally(() => {
        running = false;
      });
    res.status(202).json(state());
  });

  return router;
}
