// The mixed stream of issue 35 holds what the docs say it holds: every class of the issue, mail
// the parser reads as the sender wrote it, late customers that introduce themselves first, and a
// ground truth the trusting operator can answer from.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEmail } from '@learnables/email-agent';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMixedStream } from './make-mixed-stream.ts';
import { CUSTOMERS } from './mixed-cast.ts';

describe('the mixed stream (issue 35)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'learnables-mixed-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const { stream } = writeMixedStream(dir);
  const emails = stream.messages.flatMap((m) => (m.agent === 'email' ? [m] : []));

  it('is six weeks of about 200 emails, every one of them in its week', () => {
    expect(stream.weeks).toBe(6);
    expect(emails.length).toBeGreaterThan(190);
    expect(emails.length).toBeLessThan(250);
    for (const week of [1, 2, 3, 4, 5, 6]) expect(emails.filter((m) => m.week === week).length).toBeGreaterThan(25);
  });

  it('carries every class of the issue, and the old ones', () => {
    const traps = emails.map((m) => m.trap ?? '');
    for (const label of [
      'class 1:',
      'class 2: out-of-office (Auto-Submitted',
      'class 2: out-of-office (X-Autoreply',
      'class 2: out-of-office with no',
      'class 2: ticket',
      'class 2: Exchange',
      'class 2: Postfix',
      'class 3:',
      'class 4: display-name',
      'class 4: ',
      'DMARC',
      'class 5: free-mail',
      'class 5: list post',
      'class 5: SRS',
      'class 5: the mailing list',
      "forward by the warehouse's own staff",
      'portal',
      'newsletter',
    ]) {
      expect(
        traps.some((t) => (label === 'DMARC' ? t.includes(label) : t.startsWith(label))),
        label,
      ).toBe(true);
    }
    // Class 6 and 7 are in the references: Quayside's QS/ and the prefixed ones.
    expect(emails.some((m) => m.truth.entry === 'quayside-spirits')).toBe(true);
    expect(emails.some((m) => m.truth.entry === 'kaufhaus-falkner')).toBe(true);
  });

  it("says nobody's for automated mail and impostors, and names the customers the seed lacks", () => {
    for (const m of emails) {
      const automated = /^class [234]|mailing list’s own|newsletter|notice|sales/.test(m.trap ?? '');
      expect(m.truth.none === true, `${m.file}: ${m.trap}`).toBe(automated);
      const customer = CUSTOMERS.find((c) => c.key === m.truth.entry);
      if (!m.truth.none) expect(customer, m.file).toBeDefined();
      if (customer) expect(m.truth.label).toBe(customer.seeded ? undefined : customer.label);
    }
  });

  it("a late customer's first message is its own people's, before anyone else writes for it", () => {
    for (const customer of CUSTOMERS.filter((c) => c.arrives > 1)) {
      const first = emails.find((m) => m.truth.entry === customer.key);
      expect(first?.week, customer.key).toBe(customer.arrives);
      expect(first?.trap, customer.key).toBe('a new customer’s first message');
    }
  });

  it('reads as mail: the parser finds the sender the stream names, a subject and text', async () => {
    for (const m of emails) {
      const email = await parseEmail(readFileSync(join(dir, m.file)));
      expect(email.subject.length, m.file).toBeGreaterThan(0);
      expect(email.body.length, m.file).toBeGreaterThan(0);
      expect(m.source.split(' ')[0], m.file).toBe(email.from.address);
    }
  });
});
