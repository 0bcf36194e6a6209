import type { NextFunction, Request, Response } from 'express';
import { hostNameOf } from '@learnables/authority';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const refuse = (res: Response, status: number, error: string, message: string) => res.status(status).json({ error, message });

/**
 * Every request that changes something must come from the console's own page. The session cookie
 * is SameSite=Strict, but "site" ignores the port: a page served on another 127.0.0.1 port is
 * same-site and would ride the cookie. So a browser's own words decide: `Sec-Fetch-Site` must be
 * `same-origin`, and an `Origin`, when sent, must name this console (the Host was checked before).
 * A request with neither header is not a browser acting for someone (curl, a script with its own
 * cookie) and is let through.
 */
export function requireSameOrigin(allowedHosts: ReadonlySet<string>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!WRITES.has(req.method)) {
      next();
      return;
    }
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin') {
      refuse(res, 403, 'forbidden', 'That request came from another page than the console’s own; nothing was done. Use the console at its own address.');
      return;
    }
    const origin = req.get('origin');
    if (origin !== undefined) {
      let sameHost = false;
      try {
        const url = new URL(origin);
        sameHost = url.host.toLowerCase() === (req.get('host') ?? '').toLowerCase() && allowedHosts.has(hostNameOf(url.host));
      } catch {
        sameHost = false;
      }
      if (!sameHost) {
        refuse(res, 403, 'forbidden', `That request came from ${origin}, not from the console’s own page; nothing was done.`);
        return;
      }
    }
    next();
  };
}

/**
 * A body that changes something is JSON, said so by its Content-Type: a cross-site form can send
 * `text/plain` or a form encoding without asking first, never `application/json`. Files are the
 * exception, checked against what the agents accept when they arrive.
 */
export function requireJsonBody(except: (req: Request) => boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST' || except(req)) {
      next();
      return;
    }
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      refuse(
        res,
        415,
        'unsupported-media-type',
        `The console takes JSON here (Content-Type: application/json), not ${type || 'a body without a type'}; nothing was done.`,
      );
      return;
    }
    next();
  };
}
