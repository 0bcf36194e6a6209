// Where the console's accounts and session secret come from: CONSOLE_USERS_FILE and
// CONSOLE_SESSION_SECRET when set (docker-compose.yml requires both), else files under data/ that
// the local stack makes on its first start, with one user whose password is printed.
import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { AccountOptions } from '@learnables/console';
import { hashPassword, parseUsers, userLine } from '@learnables/console';
import { repoRoot } from './config.ts';

/** Where the local stack keeps its files. */
export const LOCAL_DATA_DIR = join(repoRoot, 'data');
/** The local stack's files: its users file, its session secret, and the password made for the first user (kept, owner-readable only, so each `pnpm start` can say it again). */
export const localFiles = (dataDir = LOCAL_DATA_DIR) => ({
  users: join(dataDir, 'console-users'),
  secret: join(dataDir, 'console-session-secret'),
  firstPassword: join(dataDir, 'console-first-password'),
});
/** The user the local stack makes on its first start. */
export const FIRST_USER = 'operator';

/** The users file a command works on: --file, else CONSOLE_USERS_FILE, else the local stack's. */
export function usersFilePath(env: NodeJS.ProcessEnv = process.env, given?: string, dataDir = LOCAL_DATA_DIR): string {
  return given ?? (env.CONSOLE_USERS_FILE?.trim() || localFiles(dataDir).users);
}

/** A password people can read aloud: 16 letters and digits without look-alikes (about 79 bits). */
export function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const groups = Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join(''));
  return groups.join('-');
}

/** Write a file whole or not at all, readable by its owner only. */
export function writePrivately(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/**
 * Add an account to a users file, or change its password: the file is read, the line for the name
 * replaced (or appended), the whole checked, and written in one rename. Answers whether it was new.
 */
export async function setUser(path: string, name: string, password: string): Promise<'added' | 'changed'> {
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '# Console accounts: name:scrypt-hash, one a line (pnpm console-user add <name>).\n';
  const accounts = parseUsers(before, path);
  const line = userLine(name, await hashPassword(password));
  const lines = before.split(/\r?\n/);
  const at = accounts.has(name)
    ? lines.findIndex((raw) => raw.trim() !== '' && !raw.trim().startsWith('#') && raw.slice(0, raw.lastIndexOf(':')).trim().normalize('NFC') === name)
    : -1;
  if (at >= 0) lines[at] = line;
  else lines.splice(lines.at(-1) === '' ? lines.length - 1 : lines.length, 0, line);
  const after = `${lines.join('\n').replace(/\n*$/, '')}\n`;
  parseUsers(after, path);
  writePrivately(path, after);
  return at >= 0 ? 'changed' : 'added';
}

/** Remove an account; answers whether there was one. */
export function removeUser(path: string, name: string): boolean {
  const before = readFileSync(path, 'utf8');
  if (!parseUsers(before, path).has(name)) return false;
  const after = before
    .split(/\r?\n/)
    .filter((raw) => raw.trim() === '' || raw.trim().startsWith('#') || raw.slice(0, raw.lastIndexOf(':')).trim().normalize('NFC') !== name)
    .join('\n');
  writePrivately(path, after);
  return true;
}

export interface LocalAccounts {
  readonly accounts: AccountOptions;
  /** The first user and the password made for it, while that file is kept: say it when starting. */
  readonly firstUser?: { readonly name: string; readonly password: string; readonly made: boolean };
}

/**
 * The console's accounts for this environment. With CONSOLE_USERS_FILE unset, the local stack's
 * file is used, made on first start with the user `operator` and a fresh random password.
 */
export async function consoleAccounts(env: NodeJS.ProcessEnv = process.env, dataDir = LOCAL_DATA_DIR): Promise<LocalAccounts> {
  const local = localFiles(dataDir);
  const usersFile = usersFilePath(env, undefined, dataDir);
  let made = false;
  if (usersFile === local.users && !existsSync(local.users)) {
    const password = generatePassword();
    writePrivately(local.firstPassword, `${password}\n`);
    await setUser(local.users, FIRST_USER, password);
    made = true;
  }
  const secret = env.CONSOLE_SESSION_SECRET?.trim() || localSecret(local.secret);
  const first = usersFile === local.users && existsSync(local.firstPassword) ? readFileSync(local.firstPassword, 'utf8').trim() : undefined;
  return {
    accounts: { usersFile, sessionSecret: secret },
    ...(first && { firstUser: { name: FIRST_USER, password: first, made } }),
  };
}

/** The local stack's session secret: made once, kept in data/ so a restart signs nobody out. */
function localSecret(path: string): string {
  if (!existsSync(path)) writePrivately(path, `${randomBytes(32).toString('hex')}\n`);
  return readFileSync(path, 'utf8').trim();
}

/** The first user's password no longer needs saying (it was changed, or the user removed): when `path` is the local users file. */
export function forgetFirstPassword(path: string, name: string, dataDir = LOCAL_DATA_DIR): void {
  const local = localFiles(dataDir);
  if (resolve(path) === resolve(local.users) && name === FIRST_USER && existsSync(local.firstPassword)) unlinkSync(local.firstPassword);
}
