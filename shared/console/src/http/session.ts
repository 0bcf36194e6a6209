import type { NextFunction, Request, Response } from 'express';
import { hostNameOf } from '@learnables/authority';
import { DEFAULT_COST, MAX_PASSWORD_LENGTH, verifyPassword } from '../accounts/password-hash.ts';
import type { ParsedHash } from '../accounts/password-hash.ts';
import { AttemptCounter, CheckGate, DEFAULT_SIGN_IN_LIMITS } from '../accounts/sign-in-limits.ts';
import type { SignInLimitOptions } from '../accounts/sign-in-limits.ts';
import { SessionSigner } from '../accounts/session-token.ts';
import type { SessionClaims } from '../accounts/session-token.ts';
import { MAX_NAME_LENGTH, UsersFile } from '../accounts/users-file.ts';
import { unreadableIn } from '@learnables/protocol';
import { ConsoleError } from '../console-error.ts';

/** The session cookie: a signed, expiring statement of which account signed in. */
export const SESSION_COOKIE = 'learnables-session';
/** Set on signing in, kept past sign-out: this browser has signed in as this name (sign-in-limits.ts). */
export const KNOWN_BROWSER_COOKIE = 'learnables-browser';

const HOUR = 3600_000;
/** A session not used for this long ends. */
export const DEFAULT_IDLE_MS = 12 * HOUR;
/** A session ends this long after sign-in, used or not. */
export const DEFAULT_MAX_MS = 24 * HOUR;
/** A used session's cookie is renewed (its idle time restarted) at most this often. */
const RENEW_AFTER_MS = 5 * 60_000;
/** While streams are open, their accounts are looked up this often (the users file is reread at most once a second). */
const STREAM_CHECK_MS = 1000;
/** setTimeout fires at once past this; a session this long is ended at the next reconnect instead. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A response held open under a session (a live stream), and how to end it. */
interface HeldStream {
  readonly claims: SessionClaims;
  readonly end: () => void;
  timer?: NodeJS.Timeout;
}

export interface AccountOptions {
  /** The users file: `name:hash` lines (see `pnpm console-user`), read again when it changes. */
  readonly usersFile: string;
  /** Signs the session cookies (HMAC-SHA-256); at least 32 bytes. Changing it ends every session. */
  readonly sessionSecret: string | Uint8Array;
  /** Default 12 hours. */
  readonly sessionIdleMs?: number;
  /** Default 24 hours. */
  readonly sessionMaxMs?: number;
  readonly signInLimits?: SignInLimitOptions;
}

const waitWords = (ms: number) => {
  if (ms <= 45_000) {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    return seconds === 1 ? 'a second' : `${seconds} seconds`;
  }
  const count = Math.max(1, Math.ceil(ms / 60_000));
  return count === 1 ? 'a minute' : `${count} minutes`;
};

/** The signed-in operator of this request, as the session gate found it. */
export function operatorOf(res: Response): string | undefined {
  const operator: unknown = res.locals.operator;
  return typeof operator === 'string' ? operator : undefined;
}

/** The operator, or a refusal saying to sign in: nothing is written without an account to record. */
export function requireOperator(res: Response): string {
  const operator = operatorOf(res);
  if (!operator) throw new ConsoleError(401, 'not-signed-in', 'Sign in first: every answer, lesson and rollback records who made it.');
  return operator;
}

/**
 * Middleware for /api after the session gate: every route but /session is for signed-in operators
 * only (the questions hold the customers' messages), and is refused with 401 otherwise.
 */
export function requireSignedIn(req: Request, res: Response, next: NextFunction): void {
  if (req.path === '/session' || operatorOf(res)) {
    next();
    return;
  }
  res.status(401).json(new ConsoleError(401, 'not-signed-in', 'Sign in first: every answer, lesson and rollback records who made it.').toJSON());
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const pair of (req.get('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at >= 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The console's accounts and sessions. Passwords are scrypt hashes in the users file; a session is
 * a cookie signed with the console's secret, naming the account and the hash it signed in under,
 * ending after `sessionIdleMs` unused and `sessionMaxMs` after sign-in. Signing out ends every
 * session of that account made before it (held in memory: bounded by the number of accounts).
 */
export class ConsoleSessions {
  private readonly signer: SessionSigner;
  private readonly idleMs: number;
  private readonly maxMs: number;
  /** The hard limit: wrong passwords for one name from one address. */
  private readonly byAddressAndName: AttemptCounter;
  private readonly byAddress: AttemptCounter;
  /** Slows, never shuts: wrong passwords for one name from browsers not known for it, any address. */
  private readonly byName: AttemptCounter;
  private readonly knownBrowserMs: number;
  private readonly checks: CheckGate;
  private readonly signedOutAt = new Map<string, number>();
  /** Open live streams, each ended with its session (bounded by live-events.ts's cap). */
  private readonly streams = new Set<HeldStream>();
  private streamCheck: NodeJS.Timeout | undefined;
  private checkingStreams = false;

  private constructor(
    private readonly users: UsersFile,
    options: AccountOptions,
    /** Host names whose origin is https: cookies sent to them are `Secure`. */
    private readonly secureHosts: ReadonlySet<string>,
    private readonly log: (message: string, error?: unknown) => void,
  ) {
    this.signer = new SessionSigner(options.sessionSecret);
    this.idleMs = options.sessionIdleMs ?? DEFAULT_IDLE_MS;
    this.maxMs = options.sessionMaxMs ?? DEFAULT_MAX_MS;
    const limits = options.signInLimits ?? {};
    const remembered = limits.remembered ?? 10_000;
    this.byAddressAndName = new AttemptCounter(limits.perAddressAndName ?? DEFAULT_SIGN_IN_LIMITS.perAddressAndName, remembered);
    this.byAddress = new AttemptCounter(limits.perAddress ?? DEFAULT_SIGN_IN_LIMITS.perAddress, remembered);
    this.byName = new AttemptCounter(limits.perName ?? DEFAULT_SIGN_IN_LIMITS.perName, remembered);
    this.knownBrowserMs = limits.knownBrowserMs ?? DEFAULT_SIGN_IN_LIMITS.knownBrowserMs;
    this.checks = new CheckGate(limits.concurrentChecks ?? 2, limits.waitingChecks ?? 32);
  }

  static async open(
    options: AccountOptions,
    origins: string | readonly string[] | undefined,
    log: (message: string, error?: unknown) => void,
  ): Promise<ConsoleSessions> {
    const listed = typeof origins === 'string' ? origins.split(',') : (origins ?? []);
    const secure = new Set(
      listed
        .map((origin) => origin.trim())
        .filter((origin) => /^https:\/\//i.test(origin))
        .map((origin) => hostNameOf(new URL(origin).host)),
    );
    return new ConsoleSessions(await UsersFile.open(options.usersFile, log), options, secure, log);
  }

  /**
   * Middleware for /api: finds the account of the session cookie, if it is valid now, into
   * `res.locals.operator`, and renews a session in use. A cookie that is forged, tampered with,
   * expired, signed out, or made under a password since changed is cleared and counts as none.
   */
  gate() {
    return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      try {
        const token = cookieOf(req, SESSION_COOKIE);
        if (token !== undefined) {
          const now = Date.now();
          const claims = await this.valid(token, now);
          if (claims) {
            res.locals.operator = claims.name;
            res.locals.session = claims;
            if (now - claims.seenAt >= RENEW_AFTER_MS) this.setCookie(req, res, { ...claims, seenAt: now });
          } else {
            this.clearCookie(req, res);
          }
        }
        next();
      } catch (error) {
        next(error);
      }
    };
  }

  private async valid(token: string, now: number): Promise<SessionClaims | undefined> {
    const claims = this.signer.verify(token);
    if (!claims) return undefined;
    if (now - claims.seenAt >= this.idleMs || now - claims.issuedAt >= this.maxMs || claims.seenAt > now + 60_000) return undefined;
    if (claims.issuedAt <= (this.signedOutAt.get(claims.name) ?? -1)) return undefined;
    const account = await this.users.find(claims.name);
    return account && account.fingerprint === claims.fingerprint ? claims : undefined;
  }

  /**
   * Hold a response open under this request's session (a live stream of the messages people sent):
   * `end` is called when the session ends — signed out (from any browser), idle or too old, its
   * account's password changed or the account removed — and the answer is the way to let go (call
   * it when the response closes), or undefined when the request has no session to hold it under.
   */
  holdStream(res: Response, end: () => void): (() => void) | undefined {
    const claims = res.locals.session as SessionClaims | undefined;
    if (!claims) return undefined;
    const endsAt = Math.min(claims.seenAt + this.idleMs, claims.issuedAt + this.maxMs);
    const held: HeldStream = { claims, end };
    held.timer = setTimeout(() => this.endStream(held), Math.min(LONGEST_TIMER_MS, Math.max(0, endsAt - Date.now())));
    this.streams.add(held);
    this.streamCheck ??= setInterval(() => void this.checkStreams(), STREAM_CHECK_MS).unref();
    return () => this.letGo(held);
  }

  private letGo(held: HeldStream): void {
    clearTimeout(held.timer);
    this.streams.delete(held);
    if (this.streams.size === 0 && this.streamCheck) {
      clearInterval(this.streamCheck);
      this.streamCheck = undefined;
    }
  }

  private endStream(held: HeldStream): void {
    if (!this.streams.has(held)) return;
    this.letGo(held);
    held.end();
  }

  /** End the streams whose sessions no longer hold: the users file is looked at again for them. */
  private async checkStreams(): Promise<void> {
    if (this.checkingStreams) return;
    this.checkingStreams = true;
    try {
      for (const held of [...this.streams]) {
        const account = await this.users.find(held.claims.name);
        if (!account || account.fingerprint !== held.claims.fingerprint) this.endStream(held);
      }
    } catch (error) {
      this.log('console: checking the open streams’ sessions failed', error);
    } finally {
      this.checkingStreams = false;
    }
  }

  /** Check a name and password; on success set the session cookie and answer the account's name. */
  async signIn(req: Request, res: Response, body: unknown): Promise<string> {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const name = typeof fields.name === 'string' ? fields.name.trim().normalize('NFC') : '';
    const password = typeof fields.password === 'string' ? fields.password : '';
    if (name === '') throw new ConsoleError(400, 'malformed', 'Type your name to sign in.', 'name');
    if (name.length > MAX_NAME_LENGTH) throw new ConsoleError(400, 'malformed', `A name of at most ${MAX_NAME_LENGTH} characters, please.`, 'name');
    // The name goes into the permanent audit trail: it must print as what it is.
    const unreadable = unreadableIn(name);
    if (unreadable) throw new ConsoleError(400, 'malformed', `That name contains ${unreadable}; type your name as letters, digits and punctuation.`, 'name');
    if (password === '') throw new ConsoleError(400, 'malformed', 'Type your password to sign in.', 'password');
    if (password.length > MAX_PASSWORD_LENGTH)
      throw new ConsoleError(400, 'malformed', `A password of at most ${MAX_PASSWORD_LENGTH} characters, please.`, 'password');

    const address = req.socket.remoteAddress ?? 'unknown';
    // Names hold no control characters (checked above): NUL cannot join two keys into one.
    const pair = `${address}\u0000${name}`;
    const now = Date.now();
    const browser = this.knownBrowser(req, now);
    const known = browser !== undefined && browser.name === name;
    const waits = [
      { wait: this.byAddressAndName.waitFor(pair, now), why: 'Too many wrong passwords for this name from this computer.' },
      { wait: this.byAddress.waitFor(address, now), why: 'Too many wrong passwords from this computer.' },
      {
        wait: known ? 0 : this.byName.waitFor(name, now),
        why: 'Many wrong passwords were typed for this name lately, from other computers too, so each try now waits a little longer. A browser that has signed in as this name before is not held back.',
      },
    ].sort((a, b) => b.wait - a.wait);
    if (waits[0]!.wait > 0) {
      const { wait, why } = waits[0]!;
      res.set('retry-after', String(Math.ceil(wait / 1000)));
      throw new ConsoleError(
        429,
        'too-many-attempts',
        `${why} Wait ${waitWords(wait)}, then try again; ask whoever runs the console if you have forgotten your password.`,
      );
    }
    // Counted before the check, in the same turn as the waits above: sign-ins sent at once each take
    // a place, so no more of them reach the hash than the limits allow. A right password gives its place back.
    this.byAddressAndName.take(pair, now);
    this.byAddress.take(address, now);
    if (!known) this.byName.take(name, now);
    const giveBack = () => {
      this.byAddress.release(address);
      if (!known) this.byName.release(name);
    };

    const account = await this.users.find(name);
    // A name without an account is checked against a hash that matches nothing, at the accounts' own
    // cost: a wrong name takes as long as a wrong password, so the time of the answer tells no names.
    const hash: ParsedHash = account?.hash ?? { cost: this.users.typicalCost ?? DEFAULT_COST, salt: Buffer.alloc(16), key: Buffer.alloc(32) };
    const matches = await this.checks.run(() => verifyPassword(password, hash));
    if (matches === undefined) {
      // Nothing was checked: nothing is counted.
      giveBack();
      this.byAddressAndName.release(pair);
      res.set('retry-after', '5');
      throw new ConsoleError(503, 'busy', 'The console is checking many sign-ins at once; try again in a few seconds.');
    }
    if (!account || !matches)
      throw new ConsoleError(401, 'wrong-password', 'That name and password do not match an account. Check both and try again.', 'password');
    giveBack();
    this.byAddressAndName.clear(pair);
    const issuedAt = Math.max(Date.now(), (this.signedOutAt.get(account.name) ?? -1) + 1);
    this.setCookie(req, res, { name: account.name, fingerprint: account.fingerprint, issuedAt, seenAt: issuedAt });
    res.cookie(KNOWN_BROWSER_COOKIE, this.signer.signBrowser({ name: account.name, issuedAt }), {
      ...this.cookieOptions(req),
      path: '/api/session',
      maxAge: this.knownBrowserMs,
    });
    return account.name;
  }

  /** The known-browser cookie of this request, if it is one this console signed and not too old. */
  private knownBrowser(req: Request, now: number) {
    const token = cookieOf(req, KNOWN_BROWSER_COOKIE);
    const browser = token === undefined ? undefined : this.signer.verifyBrowser(token);
    return browser && now - browser.issuedAt < this.knownBrowserMs && browser.issuedAt <= now + 60_000 ? browser : undefined;
  }

  /** End this account's sessions (every browser's), and clear this browser's cookie. */
  signOut(req: Request, res: Response): void {
    const operator = operatorOf(res);
    // Only a valid session's account is recorded, so the map holds at most one entry per account.
    if (operator) {
      const at = Date.now();
      this.signedOutAt.set(operator, at);
      for (const held of [...this.streams]) if (held.claims.name === operator && held.claims.issuedAt <= at) this.endStream(held);
    }
    this.clearCookie(req, res);
  }

  private cookieOptions(req: Request) {
    // SameSite=Strict: another site cannot make a browser answer or roll back in this operator's name.
    return { httpOnly: true, sameSite: 'strict' as const, path: '/', secure: req.secure || this.secureHosts.has(hostNameOf(req.get('host') ?? '')) };
  }

  private setCookie(req: Request, res: Response, claims: SessionClaims): void {
    res.cookie(SESSION_COOKIE, this.signer.sign(claims), {
      ...this.cookieOptions(req),
      maxAge: Math.min(this.idleMs, claims.issuedAt + this.maxMs - claims.seenAt),
    });
  }

  private clearCookie(req: Request, res: Response): void {
    res.clearCookie(SESSION_COOKIE, this.cookieOptions(req));
  }
}
