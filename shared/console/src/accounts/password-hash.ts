import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt's cost, recorded with every hash (`$scrypt$ln=17,r=8,p=1$salt$hash`, the PHC string form
 * passlib also writes), so the default can be raised later without breaking the hashes already
 * stored: each is verified with its own parameters.
 */
export interface ScryptCost {
  /** log2 of N, the CPU/memory cost. */
  readonly ln: number;
  /** Block size. */
  readonly r: number;
  /** Parallelism. */
  readonly p: number;
}

/** OWASP's first recommendation for scrypt (N=2^17, r=8, p=1): 128 MiB and a few hundred ms per hash. */
export const DEFAULT_COST: ScryptCost = { ln: 17, r: 8, p: 1 };

/**
 * The weakest and strongest costs a stored hash may have. Below: too cheap to guess against
 * (OWASP's cheapest listed setting is N=2^13 with p=10, about N=2^14 with p=5). Above: one sign-in
 * could claim more memory than a small machine has, and the users file is read, not trusted.
 */
export const COST_BOUNDS = { ln: [14, 20], r: [8, 16], p: [1, 16] } as const;

/** A password longer than this is refused before hashing: no one types it, and it bounds the work. */
export const MAX_PASSWORD_LENGTH = 1024;
/** Shorter passwords are refused when a user is added. */
export const MIN_PASSWORD_LENGTH = 10;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{22,88})\$([A-Za-z0-9+/]{43,88})$/;

export interface ParsedHash {
  readonly cost: ScryptCost;
  readonly salt: Buffer;
  readonly key: Buffer;
}

/** Why a stored hash cannot be used, in words, or the hash read apart. */
export function parsePasswordHash(stored: string): ParsedHash | string {
  const match = PHC.exec(stored);
  if (!match) return 'it is not a scrypt hash of the form $scrypt$ln=…,r=…,p=…$salt$hash (make one with pnpm console-user)';
  const cost = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  for (const name of ['ln', 'r', 'p'] as const) {
    const [low, high] = COST_BOUNDS[name];
    if (cost[name] < low || cost[name] > high) return `its ${name}=${cost[name]} is outside ${low}–${high}; hash the password again with pnpm console-user`;
  }
  return { cost, salt: Buffer.from(match[4]!, 'base64'), key: Buffer.from(match[5]!, 'base64') };
}

function derive(password: string, salt: Buffer, cost: ScryptCost, length: number): Promise<Buffer> {
  const N = 2 ** cost.ln;
  // scrypt needs 128·N·r bytes; Node refuses above maxmem (32 MiB by default), so say what this cost needs.
  const maxmem = 256 * N * cost.r;
  // node:crypto's scrypt runs on libuv's thread pool: the event loop keeps answering while it works.
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, { N, r: cost.r, p: cost.p, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** Hash a password with a fresh salt, as a PHC string that records the cost. */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  if (password.length > MAX_PASSWORD_LENGTH) throw new RangeError(`A password of at most ${MAX_PASSWORD_LENGTH} characters, please.`);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost, KEY_BYTES);
  return `$scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${b64(salt)}$${b64(key)}`;
}

/** Whether the password is the one hashed; the comparison takes the same time wherever they differ. */
export async function verifyPassword(password: string, hash: ParsedHash): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await derive(password, hash.salt, hash.cost, hash.key.length);
  return timingSafeEqual(key, hash.key);
}
