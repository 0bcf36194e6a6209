import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMIT_WAIT_HEADER } from '../client/authority-client.ts';
import type { Authority } from '../authority.ts';
import { refusalFor } from './refusals.ts';
import { isAllowedHost } from './allowed-hosts.ts';

/**
 * `GET /v1/collections/<name>/active` in its plainest form: the name in unreserved characters, any
 * query (the route reads none). Every other spelling (a trailing slash, upper case, a percent-encoded
 * name) is still the route's, and express answers it.
 */
const PLAIN_ACTIVE = /^\/v1\/collections\/([A-Za-z0-9._~-]+)\/active(?:\?.*)?$/s;

/**
 * The answer about the active version, given without express when the request is one express would
 * answer the same way, so `true`; `false` leaves the request to express, untouched.
 *
 * Why: every agent asks this about once per commit wait (SPEC §4.4: some 40 times a second each,
 * whatever its message rate), and each request came one at a time to an idle authority, where
 * express's routing, its response helpers and the ETag hash cost more than the answer: about
 * 1.8 ms of the authority's CPU a request paced at 40 a second, against 1.2 without them, on the
 * 2-core benchmark machine (2026-12-02; of the 1.2, a bare node:http server costs 0.4-0.6 here). The answer is the route's: the same body, status, refusal and commit-wait
 * header, from the same `authority.active`; what it leaves out is the ETag, which no client of the
 * active version can use (each answer is reused only within the commit wait, never revalidated).
 * A request that could be answered differently by express goes to express: one from a host
 * the service does not answer to (refused there, 421), one with a body (express parses and may
 * refuse it), or a conditional one (If-None-Match, If-Modified-Since: express would answer 304).
 */
export function quickActive(authority: Authority, hosts: ReadonlySet<string>, log: (message: string, error: unknown) => void) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET') return false;
    const found = PLAIN_ACTIVE.exec(req.url ?? '');
    if (found === null) return false;
    const { headers } = req;
    if (!isAllowedHost(hosts, headers.host)) return false;
    if (headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')) return false;
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
    // The route sets the commit-wait header before it reads, so its refusals carry it too. Each
    // header through setHeader, as express sets them (a wrapper of the response sees them alike).
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.statusCode = status;
      res.setHeader(COMMIT_WAIT_HEADER, String(authority.commitWaitMs));
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.setHeader('content-length', Buffer.byteLength(text));
      res.end(text);
    };
    authority.active(found[1]!).then(
      (active) => send(200, active),
      (error: unknown) => {
        const refusal = refusalFor(error);
        if (refusal.status >= 500) log(`authority: GET ${req.url} failed`, error);
        send(refusal.status, refusal.body);
      },
    );
    return true;
  };
}
