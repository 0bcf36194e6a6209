// Issue 35, the mixed stream's last open classes, each as the rule that closes it: a third party
// writing about a customer's shipment (a haulier, a forwarder, a portal) is taught as the sender AND
// what it wrote, never its address alone; a list post rewritten "via" the list is its author's; a
// reference shape two customers issue decides for neither; and mail that is nobody's by its own
// headers (a newsletter naming nothing, a look-alike's forward, mail its own domain disowns) is the
// no-customer entry's without asking. Each case here fails on the agent before these rules.
import { describe, expect, it } from 'vitest';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import type { PinnedDefinitions, Question, Reading } from '@learnables/runtime';
import { pinDefinitions } from '@learnables/runtime';
import { CustomerMarks, customerMarksKind } from './customer-marks.ts';
import type { MarkLesson } from './customer-marks.ts';
import { customerDecider } from './customer-finding.ts';
import { createEmailAgent } from './email-agent.ts';
import type { EmailResult } from './email-agent.ts';
import type { EmailInput } from './email-input.ts';
import { InternalSenders } from './internal-senders.ts';
import { referencePattern } from './mark-patterns.ts';
import { bearsName } from './suggest-mark.ts';

const warehouse = new InternalSenders({ domains: ['warehouse.example'] });

const seed = defineCollection('customers', [
  new CustomerMarks('palmera', 'Palmera Apparel S.L.', [{ pattern: '@palmera-apparel\\.example>', where: 'from' }]),
  new CustomerMarks('marigold', 'Marigold Cosmetics', [{ pattern: '@marigold\\.example>', where: 'from' }]),
  new CustomerMarks('quarry-stone', 'Quarry Stone Supplies', [
    { pattern: '@quarrystone\\.example>', where: 'from' },
    { pattern: '\\bQS/\\d{4}/\\d{3,}', where: 'body' },
  ]),
  new CustomerMarks('quayside', 'Quayside Spirits Ltd', []),
  customerMarksKind.fromState('no-customer', { name: "Not a customer's", marks: [], noCustomer: true }),
]);

const pinned = (definition: Definition = seed, version = 1): PinnedDefinitions => pinDefinitions([{ ...definition, version }]);

const teach = (definition: Definition, entry: string, value: MarkLesson): Definition =>
  absorbLesson(definition, { collection: 'customers', entry, value, taughtBy: 'dana', reason: 'the clerk knows' }).definition;

const mail = (overrides: Partial<EmailInput>): EmailInput => ({
  from: { address: 'trafico@transportes-meseta.example', name: 'Tráfico Meseta' },
  subject: 'Recogida PO-566396',
  body: 'Recogida para PO-566396 programada el jueves, 23 palets.\n\nTransportes Meseta S.L.',
  attachments: [],
  ...overrides,
});

function asked(reading: Reading<EmailResult, MarkLesson>): Question<MarkLesson> {
  if (reading.settled) throw new Error(`expected a question, got ${JSON.stringify(reading.result)}`);
  return reading.question;
}

function decided(reading: Reading<EmailResult, MarkLesson>): EmailResult {
  if (!reading.settled) throw new Error(`expected a decision, got the question: ${reading.question.question}`);
  return reading.result;
}

describe('a third party writing about a shipment (class 5, the haulier that writes for several)', () => {
  it("is offered as the sender AND the reference it wrote, so a lesson for one customer never takes the next customer's", () => {
    const agent = createEmailAgent({ internal: warehouse });
    const question = asked(agent.read(mail({}), pinned()));
    expect(question.suggested).toEqual({ pattern: referencePattern('PO-566396'), where: 'subject', sender: '<trafico@transportes-meseta\\.example>' });
    expect(question.question).toContain("bears no customer's name");
    // Taught as offered, for Palmera: the haulier's next message, for another customer, is asked about, not decided for Palmera.
    const taught = teach(seed, 'palmera', question.suggested!);
    const next = mail({ subject: 'Recogida CA-27-97897', body: 'Recogida para CA-27-97897 programada el viernes.' });
    expect(agent.read(next, pinned(taught, 2)).settled).toBe(false);
    // And the same shipment, from the same haulier, is decided.
    expect(decided(agent.read(mail({ body: 'PO-566396: llegada 10:30.' }), pinned(taught, 2))).customer).toBe('palmera');
  });

  it("a customer's own people, at a domain that bears its name, are offered their address alone", () => {
    const question = asked(
      createEmailAgent({ internal: warehouse }).read(mail({ from: { address: 'orders@palmera-apparel.example.net', name: 'Orders' } }), pinned()),
    );
    expect(question.suggested).toEqual({ pattern: '<orders@palmera-apparel\\.example\\.net>', where: 'from' });
  });

  it('reads a name the way domains write it: its distinctive words, or all of them run together, never a legal form or a common word', () => {
    expect(bearsName('palmeraapparel', 'Palmera Apparel S.L.')).toBe(true);
    expect(bearsName('sintbaafs', 'Sint-Baafs Foods NV')).toBe(true);
    expect(bearsName('berardvins', 'Société Bérard Vins SARL')).toBe(true);
    expect(bearsName('tidewatermills', 'Tidewater Paper Mills')).toBe(true);
    expect(bearsName('transportesmeseta', 'Palmera Apparel S.L.')).toBe(false);
    // "Foods" is anyone's word, and a two-letter form says nothing.
    expect(bearsName('nordicfoodslogistics', 'Sint-Baafs Foods NV')).toBe(false);
    expect(bearsName('bvtransport', 'Hendrix Bloembollen BV')).toBe(false);
  });
});

describe('a list post rewritten "via" the list (class 5)', () => {
  const post = mail({
    from: { address: 'benelux-inbound@lists.benelux-inbound.example', name: 'Inkoop Palmera via benelux-inbound' },
    subject: 'Aanmelding',
    body: 'Graag 11 pallets inplannen, onze referentie PA-2027-1284.',
    senderFacts: {
      listId: 'benelux-inbound.lists.benelux-inbound.example',
      listHeaders: true,
      replyTo: { address: 'inkoop@palmera-apparel.example', name: 'Inkoop Palmera' },
    },
  });

  it("is its author's (the Reply-To the list keeps): decided by the author's own address", () => {
    expect(decided(createEmailAgent({ internal: warehouse }).read(post, pinned())).customer).toBe('palmera');
  });

  it('is not, when the Reply-To is the list itself or the display name says no "via"', () => {
    const agent = createEmailAgent({ internal: warehouse });
    expect(agent.read({ ...post, from: { ...post.from, name: 'Inkoop Palmera' } }, pinned()).settled).toBe(false);
    expect(
      agent.read({ ...post, senderFacts: { ...post.senderFacts, replyTo: { address: 'benelux-inbound@lists.benelux-inbound.example', name: '' } } }, pinned())
        .settled,
    ).toBe(false);
  });
});

describe('a reference shape two customers issue (class 6)', () => {
  // Quarry Stone's own logistics desk: its domain bears the name, so the format alone decides its mail.
  const portal = mail({
    from: { address: 'bookings@quarrystone-logistics.example', name: 'Quarry Stone bookings' },
    subject: 'Slot confirmed',
    body: 'Booking QS/2027/4188 confirmed for Thursday.',
  });
  // Quayside's own first booking, taught as the sender AND its reference.
  const quaysideTaught = teach(seed, 'quayside', {
    pattern: referencePattern('QS/2027/4917'),
    where: 'subject',
    sender: '<orders@quayside-spirits\\.example>',
  });

  it("decides by the format while it is one customer's, and asks once another customer's reference has the shape", () => {
    const agent = createEmailAgent({ internal: warehouse });
    expect(decided(agent.read(portal, pinned())).customer).toBe('quarry-stone');
    const question = asked(agent.read(portal, pinned(quaysideTaught, 2)));
    expect(question.question).toContain(
      "QS/2027/4188 has the shape of Quarry Stone Supplies's references, but Quayside Spirits Ltd's reference QS/2027/4917 has it too",
    );
    // The customer's own address still decides its own mail.
    expect(decided(agent.read({ ...portal, from: { address: 'yard@quarrystone.example', name: 'Yard' } }, pinned(quaysideTaught, 2))).customer).toBe(
      'quarry-stone',
    );
  });

  it('preview sees it: the finding left open says why and is flagged contested, and `affects` reaches it', () => {
    const decider = customerDecider(1, warehouse);
    const evidence = decider.evidence(portal);
    const before = decider.findings(evidence, pinned());
    const after = decider.findings(evidence, pinned(quaysideTaught, 2));
    expect(before['customer']).toMatchObject({ settled: true, winner: 'quarry-stone' });
    expect(after['customer']).toMatchObject({ settled: false, contested: true });
    const quaysideBefore = seed.entries.find((entry) => entry.key === 'quayside');
    const quaysideAfter = quaysideTaught.entries.find((entry) => entry.key === 'quayside');
    // The lesson's own mark does not match this message: only the shape rule reaches it.
    expect(decider.affects!('customers', quaysideBefore, quaysideAfter)(evidence)).toBe(true);
  });
});

describe("mail that is nobody's by its own headers (class 2, 3, 4), decided for the no-customer entry without asking", () => {
  const agent = createEmailAgent({ internal: warehouse });

  it('a newsletter (bulk, with list headers) that names no customer and no reference', () => {
    const newsletter = mail({
      from: { address: 'news@cargopulse.example', name: 'Cargo Pulse' },
      subject: 'Cargo Pulse weekly: Red Sea rates ease again',
      body: 'This week in Cargo Pulse\n- Spot rates fall for the third week\nUnsubscribe: https://cargopulse.example/u/81767',
      senderFacts: { listId: 'weekly.cargopulse.example', listHeaders: true },
      headerFacts: { precedence: 'bulk' },
    });
    expect(decided(agent.read(newsletter, pinned()))).toMatchObject({ customer: 'no-customer', noCustomer: true, decidedBy: 'rules' });
    // One that names a customer, or carries a reference, may be a portal's notice for that customer: it asks.
    expect(agent.read({ ...newsletter, subject: 'Marigold Cosmetics opens a new hub' }, pinned()).settled).toBe(false);
    expect(agent.read({ ...newsletter, body: 'Your booking BK-2027-0042 is confirmed.' }, pinned()).settled).toBe(false);
    // A notice without list headers (a portal's Precedence: bulk) still asks.
    expect(agent.read({ ...newsletter, senderFacts: undefined }, pinned()).settled).toBe(false);
  });

  it("a forward by a look-alike of the forwarded sender's domain (a likely impostor)", () => {
    const forged = mail({
      from: { address: 'accounts@marigold.example.secure-invoice.invalid', name: 'Marigold Accounts' },
      subject: 'FW: Inbound PO-425775',
      body: 'Please see below.\n\nFrom: Sophie Hale <sophie.hale@marigold.example>\nSent: Monday\nTo: Intake\nSubject: Inbound PO-425775\n\nPlease book in PO-425775.',
    });
    const result = decided(agent.read(forged, pinned()));
    expect(result).toMatchObject({ customer: 'no-customer', noCustomer: true });
  });

  it("mail whose DMARC failed and whose domain asks for it to be quarantined, as the warehouse's own server reports", () => {
    const spoofed = (server: string, verdict: string) =>
      mail({
        from: { address: 'sophie.hale@marigold.example', name: 'Sophie Hale' },
        subject: 'Inbound booking',
        body: 'Please book in 12 pallets.',
        headerFacts: { authenticationResults: [`${server}; spf=fail smtp.mailfrom=marigold.example; ${verdict} header.from=marigold.example`] },
      });
    expect(decided(agent.read(spoofed('mx1.warehouse.example', 'dmarc=fail action=quarantine'), pinned()))).toMatchObject({ customer: 'no-customer' });
    expect(decided(agent.read(spoofed('mx1.warehouse.example', 'dmarc=fail (p=REJECT sp=REJECT dis=NONE)'), pinned()))).toMatchObject({
      customer: 'no-customer',
    });
    // Another server's word, or a failure whose domain asks nothing (p=none), only makes it ask.
    expect(agent.read(spoofed('mx.elsewhere.example', 'dmarc=fail action=quarantine'), pinned()).settled).toBe(false);
    expect(agent.read(spoofed('mx1.warehouse.example', 'dmarc=fail (p=NONE)'), pinned()).settled).toBe(false);
  });
});

describe("a decision held against the rest of the author's own part (classes 5 and 6, the fresh stream)", () => {
  const agent = createEmailAgent({ internal: warehouse });

  it('a reference format alone decides only mail from a sender tied to its customer: another customer may issue the shape', () => {
    // Quarry Stone's format, written by a new customer's own people from a domain that bears no Quarry Stone name.
    const stranger = mail({
      from: { address: 'k.zielinska@krakowskie-przetwory.example', name: 'Katarzyna' },
      subject: 'Awizacja',
      body: 'Proszę o awizację QS/2027/6148, 12 palet.',
    });
    const question = asked(agent.read(stranger, pinned()));
    expect(question.question).toContain("has the shape of Quarry Stone Supplies's references, but nothing else says this message is theirs");
    // From Quarry Stone's own domain, or a sender a lesson ties to it, the format decides.
    expect(decided(agent.read({ ...stranger, from: { address: 'yard@quarrystone.example', name: 'Yard' } }, pinned())).customer).toBe('quarry-stone');
    const haulier = teach(seed, 'quarry-stone', {
      pattern: referencePattern('QS/2027/1111'),
      where: 'body',
      sender: '<k\\.zielinska@krakowskie-przetwory\\.example>',
    });
    expect(decided(agent.read(stranger, pinned(haulier, 2))).customer).toBe('quarry-stone');
  });

  it('a person taught for one customer who writes that she now works for another is asked about, both named', () => {
    const giulia = teach(seed, 'palmera', { pattern: '<giulia\\.conti77@libero\\.it>', where: 'from' });
    const moved = mail({
      from: { address: 'giulia.conti77@libero.it', name: 'Giulia Conti' },
      subject: 'Ordine',
      body: 'Da questa settimana lavoro per Marigold Cosmetics: 8 pallet per giovedì.',
    });
    const question = asked(agent.read(moved, pinned(giulia, 2)));
    expect(
      question.entries
        .slice(0, 2)
        .map((entry) => entry.key)
        .sort(),
    ).toEqual(['marigold', 'palmera']);
  });
});
