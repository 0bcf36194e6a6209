import { fileURLToPath } from 'node:url';
import { DEFAULT_COMMIT_WAIT_MS, MAX_COMMIT_WAIT_MS } from '@learnables/authority';

/** The repository root, so default paths work whichever folder a command is started from. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The token the local stack uses when none is configured. Never use it beyond your own machine. */
export const LOCAL_DEV_TOKEN = 'local-dev-token';

/**
 * Tokens anyone can read: the placeholders compose once shipped (`change-me-agents`, …) and their
 * kin. A copied `.env` that still holds one must not start a service that anyone may then write to.
 */
const PLACEHOLDER = /change[-_ ]?me|^(?:token|secret|password|changeit|example|replace[-_ ]?me|your[-_ ]?token|x+)$/i;

/** The token, or a start-up error when it is a placeholder: a sentence saying how to make one. */
export function realToken(token: string, variable: string): string {
  if (PLACEHOLDER.test(token.trim())) {
    throw new Error(`${variable} holds the placeholder token "${token.trim()}", which anyone can read; set a token of your own, e.g. openssl rand -hex 32.`);
  }
  return token;
}

/**
 * Parse `AUTHORITY_TOKENS`: `name=token,name=token`. Each token may write; its name is recorded
 * on every activation it makes.
 */
export function parseTokens(raw: string | undefined, variable = 'AUTHORITY_TOKENS'): Map<string, string> {
  // A Map, not a plain object: a token is looked up from untrusted input, and `__proto__` or
  // `toString` must not find anything.
  if (!raw?.trim()) return new Map([[LOCAL_DEV_TOKEN, 'local']]);
  const tokens = new Map<string, string>();
  for (const pair of raw.split(',')) {
    const at = pair.indexOf('=');
    const name = at < 0 ? '' : pair.slice(0, at).trim();
    const token = at < 0 ? '' : pair.slice(at + 1).trim();
    if (!name || !token) throw new Error(`${variable} must look like "console=token1,email-agent=token2"; "${pair}" does not.`);
    realToken(token, `${variable} (for ${name})`);
    if (tokens.has(token) && tokens.get(token) !== name)
      throw new Error(`${variable} gives one token to both "${tokens.get(token)}" and "${name}"; give each its own.`);
    tokens.set(token, name);
  }
  return tokens;
}

export function portFrom(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number; "${raw}" is not.`);
  return port;
}

/** A yes/no setting: true/false, 1/0, yes/no, on/off; unset means the fallback. */
export function booleanFrom(raw: string | undefined, fallback: boolean, name: string): boolean {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new Error(`${name} must be true or false; "${raw}" is neither.`);
}

/** A whole number setting of at least `least`; unset means none. */
export function wholeFrom(raw: string | undefined, least: number, name: string): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < least) throw new Error(`${name} must be a whole number of at least ${least}; "${raw}" is not.`);
  return value;
}

/**
 * `AUTHORITY_COMMIT_WAIT_MS`: how long the authority holds back an activation's acknowledgement
 * and announcement after committing it, in whole milliseconds from 0 (off) to 1,000; unset means
 * the default, 25. Every replica sharing a store must be given the same.
 */
export function commitWaitFrom(raw: string | undefined, name = 'AUTHORITY_COMMIT_WAIT_MS'): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_COMMIT_WAIT_MS;
  const text = raw.trim();
  if (!/^\d{1,4}$/.test(text) || Number(text) > MAX_COMMIT_WAIT_MS) {
    throw new Error(
      `${name} must be a whole number of milliseconds from 0 to ${MAX_COMMIT_WAIT_MS} (how long an activation is held back after its commit; default ${DEFAULT_COMMIT_WAIT_MS}); "${raw}" is not.`,
    );
  }
  return Number(text);
}
