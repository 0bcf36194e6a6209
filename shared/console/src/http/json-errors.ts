import type { NextFunction, Request, Response } from 'express';

/** What body-parser, Express's router and http-errors put on the errors they pass on. */
interface HttpishError {
  readonly type?: unknown;
  readonly status?: unknown;
  readonly statusCode?: unknown;
  readonly limit?: unknown;
  readonly charset?: unknown;
  readonly encoding?: unknown;
}

const sizeOf = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} kB` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`);

/**
 * The last error handler of the console (and of its API): every error is answered as
 * `{ error, message }` with a sentence, whatever NODE_ENV says. Without it Express answers its own
 * HTML page, which outside production carries the stack and the install paths.
 */
export function jsonErrors(log: (message: string, error?: unknown) => void) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      // Too late for a sentence: Express's default closes the connection, which is what the client should see.
      next(error);
      return;
    }
    const known: HttpishError = typeof error === 'object' && error !== null ? (error as HttpishError) : {};
    const status = typeof known.status === 'number' ? known.status : typeof known.statusCode === 'number' ? known.statusCode : 500;
    const answer = (code: number, error: string, message: string) => res.status(code).json({ error, message });
    if (known.type === 'entity.too.large') {
      answer(
        413,
        'too-large',
        `That is larger than the console accepts${typeof known.limit === 'number' ? ` (${sizeOf(known.limit)})` : ''}; nothing was sent.`,
      );
    } else if (known.type === 'entity.parse.failed') {
      const reason = error instanceof Error ? error.message.slice(0, 200) : 'parse error';
      answer(400, 'malformed', `The request is not valid JSON: ${reason}; nothing was done.`);
    } else if (known.type === 'charset.unsupported' || known.type === 'encoding.unsupported') {
      answer(415, 'unsupported-media-type', 'The console reads bodies as UTF-8, not compressed or in another character set; nothing was done.');
    } else if (error instanceof URIError) {
      // Express's router throws this (status 400) on a malformed percent-encoding in a path part it decodes (`%E0%A4%A`).
      answer(
        400,
        'malformed',
        `The address ${req.method} ${req.path.length > 200 ? `${req.path.slice(0, 200)}…` : req.path} is not well formed (a broken %-encoding?); nothing was done.`,
      );
    } else if (status >= 400 && status < 500) {
      answer(status, 'malformed', 'The console cannot take that request as it was sent; nothing was done.');
    } else {
      log(`console: ${req.method} ${req.path} failed`, error);
      answer(500, 'internal', 'The console failed to handle this; nothing was written. See its log.');
    }
  };
}
