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

/**
 * What a known-browser cookie says: this browser signed in as `name` at `issuedAt`. It is no
 * session (it signs nobody in); it only spares the browser the slowing that other computers'
 * wrong passwords for that name bring (sign-in-limits.ts).
 */
export interface KnownBrowser {
  readonly name: string;
  readonly issuedAt: number;
}

/** No honest cookie is longer; a longer one is refused before any work is done on it. */
const MAX_TOKEN_LENGTH = 1024;
const VERSION = 'v1';
/** Its own prefix under the MAC: a session cookie is never taken as a known browser's, nor the reverse. */
const BROWSER_VERSION = 'b1';

/** Signs session (and known-browser) cookies with HMAC-SHA-256 under the console's secret, and checks them. */
export class SessionSigner {
  private readonly key: Buffer;

  constructor(secret: string | Uint8Array) {
    this.key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    if (this.key.length < 32) throw new Error('The console’s session secret must be at least 32 bytes (e.g. `openssl rand -hex 32`).');
  }

  private mac(version: string, payload: string): Buffer {
    return createHmac('sha256', this.key).update(`${version}.${payload}`).digest();
  }

  private seal(version: string, fields: object): string {
    const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
    return `${version}.${payload}.${this.mac(version, payload).toString('base64url')}`;
  }

  /** The fields of a token this signer sealed under `version`, or undefined for anything else. */
  private open(version: string, token: string): Record<string, unknown> | undefined {
    if (token.length > MAX_TOKEN_LENGTH) return undefined;
    const [given, payload, signature, ...rest] = token.split('.');
    if (given !== version || payload === undefined || signature === undefined || rest.length > 0) return undefined;
    const mac = Buffer.from(signature, 'base64url');
    const expected = this.mac(version, payload);
    // timingSafeEqual needs equal lengths; the length of a MAC is no secret.
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    return typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : undefined;
  }

  sign(claims: SessionClaims): string {
    return this.seal(VERSION, { u: claims.name, f: claims.fingerprint, i: claims.issuedAt, s: claims.seenAt });
  }

  /** The claims of a cookie this signer made, or undefined for anything else (forged, tampered, truncated). */
  verify(token: string): SessionClaims | undefined {
    const { u, f, i, s } = this.open(VERSION, token) ?? {};
    if (typeof u !== 'string' || typeof f !== 'string' || !Number.isSafeInteger(i) || !Number.isSafeInteger(s)) return undefined;
    return { name: u, fingerprint: f, issuedAt: i as number, seenAt: s as number };
  }

  signBrowser(browser: KnownBrowser): string {
    return this.seal(BROWSER_VERSION, { u: browser.name, i: browser.issuedAt });
  }

  verifyBrowser(token: string): KnownBrowser | undefined {
    const { u, i } = this.open(BROWSER_VERSION, token) ?? {};
    if (typeof u !== 'string' || !Number.isSafeInteger(i)) return undefined;
    return { name: u, issuedAt: i as number };
  }
}
