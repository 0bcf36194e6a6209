// The console's accounts as the stack makes and edits them: the local stack's first user, made on
// first start and able to sign in, and `pnpm console-user` writing the users file.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsole, parseUsers } from '@learnables/console';
import { FIRST_USER, consoleAccounts, forgetFirstPassword, localFiles, setUser } from './console-accounts.ts';
import { silentLogger } from '@learnables/authority';

const cli = fileURLToPath(new URL('./console-user-main.ts', import.meta.url));

function consoleUser(args: readonly string[], input?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, CONSOLE_USERS_FILE: '' } }, (error, out, err) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
    child.stdin!.end(input ?? '');
  });
}

/** Open the console's live stream with a session cookie; `ended` says whether the console has closed it since. */
function openStream(url: string, cookie: string): Promise<{ status: number; ended: () => boolean; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/events`, { headers: { cookie } }, (res) => {
      let ended = false;
      const stream = { status: res.statusCode ?? 0, ended: () => ended, close: () => req.destroy() };
      res.once('data', () => resolve(stream));
      res.on('close', () => {
        ended = true;
        resolve(stream);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('console accounts in the stack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-accounts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the local stack’s first user on first start, with a password it says, that signs in', async () => {
    const dataDir = join(dir, 'data');
    const first = await consoleAccounts({}, dataDir);
    const files = localFiles(dataDir);
    expect(first.firstUser).toMatchObject({ name: FIRST_USER, made: true, password: expect.stringMatching(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/) });
    expect(first.accounts.usersFile).toBe(files.users);
    for (const path of [files.users, files.secret, files.firstPassword]) expect(statSync(path).mode & 0o777, path).toBe(0o600);
    expect([...parseUsers(readFileSync(files.users, 'utf8')).keys()]).toEqual([FIRST_USER]);
    expect(readFileSync(files.users, 'utf8')).toContain('$scrypt$ln=17,r=8,p=1$');

    // A second start makes nothing and says the same password, with the same secret.
    const again = await consoleAccounts({}, dataDir);
    expect(again.firstUser).toEqual({ ...first.firstUser, made: false });
    expect(again.accounts.sessionSecret).toBe(first.accounts.sessionSecret);

    const running = await createConsole({
      accounts: again.accounts,
      agents: [],
      authority: { url: 'http://127.0.0.1:9', token: 'unused' },
      logger: silentLogger(),
    });
    try {
      const signIn = await fetch(`${running.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: FIRST_USER, password: first.firstUser!.password }),
      });
      expect(await signIn.json()).toEqual({ operator: FIRST_USER });
    } finally {
      await running.close();
    }

    // Changed, it is no longer said.
    await setUser(files.users, FIRST_USER, 'a password of my own');
    forgetFirstPassword(join(dataDir, '..', 'data', 'console-users'), FIRST_USER, dataDir);
    expect(existsSync(files.firstPassword)).toBe(false);
    expect((await consoleAccounts({}, dataDir)).firstUser).toBeUndefined();
  });

  it('uses CONSOLE_USERS_FILE and CONSOLE_SESSION_SECRET when they are set, and makes nothing', async () => {
    const dataDir = join(dir, 'elsewhere');
    const users = join(dir, 'given-users');
    writeFileSync(users, '');
    const given = await consoleAccounts({ CONSOLE_USERS_FILE: users, CONSOLE_SESSION_SECRET: 'x'.repeat(40) }, dataDir);
    expect(given).toEqual({ accounts: { usersFile: users, sessionSecret: 'x'.repeat(40) } });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('pnpm console-user adds a user (password from standard input, or made), removes one, and refuses a short password', async () => {
    const users = join(dir, 'cli-users');
    expect(await consoleUser(['add', 'Dana Smith', '--file', users], 'a long enough password\n')).toMatchObject({
      code: 0,
      out: `Added Dana Smith in ${users}.\n`,
    });
    expect(statSync(users).mode & 0o777).toBe(0o600);
    const generated = await consoleUser(['add', 'lee', '--generate', '--file', users]);
    expect(generated.out).toMatch(/^Added lee in .*\nPassword: [a-z2-9]{4}(-[a-z2-9]{4}){3}\n$/);
    expect([...parseUsers(readFileSync(users, 'utf8')).keys()]).toEqual(['Dana Smith', 'lee']);

    // The file is rewritten whole: a changed password replaces its line, others stay as they were.
    const before = readFileSync(users, 'utf8');
    expect(await setUser(users, 'Dana Smith', 'another long password')).toBe('changed');
    const after = readFileSync(users, 'utf8');
    expect(after.split('\n')[1]).not.toBe(before.split('\n')[1]);
    expect(after.split('\n')[2]).toBe(before.split('\n')[2]);

    expect((await consoleUser(['remove', 'lee', '--file', users])).out).toBe(`Removed lee from ${users}. Their sessions have ended.\n`);
    expect([...parseUsers(readFileSync(users, 'utf8')).keys()]).toEqual(['Dana Smith']);
    const short = await consoleUser(['add', 'sam', '--file', users], 'short\n');
    expect(short).toMatchObject({ code: 2, err: 'A password of at least 10 characters, please (or --generate one); nothing was changed.\n' });
  }, 120_000);

  // Issue 34, finding 4: the stream of customers' messages outlived a password change and a removal.
  it('pnpm console-user changing a password or removing a user ends that user’s open live streams, and no one else’s', async () => {
    const users = join(dir, 'stream-users');
    for (const name of ['dana', 'lee', 'sam']) await setUser(users, name, `${name} has a long password`);
    const running = await createConsole({
      accounts: { usersFile: users, sessionSecret: 'y'.repeat(40) },
      agents: [],
      authority: { url: 'http://127.0.0.1:9', token: 'unused' },
      logger: silentLogger(),
    });
    const streams: { close: () => void }[] = [];
    try {
      const streamOf = async (name: string) => {
        const signIn = await fetch(`${running.url}/api/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, password: `${name} has a long password` }),
        });
        const cookie = signIn.headers
          .getSetCookie()
          .find((line) => line.startsWith('learnables-session='))!
          .split(';')[0]!;
        const stream = await openStream(running.url, cookie);
        streams.push(stream);
        expect(stream.status).toBe(200);
        return stream;
      };
      const dana = await streamOf('dana');
      const lee = await streamOf('lee');
      const sam = await streamOf('sam');
      expect((await consoleUser(['add', 'dana', '--file', users], 'a new password for dana\n')).out).toBe(
        `Changed the password of dana in ${users}. Their sessions have ended.\n`,
      );
      expect((await consoleUser(['remove', 'lee', '--file', users])).code).toBe(0);
      await expect.poll(() => dana.ended(), { timeout: 5000, interval: 100 }).toBe(true);
      await expect.poll(() => lee.ended(), { timeout: 5000, interval: 100 }).toBe(true);
      expect(sam.ended()).toBe(false);
    } finally {
      for (const stream of streams) stream.close();
      await running.close();
    }
  }, 120_000);
});
