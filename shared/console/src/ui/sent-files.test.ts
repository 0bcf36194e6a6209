import { describe, expect, it } from 'vitest';
import { fnv1a64, messageIdOf } from './sent-files.ts';

describe('messageIdOf reads the Message-ID from a message’s headers only', () => {
  it('finds it in any case, unfolds it, and stops at the blank line', () => {
    expect(messageIdOf('From: a@b\r\nMessage-ID: <x1@host>\r\nSubject: s\r\n\r\nbody')).toBe('<x1@host>');
    expect(messageIdOf('message-id:\r\n <folded@host>\r\n\r\n')).toBe('<folded@host>');
    expect(messageIdOf('From: a@b\n\nMessage-ID: <in-the-body@host>\n')).toBeUndefined();
    expect(messageIdOf('Subject: none\n\n')).toBeUndefined();
  });
});

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64-bit values', () => {
    expect(fnv1a64(new Uint8Array())).toBe('cbf29ce484222325');
    expect(fnv1a64(new TextEncoder().encode('a'))).toBe('af63dc4c8601ec8c');
    expect(fnv1a64(new TextEncoder().encode('foobar'))).toBe('85944171f73967e8');
  });
});
