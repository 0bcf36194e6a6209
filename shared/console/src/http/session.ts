import type { Request, Response } from 'express';
import { unreadableIn } from '@learnables/protocol';
import { ConsoleError } from '../console-error.ts';

/** The cookie that keeps the operator's name: the minimal sign-in every lesson and rollback records. */
export const OPERATOR_COOKIE = 'learnables-operator';

const MAX_NAME = 120;

/** The name signed in on this request, if any. */
export function operatorOf(req: Request): string | undefined {
  for (const pair of (req.get('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== OPERATOR_COOKIE) continue;
    try {
      const name = decodeURIComponent(pair.slice(at + 1).trim()).trim();
      return name === '' || name.length > MAX_NAME || unreadableIn(name) ? undefined : name;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The operator, or a refusal saying to sign in: nothing is written without a name to record. */
export function requireOperator(req: Request): string {
  const operator = operatorOf(req);
  if (!operator) throw new ConsoleError(401, 'not-signed-in', 'Sign in with your name first: every answer, lesson and rollback records who made it.');
  return operator;
}

export function signIn(res: Response, rawName: unknown): string {
  const name = typeof rawName === 'string' ? rawName.trim() : '';
  if (name === '') throw new ConsoleError(400, 'malformed', 'Give your name to sign in; it is recorded on every lesson and rollback.', 'name');
  if (name.length > MAX_NAME) throw new ConsoleError(400, 'malformed', `A name of at most ${MAX_NAME} characters, please.`, 'name');
  // The name goes into the permanent audit trail: it must print as what it is.
  const unreadable = unreadableIn(name);
  if (unreadable) throw new ConsoleError(400, 'malformed', `That name contains ${unreadable}; type your name as letters, digits and punctuation.`, 'name');
  // SameSite=Strict: another site cannot make a browser answer or roll back in this operator's name.
  res.cookie(OPERATOR_COOKIE, name, { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 30 * 24 * 3600 * 1000, encode: encodeURIComponent });
  return name;
}

export function signOut(res: Response): void {
  res.clearCookie(OPERATOR_COOKIE, { path: '/' });
}
