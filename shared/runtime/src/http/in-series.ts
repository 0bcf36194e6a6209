import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several express handlers mounted as one: each runs when the one before calls `next()`, as they
 * would mounted side by side (`app.use(path, a, b, c)`); an error passed to `next`, thrown, or
 * rejected by a handler's promise leaves them for the app's error handlers, as express 5 does;
 * `next()` from the last goes on to the app's next layer. Why: every JSON-RPC request went through
 * five layers on the agent's path (the token, the body, the parse admission, the extension
 * methods, the SDK's handler), each matched against the path and its prefix trimmed and restored
 * by express's router, and in front of them the GET routes; mounted as one, first, the agent spent
 * about 0.1 ms less CPU a message (issue 17, BENCHMARKS.md runtime overhead). Only for handlers
 * that take no error (three parameters): an error handler among them would never be called.
 */
export function inSeries(...handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let at = 0;
    const step = (error?: unknown): void => {
      // As express's router: 'route' and 'router' skip the rest of this mount; other values are errors.
      if (error === 'route' || error === 'router') return next();
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[at++];
      if (handler === undefined) return next();
      try {
        const answered: unknown = handler(req, res, step);
        if (answered instanceof Promise) answered.catch((rejected: unknown) => next(rejected ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
