import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@learnables/authority';
import { requestLogger } from '@learnables/authority';
import { JSONRPC_PATH, REST_PATH } from '../a2a/agent-card.ts';

/** What express (or a layer before ours) said went wrong: a status on client errors, none on our own faults. */
interface HttpError {
  readonly status?: number;
  readonly statusCode?: number;
  readonly type?: string;
}

/** google.rpc.Status names, as A2A's REST binding (and the SDK) answers errors. */
const REST_STATUS: ReadonlyMap<number, string> = new Map([
  [400, 'INVALID_ARGUMENT'],
  [401, 'UNAUTHENTICATED'],
  [403, 'PERMISSION_DENIED'],
  [404, 'NOT_FOUND'],
  [405, 'UNIMPLEMENTED'],
  [413, 'INVALID_ARGUMENT'],
  [415, 'INVALID_ARGUMENT'],
  [429, 'RESOURCE_EXHAUSTED'],
]);

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The last word on every request an agent did not answer: a sentence in JSON, in the shape the
 * path's clients read, never express's HTML page (which, with NODE_ENV unset, printed the stack
 * and the install's node_modules paths for a path that was not percent-encoded text). JSON-RPC
 * answers a JSON-RPC error object (HTTP 200, as the binding's other errors); the REST binding
 * its `{ error: { code, status, message } }`; any other path a refusal `{ error, message }`.
 */
export function jsonErrors(agentName: string, logger: Logger) {
  const answer = (req: Request, res: Response, status: number, message: string) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const path = req.path;
    if (under(path, JSONRPC_PATH)) {
      res.status(200).json({ jsonrpc: '2.0', id: null, error: { code: status >= 500 ? -32603 : -32600, message } });
    } else if (under(path, REST_PATH)) {
      res
        .status(status)
        .json({ error: { code: status, status: REST_STATUS.get(status) ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'), message, details: [] } });
    } else {
      res.status(status).json({ error: status === 404 ? 'not-found' : status >= 500 ? 'internal' : 'malformed', message });
    }
  };
  return {
    notFound(req: Request, res: Response): void {
      answer(
        req,
        res,
        404,
        `The ${agentCalled(agentName)} has no ${req.method} ${req.path}; its card, at /.well-known/agent-card.json, says where it answers.`,
      );
    },
    failed(error: HttpError, req: Request, res: Response, _next: NextFunction): void {
      const status = error.status ?? error.statusCode ?? 500;
      if (status >= 500 || status < 400) {
        requestLogger(req, logger).error({ err: error, method: req.method, path: req.path }, 'request failed');
        answer(req, res, 500, 'The agent failed to answer that request; nothing was written. See its log.');
      } else if (error instanceof URIError || /decode/i.test(String((error as { message?: unknown }).message))) {
        answer(req, res, 400, 'That address is not percent-encoded text (a % must be followed by two hex digits of UTF-8); nothing was read or written.');
      } else {
        answer(req, res, status, `The agent could not read that request (${error.type ?? `HTTP ${status}`}); nothing was written.`);
      }
    },
  };
}

/**
 * How an agent is called in a sentence: its card's name, with "agent" added only when the name
 * does not already say it ("Email intake agent", not "Email intake agent agent").
 */
export function agentCalled(name: string): string {
  return /\bagent$/i.test(name.trim()) ? name.trim() : `${name.trim()} agent`;
}
