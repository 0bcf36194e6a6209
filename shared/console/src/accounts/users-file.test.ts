import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from './password-hash.ts';
import { UsersFile, parseUsers, userLine } from './users-file.ts';

describe('the users file', () => {
  let hash: string;
  let other: string;
  const dir = mkdtempSync(join(tmpdir(), 'console-users-'));

  beforeAll(async () => {
    [hash, other] = await Promise.all([hashPassword('a password for tests', { ln: 14, r: 8, p: 1 }), hashPassword('another password', { ln: 14, r: 8, p: 1 })]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads name:hash lines: names may hold spaces and colons; comments and blank lines are skipped', () => {
    const users = parseUsers(`# accounts\n\n${userLine('dana', hash)}\n  ${userLine('Dana Smith: nights', other)}  \r\n`);
    expect([...users.keys()]).toEqual(['dana', 'Dana Smith: nights']);
    expect(users.get('dana')!.hash.cost).toEqual({ ln: 14, r: 8, p: 1 });
    // A new hash for the same name is a new fingerprint: sessions made under the old one end.
    expect(users.get('dana')!.fingerprint).not.toBe(parseUsers(userLine('dana', other)).get('dana')!.fingerprint);
  });

  it('refuses the whole file for one bad line, naming the line', () => {
    expect(() => parseUsers(`${userLine('dana', hash)}\n${userLine('dana', other)}`, 'users')).toThrow(
      'users, line 2: dana is already on an earlier line; keep one.',
    );
    expect(() => parseUsers(`dana ${hash}`, 'users')).toThrow('users, line 1: it is not of the form name:hash.');
    expect(() => parseUsers('dana:hunter2', 'users')).toThrow(/^users, line 1 \(dana\): it is not a scrypt hash/);
    expect(() => parseUsers('dana', 'users')).toThrow('users, line 1: it is not of the form name:hash.');
    expect(() => parseUsers(`:${hash}`, 'users')).toThrow('users, line 1: the name is empty.');
    expect(() => parseUsers(userLine('dana\u202enimda', hash), 'users')).toThrow(
      'users, line 1: the name contains a character that changes the direction text is shown in.',
    );
    expect(() => parseUsers(userLine('x'.repeat(121), hash), 'users')).toThrow('users, line 1: the name is longer than 120 characters.');
    expect(() => parseUsers('dana:$scrypt$ln=30,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U', 'users')).toThrow(
      /^users, line 1 \(dana\): its ln=30 is outside 14–20/,
    );
  });

  it('is read again when it changes; a broken edit keeps the accounts read before; a deleted file has none', async () => {
    const path = join(dir, 'users');
    writeFileSync(path, `${userLine('dana', hash)}\n`);
    const logged: string[] = [];
    const users = await UsersFile.open(path, (message) => logged.push(message));
    expect((await users.find('dana'))?.name).toBe('dana');
    expect(await users.find('lee')).toBeUndefined();

    writeFileSync(path, `${userLine('dana', hash)}\n${userLine('lee', other)}\n`);
    await expect.poll(async () => (await users.find('lee'))?.name, { timeout: 5000, interval: 200 }).toBe('lee');

    writeFileSync(path, `${userLine('dana', hash)}\nlee\n`);
    // The file is looked at when an account is looked for.
    await expect.poll(async () => (await users.find('dana'), logged.length), { timeout: 5000, interval: 200 }).toBe(1);
    expect((await users.find('lee'))?.name).toBe('lee');

    unlinkSync(path);
    await expect.poll(async () => users.find('dana'), { timeout: 5000, interval: 200 }).toBeUndefined();
    await expect(UsersFile.open(path, () => undefined)).rejects.toThrow(/users file .* does not exist; add a user with pnpm console-user add <name>/);
  });
});
