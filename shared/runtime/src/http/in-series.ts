import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** What express's router takes for a promise a handler returned (its `is-promise`): anything with a `then`. */
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  !!value && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';

/**
 * Several express handlers mounted as one, run as express's router (2.x) runs them mounted side by
 * side (`app.use(path, a, b, c)`): each when the one before calls `next()` (or `next('route')`,
 * which a mounted handler's next treats alike); an error passed to `next`, thrown, or the reason a
 * returned promise rejects with (a falsy one as "Rejected promise") goes to the next error handler
 * among them (four parameters; passed over otherwise), and past the last to the app's; `next('router')`
 * leaves the app's router; `next()` from the last goes on to the app's next layer.
 * `in-series.test.ts` holds it to express's own mount, case by case. Why: every JSON-RPC request
 * went through five layers on the agent's path (the token, the body, the parse admission, the
 * extension methods, the SDK's handler), each matched against the path and its prefix trimmed and
 * restored by express's router, and in front of them the GET routes; mounted as one, first, the
 * agent spent about 0.1 ms less CPU a message (issue 17, BENCHMARKS.md runtime overhead).
 */
export function inSeries(...handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let at = 0;
    const step = (error?: unknown): void => {
      if (error === 'router') {
        next('router');
        return;
      }
      const pending = error === 'route' ? undefined : error;
      // With an error pending only error handlers (four parameters) run, and without one only the others.
      let handler = handlers[at++];
      while (handler !== undefined && (pending ? handler.length !== 4 : handler.length > 3)) handler = handlers[at++];
      if (handler === undefined) {
        if (pending) next(pending);
        else next();
        return;
      }
      try {
        const answered: unknown = pending ? (handler as unknown as ErrorHandler)(pending, req, res, step) : handler(req, res, step);
        if (isThenable(answered)) answered.then(undefined, (rejected: unknown) => step(rejected || new Error('Rejected promise')));
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}

type ErrorHandler = (error: unknown, req: Request, res: Response, next: NextFunction) => unknown;
