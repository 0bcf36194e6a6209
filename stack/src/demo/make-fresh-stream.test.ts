// The fresh stream holds what its generator says: six weeks of about 200-250 emails, every class of
// issue 35 several times among ordinary mail, late customers that write first from their own people,
// nobody's mail only for automated mail and impostors, and mail the parser reads as the stream names it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEmail } from '@learnables/email-agent';
import { afterAll, describe, expect, it } from 'vitest';
import { CUSTOMERS } from './fresh-cast.ts';
import { writeFreshStream } from './make-fresh-stream.ts';

describe('the fresh stream', () => {
  const dir = mkdtempSync(join(tmpdir(), 'learnables-fresh-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const { stream } = writeFreshStream(dir);
  const emails = stream.messages.flatMap((m) => (m.agent === 'email' ? [m] : []));

  it('is six weeks of 200 to 250 emails, the same bytes each time', () => {
    expect(stream.weeks).toBe(6);
    expect(emails.length).toBeGreaterThanOrEqual(200);
    expect(emails.length).toBeLessThanOrEqual(250);
    for (const week of [1, 2, 3, 4, 5, 6]) expect(emails.filter((m) => m.week === week).length).toBeGreaterThan(20);
    const again = mkdtempSync(join(tmpdir(), 'learnables-fresh-again-'));
    try {
      expect(writeFreshStream(again).stream.messages).toEqual(stream.messages);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it('carries classes 1 to 5 and 8 several times, and the customers of classes 6 and 7', () => {
    for (const label of ['class 1:', 'class 2:', 'class 3:', 'class 4:', 'class 5:', 'class 8:']) {
      expect(emails.filter((m) => m.trap?.startsWith(label)).length, label).toBeGreaterThanOrEqual(3);
    }
    // Class 6: shapes shared with a seed mark (KP/, BW-) or between two new customers (SAP 45…); class 7: long prefixed references.
    for (const key of [
      'krakowskie-przetwory',
      'bjorkwall-tra',
      'ferretti-alimentari',
      'conservas-atlantico',
      'tessitura-brembo',
      'mazur-kosmetyki',
      'ostra-hamnen',
    ]) {
      expect(emails.filter((m) => m.truth.entry === key).length, key).toBeGreaterThanOrEqual(3);
    }
  });

  it("names the customers the seed lacks, and says nobody's only for automated mail and impostors", () => {
    for (const m of emails) {
      const nobodys = /^class [234]|digest|newsletter|notice|notification/.test(m.trap ?? '');
      expect(m.truth.none === true, `${m.file}: ${m.trap}`).toBe(nobodys);
      if (m.truth.none) continue;
      const customer = CUSTOMERS.find((c) => c.key === m.truth.entry);
      expect(customer, m.file).toBeDefined();
      expect(m.truth.label).toBe(customer!.seeded ? undefined : customer!.label);
    }
  });

  it("a late customer's first message is its own people's, in its week, before anyone writes for it", () => {
    for (const c of CUSTOMERS.filter((x) => x.arrives > 1)) {
      const first = emails.find((m) => m.truth.entry === c.key);
      expect(first?.week, c.key).toBe(c.arrives);
      expect(first?.trap, c.key).toBe('a new customer’s first message');
      expect(first?.source.endsWith(`@${c.domain}`), c.key).toBe(true);
    }
  });

  it('reads as mail: the parser finds the sender the stream names, a subject and text', async () => {
    for (const m of emails) {
      const email = await parseEmail(readFileSync(join(dir, m.file)));
      expect(email.subject.length, m.file).toBeGreaterThan(0);
      expect(email.body.length, m.file).toBeGreaterThan(0);
      if (!m.trap?.startsWith('class 5: list post')) expect(m.source.split(' ')[0], m.file).toBe(email.from.address);
    }
  });
});
