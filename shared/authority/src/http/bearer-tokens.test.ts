import { describe, expect, it } from 'vitest';
import { BearerTokens, bearerTokenOf } from './bearer-tokens.ts';

describe('bearer tokens', () => {
  const tokens = new BearerTokens({ 'console-token': 'console', 'agent-token': 'agent' });

  it('finds a known token and nothing for any name a plain object would answer to', () => {
    expect(tokens.nameOf('console-token')).toBe('console');
    expect(tokens.nameOf('agent-token')).toBe('agent');
    for (const name of [...Object.getOwnPropertyNames(Object.prototype), '', 'console-toke', 'console-token ', 'CONSOLE-TOKEN']) {
      expect(tokens.nameOf(name)).toBeUndefined();
    }
    expect(tokens.nameOf(undefined)).toBeUndefined();
  });

  it('refuses to be built with an empty token or a token without a name', () => {
    expect(() => new BearerTokens(new Map([['', 'console']]))).toThrow(/must not be empty/);
    expect(() => new BearerTokens(new Map([['t', ' ']]))).toThrow(/needs a name/);
  });

  it('reads the token from the header, the scheme in any letter case', () => {
    expect(bearerTokenOf(undefined)).toBeUndefined();
    expect(bearerTokenOf('Bearer abc')).toBe('abc');
    expect(bearerTokenOf('bearer abc')).toBe('abc');
    expect(bearerTokenOf('Bearer ')).toBe('');
    expect(bearerTokenOf('Basic abc')).toBe('');
    expect(bearerTokenOf('Bearer a b')).toBe('');
  });
});
