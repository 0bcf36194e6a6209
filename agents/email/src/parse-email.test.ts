import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { InputRefused } from '@learnables/runtime';
import { LONGEST_TEXT } from './attachment-text.ts';
import { LARGEST_EMAIL, parseEmail } from './parse-email.ts';

const fixture = (name: string) => readFile(new URL(`../../../fixtures/email/${name}`, import.meta.url));
const parseFixture = async (name: string) => parseEmail(await fixture(name));

/** The sentence parseEmail refuses with; fails the test if it reads the input instead. */
async function refusalOf(raw: Uint8Array | string): Promise<string> {
  try {
    await parseEmail(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(InputRefused);
    return (error as InputRefused).message;
  }
  throw new Error('expected a refusal, and the input was read');
}

const simple = ['From: Tom Ashby <t.ashby@brightwell-foods.example>', 'Subject: BW-88213', '', 'Morning'].join('\n');

describe('parseEmail', () => {
  it('reads sender, subject, body, date and message id of a plain message', async () => {
    expect(await parseFixture('brightwell-bw-88213-chilled-pallets.eml')).toMatchObject({
      from: { address: 't.ashby@brightwell-foods.example', name: 'Tom Ashby' },
      subject: 'BW-88213 chilled pallets arriving Thursday',
      body: expect.stringContaining('22 chilled pallets (yoghurt and desserts) on BW-88213'),
      attachments: [],
      date: '2026-10-26T08:02:41.000Z',
      messageId: '<20261026080241.GA3381@brightwell-foods.example>',
    });
  });

  it('gives plain JSON, so the journal can keep it', async () => {
    const email = await parseFixture('northgate-billing-prealert.eml');
    expect(JSON.parse(JSON.stringify(email))).toEqual(email);
  });

  it('reads the same from bytes and from a string', async () => {
    expect(await parseEmail(simple)).toEqual(await parseEmail(new TextEncoder().encode(simple)));
  });

  it('decodes an ISO-8859-1 quoted-printable body and an RFC 2047 display name', async () => {
    const email = await parseFixture('kestrel-latin1-gdp-notice.eml');
    expect(email.from.name).toBe('Jürgen Weiß');
    expect(email.body).toContain('Kühlware, 2-8 °C');
  });

  it('joins an RFC 2047 subject folded over two encoded words', async () => {
    expect((await parseFixture('kestrel-weiss-rfc2047-subject.eml')).subject).toBe('Kühlware KP/2026/0611: Lieferschein und Prüfbericht');
    expect((await parseFixture('berard-rfc2047-latin1-expedition.eml')).subject).toBe('Expédition n° BRV-2026-118 - Château Bérard 2022');
  });

  it('decodes windows-1252: curly quotes, en dash, euro sign', async () => {
    const { body } = await parseFixture('alder-windows-1252-storage-quote.eml');
    expect(body).toContain('The “hazmat” cage must be ADR-compliant – our class 8 drums can’t');
    expect(body).toContain('€ 14,50');
  });

  it('takes the text part of multipart/alternative, not the HTML as well', async () => {
    const { body } = await parseFixture('corvid-returns-rma-alternative.eml');
    expect(body).toContain('RMA batch 7');
    expect(body).not.toMatch(/<div|<p>/i);
    expect(body.match(/RMA batch 7/g)).toHaveLength(1);
  });

  it('turns an HTML-only message into text', async () => {
    const { body } = await parseFixture('lumen-lighting-html-only-collection.eml');
    expect(body).toContain('Order LL-77102');
    expect(body).toContain('09:00–12:00');
    expect(body).not.toContain('<');
  });

  it('lists an inline image by file name, with no text', async () => {
    const email = await parseFixture('harborlane-chen-inline-logo.eml');
    expect(email.attachments).toEqual([{ filename: 'hlt-logo.png', mediaType: 'image/png' }]);
    expect(email.body).toContain('Correction to ASN HLT-40021');
  });

  it('reads the text of a base64 CSV attachment and only the name of a PDF', async () => {
    const csv = await parseFixture('brightwell-weekly-forecast-csv.eml');
    expect(csv.attachments).toEqual([{ filename: 'inbound-forecast-w44-w45.csv', mediaType: 'text/csv', text: expect.stringContaining('BW-882') }]);
    const pdf = await parseFixture('kestrel-qa-coa-pdf.eml');
    expect(pdf.attachments.map((attachment) => attachment.text)).toEqual([undefined, undefined]);
  });

  it('reads a message forwarded as an attachment: its sender, subject and text', async () => {
    const email = await parseFixture('fwd-ops-greystone-rfc822-attached.eml');
    expect(email.from.address).toBe('ops@warehouse.example');
    expect(email.attachments).toHaveLength(1);
    expect(email.attachments[0]).toMatchObject({ filename: 'Call-off order GT-5520.eml', mediaType: 'message/rfc822' });
    expect(email.attachments[0]?.text).toContain('From: Greystone Tools Orders <orders@greystone-tools.example>');
    expect(email.attachments[0]?.text).toContain('Please pick and despatch call-off GT-5520');
  });

  it("reads forwards whose parts, with the message's, stay within the one budget", async () => {
    const email = await parseEmail(forwardsOfParts(10, 60));
    expect(email.attachments).toHaveLength(10);
    expect(email.attachments[9]?.text).toContain('Subject: forward 9');
  });

  it('leaves out a Date it cannot read rather than using today', async () => {
    const email = await parseEmail(['From: a@b.example', 'Subject: s', 'Date: sometime next week', '', 'x'].join('\n'));
    expect(email.date).toBeUndefined();
  });

  it("keeps at most a megabyte of an attachment's text", async () => {
    const big = Buffer.alloc(LONGEST_TEXT + 1000, 'a').toString('base64');
    const raw = [
      'From: a@b.example',
      'Subject: big',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'see attached',
      '--b',
      'Content-Type: text/csv; name="big.csv"',
      'Content-Disposition: attachment; filename="big.csv"',
      'Content-Transfer-Encoding: base64',
      '',
      big,
      '--b--',
    ].join('\n');
    expect((await parseEmail(raw)).attachments[0]?.text).toHaveLength(LONGEST_TEXT);
  });

  it('strips the tags of HTML too long to convert, rather than losing its text', async () => {
    const html = `<html><body><p>Ref NGM/2026/1142</p>${'<td>cell</td>'.repeat(200_000)}</body></html>`;
    const email = await parseEmail(['From: a@b.example', 'Subject: long HTML', 'Content-Type: text/html; charset=utf-8', '', html].join('\n'));
    expect(email.body).toContain('Ref NGM/2026/1142');
    expect(email.body).not.toContain('<');
  });

  it('reads a very large message without hanging', async () => {
    const line = 'NGM/2026/1142 '.repeat(1_500_000);
    const email = await parseEmail(['From: a@b.example', 'Subject: long', '', line].join('\n'));
    expect(email.body).toHaveLength(LONGEST_TEXT);
  });
});

describe('parseEmail refuses, in a sentence', () => {
  it('an empty message', async () => {
    expect(await refusalOf(await fixture('malformed-empty.eml'))).toBe('This email is empty: there is nothing in it to read.');
    expect(await refusalOf(' \r\n\n')).toBe('This email is empty: there is nothing in it to read.');
  });

  it('binary junk with no headers', async () => {
    expect(await refusalOf(await fixture('malformed-garbage-no-headers.eml'))).toBe(
      'This does not look like an email: it has no sender, no subject and no text.',
    );
  });

  it('text with no sender and no subject', async () => {
    expect(await refusalOf('Hello, is this the warehouse?\n\nPlease call me.')).toBe('This does not look like an email: it has no sender and no subject.');
  });

  it('a multipart message whose declared boundary never appears', async () => {
    expect(await refusalOf(await fixture('malformed-broken-mime-truncated.eml'))).toBe(
      'This email is broken: it says its parts are separated by "declared-but-never-used-4f1c", but that boundary never appears, so none of its parts can be read.',
    );
  });

  it('a message larger than 30 MB, saying its size and the limit', async () => {
    expect(await refusalOf(new Uint8Array(LARGEST_EMAIL + 3 * 1024 * 1024))).toBe('This email is 43 MB; the largest I read is 40 MB.');
  });

  it('a message of more parts than it reads', async () => {
    const parts = Array.from({ length: 1200 }, () => ['--b', 'Content-Type: text/plain', '', 'x'].join('\n'));
    const raw = ['From: a@b.example', 'Subject: s', 'Content-Type: multipart/mixed; boundary="b"', '', ...parts, '--b--'].join('\n');
    expect(await refusalOf(raw)).toBe('This email has more than 1,000 parts; I read at most 1,000.');
  });

  it('a message whose forwards together hold more than 1,000 parts, each forward under the limit (issue 15)', async () => {
    const raw = forwardsOfParts(30, 60);
    expect(await refusalOf(raw)).toBe('This email has more than 1,000 parts, counting those of the messages forwarded in it; I read at most 1,000 in all.');
  });

  it('a message with a header block no ordinary email has', async () => {
    const raw = ['From: a@b.example', 'Subject: s', `X-Padding: ${'a'.repeat(2_000_000)}`, '', 'x'].join('\n');
    expect(await refusalOf(raw)).toBe('This email has a header block larger than 1 MB, which no ordinary email has, so I do not read it.');
  });
});

/** A message carrying `forwards` forwarded messages (base64, so their parts are hidden from the outer parse), each of `parts` parts. */
function forwardsOfParts(forwards: number, parts: number): string {
  const forward = (n: number) =>
    [
      'From: f@x.example',
      `Subject: forward ${n}`,
      'Content-Type: multipart/mixed; boundary="in"',
      '',
      ...Array.from({ length: parts }, (_, at) => ['--in', 'Content-Type: text/plain', '', `part ${at}`].join('\n')),
      '--in--',
    ].join('\n');
  const attached = Array.from({ length: forwards }, (_, n) =>
    [
      '--out',
      'Content-Type: message/rfc822',
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="f${n}.eml"`,
      '',
      Buffer.from(forward(n)).toString('base64'),
    ].join('\n'),
  );
  return [
    'From: a@b.example',
    'Subject: s',
    'Content-Type: multipart/mixed; boundary="out"',
    '',
    '--out',
    'Content-Type: text/plain',
    '',
    'see attached',
    ...attached,
    '--out--',
  ].join('\n');
}
