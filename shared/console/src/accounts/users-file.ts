import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { unreadableIn } from '@learnables/protocol';
import type { ParsedHash, ScryptCost } from './password-hash.ts';
import { parsePasswordHash } from './password-hash.ts';

/** Names are what the audit trail records: short enough to show, long enough for a full name. */
export const MAX_NAME_LENGTH = 120;
/** A users file larger than this is not a list of people; it is refused rather than read. */
const MAX_FILE_BYTES = 1024 * 1024;

export interface ConsoleAccount {
  readonly name: string;
  readonly hash: ParsedHash;
  /**
   * Changes whenever the stored hash does. A session records the fingerprint it was made under, so
   * a new password (or a removed account) ends the sessions made with the old one.
   */
  readonly fingerprint: string;
}

/** Why a name cannot be an account's name, in words, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (name === '') return 'the name is empty';
  if (name !== name.trim()) return 'the name starts or ends with a space';
  if (name.length > MAX_NAME_LENGTH) return `the name is longer than ${MAX_NAME_LENGTH} characters`;
  const unreadable = unreadableIn(name);
  if (unreadable) return `the name contains ${unreadable}`;
  return undefined;
}

/**
 * Read a users file: one account a line, `name:hash`, where the hash is a scrypt PHC string
 * (`pnpm console-user add <name>` writes these lines). The name is everything before the last `:`
 * (hashes hold none), so names may hold spaces and colons. Blank lines and lines starting with `#`
 * are skipped. Any mistake is an error naming its line: a users file is read whole or not at all.
 */
export function parseUsers(text: string, where = 'the users file'): Map<string, ConsoleAccount> {
  const accounts = new Map<string, ConsoleAccount>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const at = line.lastIndexOf(':');
    const name = at < 0 ? '' : line.slice(0, at).trim().normalize('NFC');
    const stored = at < 0 ? line : line.slice(at + 1).trim();
    const problem = at < 0 ? 'it is not of the form name:hash' : nameProblem(name);
    if (problem) throw new Error(`${where}, line ${index + 1}: ${problem}.`);
    const hash = parsePasswordHash(stored);
    if (typeof hash === 'string') throw new Error(`${where}, line ${index + 1} (${name}): ${hash}.`);
    if (accounts.has(name)) throw new Error(`${where}, line ${index + 1}: ${name} is already on an earlier line; keep one.`);
    accounts.set(name, { name, hash, fingerprint: createHash('sha256').update(stored).digest('base64url').slice(0, 16) });
  });
  return accounts;
}

/** One line of a users file. */
export function userLine(name: string, hash: string): string {
  return `${name}:${hash}`;
}

/**
 * The accounts of a users file, read again when the file changes (checked at most once a second),
 * so `pnpm console-user add` takes effect without a restart. A file that cannot be read at start is
 * an error; a later mistake keeps the accounts read before and is logged, and a deleted file means
 * no accounts (nobody signs in, every session ends).
 */
export class UsersFile {
  private accounts = new Map<string, ConsoleAccount>();
  private seen = '';
  private checkedAt = 0;
  private checking: Promise<void> | undefined;

  private constructor(
    readonly path: string,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  static async open(path: string, log: (message: string, error?: unknown) => void): Promise<UsersFile> {
    const users = new UsersFile(path, log);
    await users.load(true);
    return users;
  }

  /** The account of this name, as the file says now. */
  async find(name: string): Promise<ConsoleAccount | undefined> {
    if (Date.now() - this.checkedAt >= 1000) {
      this.checking ??= this.load(false).finally(() => (this.checking = undefined));
      await this.checking;
    }
    return this.accounts.get(name.normalize('NFC'));
  }

  get size(): number {
    return this.accounts.size;
  }

  /** The cost of the first account's hash: what a check against no account should cost too. */
  get typicalCost(): ScryptCost | undefined {
    return this.accounts.values().next().value?.hash.cost;
  }

  private async load(first: boolean): Promise<void> {
    this.checkedAt = Date.now();
    let version: string;
    try {
      const info = await stat(this.path);
      if (info.size > MAX_FILE_BYTES) throw new Error(`${this.path} is ${info.size} bytes; a users file is at most ${MAX_FILE_BYTES}.`);
      version = `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch (error) {
      if (first)
        throw error instanceof Error && 'code' in error && error.code === 'ENOENT'
          ? new Error(`The console's users file ${this.path} does not exist; add a user with pnpm console-user add <name>.`)
          : error;
      if (this.accounts.size > 0 || this.seen !== 'gone')
        this.log(`console: the users file ${this.path} cannot be read; nobody can sign in until it can`, error);
      this.accounts = new Map();
      this.seen = 'gone';
      return;
    }
    if (version === this.seen) return;
    try {
      this.accounts = parseUsers(await readFile(this.path, 'utf8'), this.path);
      this.seen = version;
    } catch (error) {
      if (first) throw error;
      // A half-edited file should not lock everyone out: the accounts read before stay until it is fixed.
      this.seen = version;
      this.log('console: the users file changed but cannot be read; the accounts read before it stay in use', error);
    }
  }
}
