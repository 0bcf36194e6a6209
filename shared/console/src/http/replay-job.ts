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

/** What the page adds to the confirmation when the stack already holds messages, so that replaying on top of them is a second, deliberate choice. */
export const REPLAY_DESPITE_MESSAGES = 'despiteMessages';

/**
 * How many messages the agents have counted so far; undefined when some agent's numbers could not
 * be read, so nobody can tell whether the stack is fresh.
 */
export type CountMessages = () => Promise<number | undefined>;

export interface ReplayState {
  readonly available: boolean;
  readonly label?: string;
  readonly description?: string;
  readonly running: boolean;
  /**
   * Messages the agents already hold (when not running): above 0, or undefined when it cannot be
   * told, the replay starts only with `despiteMessages: true` in the confirmation.
   */
  readonly heldMessages?: number;
  /** Set when the replay would run on a stack that is not known to be fresh: the sentence to confirm. */
  readonly notFresh?: string;
  readonly lines: readonly string[];
  readonly summary?: string;
  readonly problem?: string;
}

/** The sentence the page shows beside the checkbox, and the API gives when it refuses. */
function notFreshSentence(held: number | undefined): string | undefined {
  if (held === 0) return undefined;
  return held === undefined
    ? 'Some agents’ numbers cannot be read, so this stack may already hold messages: replaying on top of them mixes the scenario’s weeks with real ones and the chart no longer shows the scenario alone.'
    : `This stack already holds ${held} message${held === 1 ? '' : 's'}: replaying on top of them mixes the scenario’s weeks with real ones and the chart no longer shows the scenario alone.`;
}

export function replayRoutes(
  action: ReplayAction | undefined,
  log: (message: string, error?: unknown) => void,
  countMessages: CountMessages = async () => 0,
): Router {
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

  const held = async (): Promise<number | undefined> => {
    try {
      return await countMessages();
    } catch (error) {
      log('console: the messages held could not be counted', error);
      return undefined;
    }
  };

  router.get('/', (_req: Request, res: Response, next) => {
    // Counting asks every agent, so it is done only while the button can be pressed, not at every poll of a running replay.
    if (!action || running) {
      res.json(state());
      return;
    }
    held()
      .then((count) => {
        const sentence = notFreshSentence(count);
        res.json({ ...state(), ...(count !== undefined && { heldMessages: count }), ...(sentence !== undefined && { notFresh: sentence }) });
      })
      .catch(next);
  });

  router.post('/', (req: Request, res: Response) => {
    const operator = operatorOf(res);
    if (!operator) {
      res.status(401).json({ error: 'not-signed-in', message: 'Sign in first: the replay teaches the agents, and every change records who started it.' });
      return;
    }
    // The replay writes dozens of versions: it starts only on an explicit JSON confirmation (the
    // JSON content type and the same-origin check in front of the API keep other pages from sending one).
    const body = req.body as { confirm?: unknown; despiteMessages?: unknown } | undefined;
    if (body?.confirm !== REPLAY_CONFIRMATION) {
      res
        .status(400)
        .json({ error: 'malformed', message: `Starting the replay needs { "confirm": "${REPLAY_CONFIRMATION}" }: it teaches the agents dozens of lessons.` });
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
    void held()
      .then((count) => {
        const sentence = notFreshSentence(count);
        if (sentence !== undefined && body?.despiteMessages !== true) {
          res.status(409).json({
            error: 'conflict',
            message: `${sentence} Run it on a fresh stack, or confirm with { "confirm": "${REPLAY_CONFIRMATION}", "${REPLAY_DESPITE_MESSAGES}": true } to replay anyway.`,
          });
          return;
        }
        // Checked again: another request may have started it while the agents were counted.
        if (running) {
          res.status(409).json({ error: 'conflict', message: 'The scenario is already being replayed; wait for it to finish.' });
          return;
        }
        start(operator, sentence !== undefined);
        res.status(202).json(state());
      })
      .catch((error: unknown) => {
        log('console: the replay could not start', error);
        res.status(500).json({ error: 'internal', message: 'The replay could not start; the console log says why.' });
      });
  });

  function start(operator: string, despite: boolean): void {
    if (!action) return;
    running = true;
    lines = [];
    summary = undefined;
    problem = undefined;
    lines.push(despite ? `Started by ${operator}, on a stack that already held messages.` : `Started by ${operator}.`);
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
  }

  return router;
}
