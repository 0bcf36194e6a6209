import { REFUSAL_CODES } from '@learnables/protocol';
import type { JsonRpcError } from './wire.ts';
import { brief } from './wire.ts';
import { validate } from './validate.ts';

/** The refusal table of SPEC.md §3.4 (the protocol package's): HTTP status and JSON-RPC code per `error`. */
export { REFUSAL_CODES };

// Messages that name a status rather than say anything a person can act on.
const BARE = new Set(
  [
    'parse error',
    'invalid request',
    'method not found',
    'invalid params',
    'invalid method',
    'internal error',
    'bad request',
    'unauthorized',
    'forbidden',
    'not found',
    'unprocessable entity',
    'unprocessable content',
    'payload too large',
    'content too large',
    'conflict',
    'internal server error',
    'error',
    'invalid',
  ].map((m) => m.replace(/\s+/g, ' ')),
);

/**
 * Is this a sentence a person can act on (SPEC §3.4)? It has words (a space), it ends like a
 * sentence or is longer than a label, and it is not a bare status code or status phrase.
 */
export function isSentence(message: unknown): message is string {
  if (typeof message !== 'string') return false;
  const text = message.trim();
  if (!/\s/.test(text)) return false;
  if (!(/[.!?:)"'’»…]$/.test(text) || text.length > 10)) return false;
  if (/^(HTTP\s*)?\d{3}\b/i.test(text) || /^-?\d+$/.test(text)) return false;
  return !BARE.has(
    text
      .toLowerCase()
      .replace(/[.!]+$/, '')
      .replace(/\s+/g, ' '),
  );
}

/** Problems with a JSON-RPC refusal, as clauses; empty when it is a good one. */
export function jsonRpcRefusalProblems(error: JsonRpcError): string[] {
  const problems: string[] = [];
  if (!isSentence(error.message)) problems.push(`its message ${brief(error.message)} is not a sentence a person can act on`);
  const verdict = validate('refusal', error.data);
  if (!verdict.ok) problems.push(`its data ${brief(error.data)} is not a Refusal (${verdict.problems})`);
  else {
    const refusal = error.data as { error: string; message: string };
    if (refusal.message !== error.message) problems.push(`its data.message ${brief(refusal.message)} differs from the error message`);
    const expected = REFUSAL_CODES.get(refusal.error)?.jsonrpc;
    if (expected !== undefined && error.code !== expected) problems.push(`its code is ${error.code} where §3.4 gives ${expected} for '${refusal.error}'`);
  }
  return problems;
}

/** Problems with an HTTP refusal (the authority's), as clauses; empty when it is a good one. */
export function httpRefusalProblems(status: number, body: unknown): string[] {
  const problems: string[] = [];
  const verdict = validate('refusal', body);
  if (!verdict.ok) return [`HTTP ${status} came with ${brief(body)}, which is not a Refusal (${verdict.problems})`];
  const refusal = body as { error: string; message: string };
  if (!isSentence(refusal.message)) problems.push(`its message ${brief(refusal.message)} is not a sentence a person can act on`);
  const expected = REFUSAL_CODES.get(refusal.error)?.http;
  if (expected !== undefined && status !== expected) problems.push(`its status is ${status} where §3.4 gives ${expected} for '${refusal.error}'`);
  return problems;
}
