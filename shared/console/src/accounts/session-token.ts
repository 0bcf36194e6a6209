import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a session cookie says, once its signature holds. Times are milliseconds since the epoch. */
export interface SessionClaims {
  /** The account's name: what the audit trail records. */
  readonly name: string;
  /** The account's fingerprint when the session began (a new password ends the session). */
  readonly fingerprint: string;
  /** When the operator signed in: the absolute cap counts from here. */
  readonly issuedAt: number;
  /** When the session was last renewed by use: the idle limit counts from here. */
  readonly seenAt: number;
}

/** No honest cookie is longer; a longer one is refused before any work is done on it. */
const MAX_TOKEN_LENGTH = 1024;
const VERSION = 'v1';

/** Signs session cookies with HMAC-SHA-256 under the console's secret, and checks them. */
export class SessionSigner {
  private readonly key: Buffer;

  constructor(secret: string | Uint8Array) {
    this.key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    if (this.key.length < 32) throw new Error('The console’s session secret must be at least 32 bytes (e.g. `openssl rand -hex 32`).');
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(`${VERSION}.${payload}`).digest();
  }

  sign(claims: SessionClaims): string {
    const payload = Buffer.from(JSON.stringify({ u: claims.name, f: claims.fingerprint, i: claims.issuedAt, s: claims.seenAt })).toString('base64url');
    return `${VERSION}.${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The claims of a cookie this signer made, or undefined for anything else (forged, tampered, truncated). */
  verify(token: string): SessionClaims | undefined {
    if (token.length > MAX_TOKEN_LENGTH) return undefined;
    const [version, payload, signature, ...rest] = token.split('.');
    if (version !== VERSION || payload === undefined || signature === undefined || rest.length > 0) return undefined;
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(payload);
    // timingSafeEqual needs equal lengths; the length of a MAC is no secret.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (typeof claims !== 'object' || claims === null) return undefined;
    const { u, f, i, s } = claims as Record<string, unknown>;
    if (typeof u !== 'string' || typeof f !== 'string' || !Number.isSafeInteger(i) || !Number.isSafeInteger(s)) return undefined;
    return { name: u, fingerprint: f, issuedAt: i as number, seenAt: s as number };
  }
}
