import type { NextFunction, Request, Response } from 'express';
import type { Refusal } from '@learnables/protocol';
import { refuseDeepJson } from '@learnables/protocol';
import type { InputReader } from '../parsing/input-reader.ts';

/** Core methods that bring a message to read, on JSON-RPC (v1.0 and v0.3). */
const SENDS = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);
/** The same on REST: `message:send` / `message:stream`, under a tenant or v0.3's `/v1`. */
const REST_SEND = /(?:^|\/)message:(?:send|stream)$/;
const REST_REREAD = /(?:^|\/)learnables:reread$/;

/** The JSON-RPC error code of a busy answer: the implementation-defined server range, unused by A2A. */
export const BUSY_CODE = -32000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A message that starts a task (a follow-up names its task, and its input was read already). */
const startsTask = (message: unknown): boolean => isObject(message) && (typeof message.taskId !== 'string' || message.taskId === '');

/** The sends answered once, at the end (no stream): JSON-RPC's and REST's. */
const PLAIN_SENDS = new Set(['SendMessage', 'message/send']);
const REST_PLAIN_SEND = /(?:^|\/)message:send$/;

/**
 * Requests (by their headers object) that send a message without asking for a stream: the SDK's
 * answer to them comes when their task rests, unless they also ask to be answered at once, which
 * the executor reads from the SDK's own view of the request (`returnImmediately`, after the 0.3
 * `blocking` is converted). See `seenOnlyAtRest` in learnables-executor.ts.
 */
const plainSends = new WeakSet<object>();

/** Whether the request these headers belong to is a send that asked for no stream. */
export const isPlainSend = (headers: object | undefined): boolean => headers !== undefined && plainSends.has(headers);

/** Whether a request brings a new message to parse: a send that starts a task, or a reread of a message. */
function bringsMessage(req: Request, binding: 'jsonrpc' | 'rest'): boolean {
  const body: unknown = req.body;
  if (req.method !== 'POST') return false;
  // A batch is not served, but is refused after this; count it rather than read it.
  if (Array.isArray(body)) return true;
  if (!isObject(body)) return false;
  if (binding === 'jsonrpc') {
    const params = isObject(body.params) ? body.params : {};
    if (typeof body.method === 'string' && SENDS.has(body.method)) return startsTask(params.message);
    return body.method === 'learnables/reread' && params.message !== undefined;
  }
  if (REST_SEND.test(req.path)) return startsTask(body.message);
  return REST_REREAD.test(req.path) && body.message !== undefined;
}

/** The size of each request's body as read, by request (see `verifyBody`). */
const bodyBytes = new WeakMap<object, number>();

/** body-parser's `verify` for the A2A routes: notes the body's size for the admission, and refuses JSON nested too deep. */
export function verifyBody(req: object, res: unknown, body: Uint8Array): void {
  bodyBytes.set(req, body.byteLength);
  refuseDeepJson(req, res, body);
}

const KIBIBYTE = 1024;
const MEBIBYTE = 1024 * KIBIBYTE;
const sizeInWords = (bytes: number) => (bytes < MEBIBYTE ? `${Math.max(1, Math.ceil(bytes / KIBIBYTE))} kB` : `${Math.round(bytes / MEBIBYTE)} MB`);

/**
 * In front of the A2A handlers: a request that brings a message to read takes a place among the
 * parses the agent takes at once, and counts its bytes among those of the messages taken and not
 * yet answered (`InputReader.carry`), or is answered busy (503, `Retry-After`; on JSON-RPC the
 * error carries the `busy` Refusal) before anything is stored. Requests that read nothing new
 * (answers, GetTask, teach) pass untouched.
 */
export function admitParses(
  reader: Pick<InputReader<unknown>, 'admit' | 'carry' | 'hand' | 'load'>,
  binding: 'jsonrpc' | 'rest',
  retryAfterSeconds: number,
  /** Told of each busy answer (the agent's metrics count them). */
  onBusy?: (binding: 'jsonrpc' | 'rest') => void,
) {
  const refuse = (req: Request, res: Response, message: string): void => {
    onBusy?.(binding);
    const refusal: Refusal = { error: 'busy', message };
    res.status(503).set('Retry-After', String(retryAfterSeconds));
    if (binding === 'rest') {
      res.json(refusal);
      return;
    }
    const id = isObject(req.body) && (typeof req.body.id === 'string' || typeof req.body.id === 'number') ? req.body.id : null;
    res.json({ jsonrpc: '2.0', id, error: { code: BUSY_CODE, message, data: refusal } });
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!bringsMessage(req, binding)) {
      next();
      return;
    }
    // As read by the body parser, never as the Content-Length header claims; a body parsed
    // without `verifyBody` counts as the least a message counts (IN_FLIGHT_FLOOR).
    const bytes = bodyBytes.get(req) ?? 0;
    const carried = reader.carry(bytes);
    if (carried === undefined) {
      const { messages, bytes: taken } = reader.load.inFlight;
      refuse(
        req,
        res,
        `This agent is busy with ${messages} other messages (${sizeInWords(taken)}) and did not take this one (${sizeInWords(bytes)}); nothing was saved. Send it again in ${retryAfterSeconds} seconds.`,
      );
      return;
    }
    const ticket = reader.admit();
    if (ticket === undefined) {
      carried();
      refuse(
        req,
        res,
        `This agent is busy reading ${reader.load.maxParses} other messages and did not take this one; nothing was saved. Send it again in ${retryAfterSeconds} seconds.`,
      );
      return;
    }
    res.once('close', () => {
      ticket.requestDone();
      carried();
    });
    // Found again by the request's headers: by the executor through the call context, by reread here.
    reader.hand(req.headers, ticket);
    const body = req.body as Record<string, unknown>;
    if (binding === 'jsonrpc' ? typeof body.method === 'string' && PLAIN_SENDS.has(body.method) : REST_PLAIN_SEND.test(req.path)) plainSends.add(req.headers);
    next();
  };
}
