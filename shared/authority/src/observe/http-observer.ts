import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ServiceMetrics } from './service-metrics.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/** An id a caller (or the balancer) sent that is safe to echo and to log: short, printable, no spaces. */
const USABLE_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

const ids = new WeakMap<IncomingMessage, string>();
const loggers = new WeakMap<IncomingMessage, Logger>();

/** The request id of a request the observer saw (the caller's `x-request-id`, else one made up). */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return ids.get(req);
}

/** The service's logger with this request's `reqId`, for lines written while answering it. */
export function requestLogger(req: IncomingMessage, fallback: Logger): Logger {
  return loggers.get(req) ?? fallback;
}

export interface HttpObserverOptions {
  readonly logger: Logger;
  readonly metrics: ServiceMetrics;
  /**
   * The paths that name a route by their prefix (a mounted router, e.g. `/a2a/jsonrpc`), longest
   * first is not needed: the longest match wins. Routes matched by express itself are named by
   * their template (`/v1/collections/:collection/active`). Anything else is `unmatched`, so a
   * scanner's thousand paths never become a thousand series.
   */
  readonly mounts?: readonly string[];
  /** Paths not written to the access log (still counted): the probes that run every few seconds. */
  readonly quiet?: readonly string[];
}

const pathOf = (url: string | undefined): string => {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
};

/**
 * In front of everything a service answers: takes or makes the request id (and echoes it as
 * `x-request-id`), and when the response is done writes one access line (method, path, status,
 * ms, reqId) and counts its duration. A plain (req, res, next) function, so it also runs before
 * express's routing where a service answers some requests itself (the authority's quick answer).
 */
export function observeHttp(options: HttpObserverOptions) {
  const mounts = [...(options.mounts ?? [])].sort((a, b) => b.length - a.length);
  const quiet = new Set(options.quiet ?? ['/healthz', '/readyz', '/metrics']);
  const routeOf = (req: IncomingMessage, path: string): string => {
    const mount = mounts.find((prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}:`));
    // The route template express matched (a router's own under the path it is mounted at): bounded, as
    // the templates are the service's own. A router's template whose mount express has already
    // forgotten (its baseUrl is restored as the router is left) is named by the mount instead.
    const { route: matched, baseUrl } = req as { route?: { path?: unknown }; baseUrl?: unknown };
    if (typeof matched?.path === 'string') {
      const template = `${typeof baseUrl === 'string' ? baseUrl : ''}${matched.path}`.replace(/(.)\/$/, '$1');
      if (mount === undefined || template === mount || template.startsWith(`${mount}/`) || template.startsWith(`${mount}:`)) return template;
    }
    return mount ?? 'unmatched';
  };
  return (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    if (!ids.has(req)) {
      const started = performance.now();
      const offered = req.headers[REQUEST_ID_HEADER];
      const reqId = typeof offered === 'string' && USABLE_ID.test(offered) ? offered : randomUUID();
      ids.set(req, reqId);
      loggers.set(req, options.logger.child({ reqId }));
      res.setHeader(REQUEST_ID_HEADER, reqId);
      const path = pathOf(req.url);
      const method = req.method ?? 'GET';
      let done = false;
      const finish = (aborted: boolean) => {
        if (done) return;
        done = true;
        const ms = Math.round((performance.now() - started) * 10) / 10;
        const status = aborted && !res.writableFinished ? 499 : res.statusCode;
        options.metrics.httpDuration.observe({ method, route: routeOf(req, path), status: String(status) }, ms / 1000);
        if (quiet.has(path) && status < 400) return;
        const line = { reqId, method, path, status, ms };
        if (status >= 500) options.logger.warn(line, 'request answered with a server error');
        else options.logger.info(line, 'request');
      };
      res.once('finish', () => finish(false));
      // A caller that goes before the answer is written: logged as 499, as nginx and HAProxy say it.
      res.once('close', () => finish(true));
    }
    next?.();
  };
}
