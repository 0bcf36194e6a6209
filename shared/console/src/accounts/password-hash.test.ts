import { describe, expect, it } from 'vitest';
import { DEFAULT_COST, hashPassword, parsePasswordHash, verifyPassword } from './password-hash.ts';
import type { ParsedHash } from './password-hash.ts';

const CHEAP = { ln: 14, r: 8, p: 1 };
const parsed = (stored: string) => parsePasswordHash(stored) as ParsedHash;

describe('password hashes', () => {
  it('records the cost with a fresh salt, and checks the password it was made from', async () => {
    const [one, two] = await Promise.all([hashPassword('correct horse battery', CHEAP), hashPassword('correct horse battery', CHEAP)]);
    expect(one).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(one).not.toBe(two);
    expect(await verifyPassword('correct horse battery', parsed(one))).toBe(true);
    expect(await verifyPassword('correct horse batterY', parsed(one))).toBe(false);
    expect(await verifyPassword('', parsed(one))).toBe(false);
    expect(await verifyPassword('x'.repeat(2000), parsed(one))).toBe(false);
  });

  it('hashes at N=2^17, r=8, p=1 by default, and still checks a hash made at another cost', async () => {
    expect(DEFAULT_COST).toEqual({ ln: 17, r: 8, p: 1 });
    const older = await hashPassword('made before the default was raised', { ln: 15, r: 8, p: 1 });
    expect(parsed(older).cost).toEqual({ ln: 15, r: 8, p: 1 });
    expect(await verifyPassword('made before the default was raised', parsed(older))).toBe(true);
  });

  it('refuses a stored hash it cannot trust, in words: too cheap, too costly, or not a scrypt hash', () => {
    const salt = 'c2FsdHNhbHRzYWx0c2FsdA';
    const key = 'a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U';
    expect(parsed(`$scrypt$ln=16,r=8,p=1$${salt}$${key}`).cost).toEqual({ ln: 16, r: 8, p: 1 });
    expect(parsePasswordHash(`$scrypt$ln=10,r=8,p=1$${salt}$${key}`)).toMatch(/^its ln=10 is outside 14–20/);
    expect(parsePasswordHash(`$scrypt$ln=30,r=8,p=1$${salt}$${key}`)).toMatch(/^its ln=30 is outside 14–20/);
    expect(parsePasswordHash(`$scrypt$ln=16,r=64,p=1$${salt}$${key}`)).toMatch(/^its r=64 is outside 8–16/);
    for (const bad of ['', 'hunter2', `$argon2id$v=19$m=65536,t=3,p=4$${salt}$${key}`, `$scrypt$ln=16,r=8,p=1$${salt}$short`]) {
      expect(parsePasswordHash(bad)).toMatch(/^it is not a scrypt hash/);
    }
  });
});
