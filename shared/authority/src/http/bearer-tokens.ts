import { createHash, timingSafeEqual } from 'node:crypto';
import { unreadableIn } from '@learnables/protocol';

/** Token → the name it acts as. A Map, or a plain object whose own properties are the tokens. */
export type TokenNames = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The bearer tokens a service accepts, each with the name it acts as. A presented token is
 * untrusted text: it is never used as a property name (`__proto__` or `toString` would find
 * something on a plain object), and it is compared with every known token in constant time over
 * SHA-256 digests, so neither the answer's timing nor an early exit says how much of it matched.
 */
export class BearerTokens {
  private readonly known: readonly { readonly digest: Buffer; readonly name: string }[];

  constructor(tokens: TokenNames) {
    const pairs = tokens instanceof Map ? [...tokens.entries()] : Object.entries(tokens);
    this.known = pairs.map(([token, name]) => {
      if (typeof token !== 'string' || token.trim() === '') throw new Error('A bearer token must not be empty.');
      if (typeof name !== 'string' || name.trim() === '') throw new Error(`The bearer token for "${String(name)}" needs a name to act as.`);
      // The name is written into the audit trail on every write the token makes.
      const unreadable = unreadableIn(name);
      if (unreadable) throw new Error(`The name ${JSON.stringify(name)} for a bearer token contains ${unreadable}; give it a plain name.`);
      return { digest: digest(token), name };
    });
  }

  get size(): number {
    return this.known.length;
  }

  /** The name the token acts as, or undefined for a token not accepted (the empty one never is). */
  nameOf(token: string | undefined): string | undefined {
    if (typeof token !== 'string' || token === '') return undefined;
    const presented = digest(token);
    let found: string | undefined;
    for (const entry of this.known) {
      // No early exit: every token is compared, whichever matches.
      if (timingSafeEqual(presented, entry.digest) && found === undefined) found = entry.name;
    }
    return found;
  }

  /** The names the tokens act as (to check them against names reserved elsewhere). */
  names(): string[] {
    return this.known.map((entry) => entry.name);
  }

  /** Whether a token is one of these (for start-up notices, never for deciding a request). */
  has(token: string): boolean {
    return this.nameOf(token) !== undefined;
  }
}

/**
 * The token in an `Authorization: Bearer …` header; the scheme is case-insensitive (RFC 6750).
 * Undefined when there is no header; '' when a header is there but carries no bearer token.
 */
export function bearerTokenOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/**
 * The `WWW-Authenticate` challenge a 401 carries (RFC 6750 §3, RFC 9110 §11.6.1): `Bearer` with
 * the protection space as `realm`, and, when a header was sent, why it was not taken:
 * `invalid_request` for one that carries no bearer token (an empty or another scheme's header),
 * `invalid_token` for a token this service does not accept. A request with no `Authorization`
 * header at all gets no error code, as §3.1 says it SHOULD NOT.
 */
export function bearerChallenge(realm: string, header: string | undefined, description?: string): string {
  const token = bearerTokenOf(header);
  const error = token === undefined ? undefined : token === '' ? 'invalid_request' : 'invalid_token';
  // Quoted strings: a realm or sentence of ours, never a caller's, but kept to what a quoted-string may hold.
  const quoted = (text: string) => `"${text.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '')}"`;
  return [
    `Bearer realm=${quoted(realm)}`,
    ...(error ? [`error=${quoted(error)}`] : []),
    ...(error && description ? [`error_description=${quoted(description)}`] : []),
  ].join(', ');
}
