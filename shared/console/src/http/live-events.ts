import type { Request, Response } from 'express';
import type { LiveQuestions } from '../tasks/live-questions.ts';
import type { ConsoleSessions } from './session.ts';

/** Each open console tab holds one stream; beyond this many the next is told to wait, not queued. */
const MAX_STREAMS = 200;
/** A comment line now and then, so proxies and browsers keep an idle stream open. */
const KEEPALIVE_MS = 20_000;

/**
 * `GET /api/events`: server-sent events for open console tabs. Event `questions` carries the
 * waiting questions across the agents (the JSON of `GET /api/questions`) whenever they change.
 */
export function liveEvents(live: LiveQuestions, sessions: ConsoleSessions): (req: Request, res: Response) => void {
  let open = 0;
  return (req, res) => {
    if (open >= MAX_STREAMS) {
      res
        .status(503)
        .set('retry-after', '30')
        .json({ error: 'busy', message: 'Too many console tabs are open at once; close a few, and this one reconnects by itself.' });
      return;
    }
    // The stream ends with its session — signed out anywhere, expired, the password changed or the
    // account removed — not when the session would have expired: the browser's reconnect is then
    // refused, and the page signs in again.
    const letGo = sessions.holdStream(res, () => {
      close();
      res.end();
    });
    if (!letGo) {
      res.status(401).json({ error: 'not-signed-in', message: 'Sign in first: the questions hold the messages people sent.' });
      return;
    }
    open++;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx and friends would otherwise hold the events back until a buffer fills.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    // A lost stream is reopened by the browser after this long.
    res.write('retry: 3000\n\n');
    const unsubscribe = live.subscribe((snapshot) => {
      res.write(`event: questions\ndata: ${JSON.stringify(snapshot)}\n\n`);
    });
    const keepalive = setInterval(() => res.write(': still here\n\n'), KEEPALIVE_MS);
    let closed = false;
    function close() {
      if (closed) return;
      closed = true;
      open--;
      clearInterval(keepalive);
      letGo!();
      unsubscribe();
    }
    req.on('close', close);
    res.on('close', close);
  };
}
