import { describe, expect, it } from 'vitest';
import { SessionSigner } from './session-token.ts';

describe('session tokens', () => {
  const signer = new SessionSigner('a secret of at least thirty-two bytes, for tests');
  const claims = { name: 'Dana Ørsted', fingerprint: 'abc', issuedAt: 1_700_000_000_000, seenAt: 1_700_000_100_000 };

  it('reads back what it signed, and nothing else', () => {
    const token = signer.sign(claims);
    expect(signer.verify(token)).toEqual(claims);
    expect(new SessionSigner('another secret of at least thirty-two bytes').verify(token)).toBeUndefined();
    const [version, payload, signature] = token.split('.');
    expect(signer.verify(`${version}.${payload}.${signature!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`)).toBeUndefined();
    expect(signer.verify(`${version}.${payload}`)).toBeUndefined();
    expect(signer.verify(`${token}.more`)).toBeUndefined();
    expect(signer.verify(`${token}${'A'.repeat(2000)}`)).toBeUndefined();
    expect(signer.verify('')).toBeUndefined();
  });

  it('keeps known-browser cookies apart from sessions: neither is taken for the other', () => {
    const browser = signer.signBrowser({ name: 'Dana Ørsted', issuedAt: 1_700_000_000_000 });
    expect(signer.verifyBrowser(browser)).toEqual({ name: 'Dana Ørsted', issuedAt: 1_700_000_000_000 });
    expect(signer.verify(browser)).toBeUndefined();
    expect(signer.verifyBrowser(signer.sign(claims))).toBeUndefined();
    expect(signer.verifyBrowser(browser.replace(/^b1/, 'v1'))).toBeUndefined();
    expect(new SessionSigner('another secret of at least thirty-two bytes').verifyBrowser(browser)).toBeUndefined();
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => new SessionSigner('short')).toThrow(/at least 32 bytes/);
  });
});
