import { describe, expect, it } from 'vitest';
import type { InputPart } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';
import { emailFromParts } from './parse-parts.ts';

const raw = ['From: Tom Ashby <t.ashby@brightwell-foods.example>', 'Subject: BW-88213 chilled pallets', '', 'Morning'].join('\r\n');
const bytes = new TextEncoder().encode(raw);

async function refusalOf(parts: readonly InputPart[]): Promise<string> {
  try {
    await emailFromParts(parts);
  } catch (error) {
    expect(error).toBeInstanceOf(InputRefused);
    return (error as InputRefused).message;
  }
  throw new Error('expected a refusal, and the parts were read');
}

describe('emailFromParts', () => {
  it('reads a message/rfc822 file part', async () => {
    const email = await emailFromParts([{ kind: 'file', bytes, mediaType: 'message/rfc822' }]);
    expect(email.subject).toBe('BW-88213 chilled pallets');
  });

  it('reads a file named .eml, whatever its media type', async () => {
    const email = await emailFromParts([{ kind: 'file', bytes, mediaType: 'application/octet-stream', filename: 'Pallets.EML' }]);
    expect(email.from.address).toBe('t.ashby@brightwell-foods.example');
  });

  it('prefers the email file to a note that comes with it', async () => {
    const email = await emailFromParts([
      { kind: 'text', text: 'Please file this one.' },
      { kind: 'file', bytes, mediaType: 'message/rfc822; charset=utf-8' },
    ]);
    expect(email.subject).toBe('BW-88213 chilled pallets');
  });

  it('reads a whole message pasted as text, even beside a note', async () => {
    const email = await emailFromParts([
      { kind: 'text', text: 'Here it is:' },
      { kind: 'text', text: raw },
    ]);
    expect(email.body.trim()).toBe('Morning');
  });

  it('refuses two emails at once', async () => {
    const file = { kind: 'file', bytes, mediaType: 'message/rfc822' } as const;
    expect(await refusalOf([file, file])).toBe('Send one email at a time; this message carries 2.');
  });

  it('refuses a file that is not an email, naming it', async () => {
    expect(await refusalOf([{ kind: 'file', bytes: new Uint8Array([37, 80, 68, 70]), mediaType: 'application/pdf', filename: 'invoice.pdf' }])).toBe(
      'I read emails, and this message carries only invoice.pdf (application/pdf); send the email itself as a message/rfc822 or .eml file, or its whole text.',
    );
  });

  it('refuses a message with no email in it', async () => {
    expect(await refusalOf([{ kind: 'data', data: { customer: 'x' } }])).toBe(
      'This message carries no email: send one as a message/rfc822 or .eml file, or paste the whole message, headers and body, as text.',
    );
  });

  it('passes on the refusal of text that is not an email', async () => {
    expect(await refusalOf([{ kind: 'text', text: 'Which customer is BW-88213?\n\nThanks.' }])).toBe(
      'This does not look like an email: it has no sender and no subject.',
    );
  });
});
