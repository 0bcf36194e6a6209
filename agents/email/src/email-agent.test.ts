import { describe, expect, it } from 'vitest';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import { DeclarationSchema } from '@learnables/protocol';
import type { PinnedDefinitions, Question, Reading } from '@learnables/runtime';
import { InputRefused, pinDefinitions } from '@learnables/runtime';
import { CustomerMarks, MARK_PLACES } from './customer-marks.ts';
import type { Mark, MarkLesson } from './customer-marks.ts';
import { customerDecider } from './customer-finding.ts';
import { createEmailAgent, emailAgent } from './email-agent.ts';
import type { EmailResult } from './email-agent.ts';
import type { EmailInput } from './email-input.ts';
import { InternalSenders } from './internal-senders.ts';

const customers = (...entries: [string, string, Mark[]][]) =>
  defineCollection(
    'customers',
    entries.map(([key, name, marks]) => new CustomerMarks(key, name, marks)),
  );

const pinned = (definition: Definition, version = 1): PinnedDefinitions => pinDefinitions([{ ...definition, version }]);

const email = (overrides: Partial<EmailInput> = {}): EmailInput => ({
  from: { address: 'billing@origin.example', name: 'Origin Billing' },
  subject: 'Pre-alert and invoice OB-55120',
  body: 'Consignee: Northgate Motors Ltd\nYour reference: NGM/2026/1142',
  attachments: [{ filename: 'OB-55120_invoice.pdf', mediaType: 'application/pdf' }],
  date: '2026-10-13T08:14:22.000Z',
  ...overrides,
});

/**
 * A message that names no customer and no reference in its text: nothing in it says its sender writes
 * for others (a reference from a domain that bears no customer's name would: SPEC §2.3.3).
 */
const plain = (overrides: Partial<EmailInput> = {}): EmailInput =>
  email({
    subject: 'Pre-alert and invoice',
    body: 'Please book in 4 pallets for Thursday.',
    attachments: [{ filename: 'invoice.pdf', mediaType: 'application/pdf' }],
    ...overrides,
  });

/** A sender whose domain bears Northgate's name but holds none of its marks: its reference formats decide its mail. */
const NORTHGATE_DESK = { address: 'desk@northgate-logistics.example', name: '' };

const seed = customers(
  [
    'northgate',
    'Northgate Motors Ltd',
    [
      { pattern: '@northgate-motors\\.example', where: 'from' },
      { pattern: '\\bNGM/\\d{4}/\\d+', where: 'subject' },
    ],
  ],
  ['brightwell-foods', 'Brightwell Foods plc', [{ pattern: '@brightwell-foods\\.example', where: 'from' }]],
  ['pinnacle-audio', 'Pinnacle Audio Ltd', []],
);

function settled(reading: Reading<EmailResult, MarkLesson>): EmailResult {
  if (!reading.settled) throw new Error(`expected a settled reading, got: ${reading.findings.customer?.reads}`);
  return reading.result;
}

function asked(reading: Reading<EmailResult, MarkLesson>): Question<MarkLesson> {
  if (reading.settled) throw new Error(`expected a question, got: ${reading.findings.customer?.reads}`);
  return reading.question;
}

describe('the card', () => {
  it('publishes a declaration the protocol accepts', () => {
    expect(DeclarationSchema.omit({ methods: true }).parse(emailAgent.declaration)).toEqual(emailAgent.declaration);
  });

  it('declares what it keeps and how it can be taught', () => {
    expect(emailAgent.declaration).toMatchObject({
      collection: 'customers',
      entry: 'customer',
      teaches: 'which customer a message belongs to',
      decidedBy: 'rules',
    });
    expect(emailAgent.declaration.lessonFields).toEqual([
      expect.objectContaining({ name: 'pattern', kind: 'text', help: expect.any(String) }),
      expect.objectContaining({ name: 'where', kind: 'choice', choices: [...MARK_PLACES], default: 'from' }),
      expect.objectContaining({ name: 'sender', kind: 'text', help: expect.stringContaining('Optional') }),
    ]);
  });

  // A client author building a pattern by hand reads the help: it must show what the agent itself
  // suggests for a sender, and say the from reads as `<address>` (issue 35: a display name is no evidence).
  it('helps with the pattern as the agent suggests it, saying the from reads as <address>', () => {
    const help = emailAgent.declaration.lessonFields.find((field) => field.name === 'pattern')?.help ?? '';
    const { suggested } = asked(createEmailAgent().read(plain(), pinned(seed)));
    expect(help).toContain(`e.g. ${(suggested as { pattern: string }).pattern}.`);
    expect(help).toContain('The from reads as <address>');
    // Its domain example does what it says: every address at the domain, not a longer domain.
    const domain = /; (\S+) matches the whole domain/.exec(help)?.[1];
    expect(domain).toBe('@origin\\.example>');
    const withDomain = customers(['northgate', 'Northgate Motors Ltd', [{ pattern: domain!, where: 'from' }]], ['pinnacle-audio', 'Pinnacle Audio Ltd', []]);
    expect(settled(emailAgent.read(email({ from: { address: 'desk@origin.example', name: 'Desk' } }), pinned(withDomain))).customer).toBe('northgate');
    asked(emailAgent.read(email({ from: { address: 'desk@origin.example.net', name: 'Desk' } }), pinned(withDomain)));
  });

  it('names itself and its skill, and reads the customers collection', () => {
    expect(emailAgent.name).toBe('Email intake agent');
    expect(emailAgent.skill.id).toBe('identify-customer');
    expect(emailAgent.kinds.map((kind) => kind.collection)).toEqual(['customers']);
  });

  it('refuses a margin that would let a tie settle', () => {
    expect(() => createEmailAgent({ margin: 0 })).toThrow(
      'The margin must be a whole number of points, at least 1, and 0 is not: with less, a tie would settle.',
    );
    expect(() => createEmailAgent({ margin: 1.5 })).toThrow(RangeError);
  });
});

describe('the how sentence, held to what the agent does', () => {
  const { how } = emailAgent.declaration;

  it('names every part a mark can look in, and the margin it is configured with', () => {
    for (const place of MARK_PLACES) expect(how).toContain(place);
    expect(how).toContain('at least 1 point (the margin)');
    expect(createEmailAgent({ margin: 2 }).declaration.how).toContain('at least 2 points (the margin)');
  });

  it('"every customer mark whose pattern matches its part of the message scores": a subject mark does not score in the body', () => {
    expect(how).toMatch(/^Every customer mark whose pattern matches its part of the message/);
    const definition = customers(['northgate', 'Northgate Motors Ltd', [{ pattern: 'NGM/2026/1142', where: 'subject' }]]);
    expect(emailAgent.read(email({ from: { address: '', name: '' }, subject: 'Invoice' }), pinned(definition)).settled).toBe(false);
    expect(settled(emailAgent.read(email({ subject: 'NGM/2026/1142' }), pinned(definition))).customer).toBe('northgate');
  });

  it('"a mark for any looks in all of them": a mark for any scores from an attachment', () => {
    const definition = customers(['northgate', 'Northgate Motors Ltd', [{ pattern: 'OB-55120_invoice', where: 'any' }]]);
    expect(settled(emailAgent.read(email({ subject: '', body: '' }), pinned(definition))).marks).toEqual([
      { pattern: 'OB-55120_invoice', where: 'any', foundIn: 'attachments', text: 'OB-55120_invoice' },
    ]);
  });

  it('"ignoring case": a mark matches whatever the case of the message', () => {
    expect(how).toContain('ignoring case');
    const definition = customers(['northgate', 'Northgate Motors Ltd', [{ pattern: 'billing@origin\\.example', where: 'from' }]]);
    expect(settled(emailAgent.read(email({ from: { address: 'BILLING@ORIGIN.EXAMPLE', name: '' } }), pinned(definition))).customer).toBe('northgate');
  });

  it('"scores one point for its customer, once": a mark matching in every part still scores one', () => {
    expect(how).toContain('scores one point for its customer, once');
    const definition = customers(
      ['origin', 'Origin Forwarding', [{ pattern: 'origin', where: 'any' }]],
      [
        'northgate',
        'Northgate Motors Ltd',
        [
          { pattern: 'Northgate', where: 'body' },
          { pattern: 'NGM/', where: 'body' },
        ],
      ],
    );
    const input = email({
      subject: 'origin',
      body: 'origin: Northgate Motors Ltd, NGM/2026/1142',
      attachments: [{ filename: 'origin.pdf', mediaType: 'application/pdf' }],
    });
    expect(settled(emailAgent.read(input, pinned(definition))).customer).toBe('northgate');
  });

  it('"the customer with the most points wins if it leads the next by at least the margin": 2 to 1 wins by 1, not by 2', () => {
    const definition = customers(
      [
        'northgate',
        'Northgate Motors Ltd',
        [
          { pattern: 'Northgate', where: 'body' },
          { pattern: 'NGM/', where: 'body' },
        ],
      ],
      ['origin', 'Origin Forwarding', [{ pattern: 'origin', where: 'from' }]],
    );
    expect(settled(emailAgent.read(email(), pinned(definition))).customer).toBe('northgate');
    expect(createEmailAgent({ margin: 2 }).read(email(), pinned(definition)).settled).toBe(false);
    const withThird = customers(
      [
        'northgate',
        'Northgate Motors Ltd',
        [
          { pattern: 'Northgate', where: 'body' },
          { pattern: 'NGM/', where: 'body' },
          { pattern: 'OB-', where: 'subject' },
        ],
      ],
      ['origin', 'Origin Forwarding', [{ pattern: 'origin', where: 'from' }]],
    );
    expect(settled(createEmailAgent({ margin: 2 }).read(email(), pinned(withThird))).customer).toBe('northgate');
  });

  // The evidence rule (issue 35): each clause of "only the author's own part counts".
  it('"the from is the sender\'s address alone": a mark on a display name scores nothing', () => {
    expect(how).toContain("only the author's own part counts: the from is the sender's address alone");
    const definition = customers(
      ['kestrel', 'Kestrel Pharma GmbH', [{ pattern: 'Kestrel Pharma', where: 'any' }]],
      ['pinnacle-audio', 'Pinnacle Audio Ltd', []],
    );
    expect(emailAgent.read(plain({ from: { address: 'kestrel.pharma.gmbh@gmail.example', name: 'Kestrel Pharma GmbH' } }), pinned(definition)).settled).toBe(
      false,
    );
  });

  it('"a forward\'s original sender only when one of the warehouse\'s own people forwarded it"', () => {
    expect(how).toContain("a forward's original sender only when one of the warehouse's own people forwarded it");
    const forward = (address: string) =>
      email({
        from: { address, name: 'Ops' },
        subject: 'Fwd: note',
        body: `Book in please.\n\n---------- Forwarded message ---------\nFrom: Northgate <logistics@northgate-motors.example>\nSubject: note\n\nThree crates.`,
      });
    const internal = new InternalSenders({ domains: ['warehouse.example'] });
    expect(settled(createEmailAgent({ internal }).read(forward('ops@warehouse.example'), pinned(seed))).customer).toBe('northgate');
    expect(createEmailAgent({ internal }).read(forward('ops@warehouse-example.example'), pinned(seed)).settled).toBe(false);
    expect(createEmailAgent().read(forward('ops@warehouse.example'), pinned(seed)).settled).toBe(false);
  });

  it('"none when the sender\'s domain fails DMARC, SPF or DKIM"', () => {
    expect(how).toContain("none when the sender's domain fails DMARC, SPF or DKIM");
    const from = { address: 'anna@brightwell-foods.example', name: 'Anna' };
    const results = (verdicts: string) => plain({ from, headerFacts: { authenticationResults: [`mx.warehouse.example; ${verdicts}`] } });
    expect(emailAgent.read(results('dmarc=fail header.from=brightwell-foods.example'), pinned(seed)).settled).toBe(false);
    expect(emailAgent.read(results('spf=fail smtp.mailfrom=anna@brightwell-foods.example; dkim=none'), pinned(seed)).settled).toBe(false);
    expect(emailAgent.read(results('spf=pass smtp.mailfrom=brightwell-foods.example; dkim=fail header.d=brightwell-foods.example'), pinned(seed)).settled).toBe(
      true,
    );
    expect(emailAgent.read(results('dmarc=pass header.from=brightwell-foods.example'), pinned(seed)).settled).toBe(true);
    // Another domain's failure says nothing of this sender.
    expect(emailAgent.read(results('dmarc=fail header.from=elsewhere.example'), pinned(seed)).settled).toBe(true);
  });

  it('"nothing at all in mail forwarded by a sender whose domain imitates the forwarded message\'s"', () => {
    expect(how).toContain("nothing at all in mail forwarded by a sender whose domain imitates the forwarded message's");
    const definition = customers(
      ['northgate', 'Northgate Motors Ltd', [{ pattern: 'Northgate\\s+Motors', where: 'body' }]],
      ['pinnacle-audio', 'Pinnacle Audio Ltd', []],
    );
    const forged = (address: string) =>
      plain({
        from: { address, name: 'Northgate Motors Accounts' },
        subject: 'FW: bank details',
        body: 'Please pay today.\n\nNorthgate Motors Accounts\n\n-----Original Message-----\nFrom: Lee <logistics@northgate-motors.example>\nSubject: bank details\n\nnew IBAN',
      });
    expect(emailAgent.read(forged('accounts@northgate-motors.example.pay-portal.invalid'), pinned(definition)).settled).toBe(false);
    // The same words from a sender that imitates nobody decide.
    expect(settled(emailAgent.read(forged('accounts@haulier.example'), pinned(definition))).customer).toBe('northgate');
  });

  it('"the body is the new text without quoted history"', () => {
    expect(how).toContain('the body is the new text without quoted history');
    const definition = customers(
      ['northgate', 'Northgate Motors Ltd', [{ pattern: 'NGM/2026/1142', where: 'body' }]],
      ['pinnacle-audio', 'Pinnacle Audio Ltd', []],
    );
    const quoted = plain({
      from: { address: 'desk@haulier.example', name: '' },
      subject: 'Re: slots',
      body: 'Thursday works.\n\nOn Tue, 27 Oct 2026 at 16:02, Intake <intake@warehouse.example> wrote:\n> Bay 2 for NGM/2026/1142.',
    });
    expect(emailAgent.read(quoted, pinned(definition)).settled).toBe(false);
    const outlook = {
      ...quoted,
      body: 'Thursday works.\n\nFrom: Intake <intake@warehouse.example>\nSent: Tuesday\nSubject: slots\n\nBay 2 for NGM/2026/1142.',
    };
    expect(emailAgent.read(outlook, pinned(definition)).settled).toBe(false);
    // (From a sender tied to Northgate: a reference format alone decides only such a sender's mail.)
    expect(
      settled(emailAgent.read({ ...quoted, from: NORTHGATE_DESK, body: `Thursday works for NGM/2026/1142.\n${quoted.body}` }, pinned(definition))).customer,
    ).toBe('northgate');
  });

  it("\"the subject and a forwarded message count only when they are the author's (not an automatic reply's, nor a reply's, … nor a forward by anyone else)\"", () => {
    expect(how).toContain(
      "the subject and a forwarded message count only when they are the author's (not an automatic reply's, nor a reply's, which repeats the subject it answers, nor a forward by anyone else)",
    );
    const from = { address: 'desk@haulier.example', name: '' };
    expect(emailAgent.read(plain({ from, subject: 'Automatic reply: NGM/2026/1142' }), pinned(seed)).settled).toBe(false);
    expect(
      emailAgent.read(
        plain({ from, subject: 'FW: NGM/2026/1142', body: 'see below\n\n-----Original Message-----\nFrom: A <a@b.example>\nSubject: NGM/2026/1142\n\nhi' }),
        pinned(seed),
      ).settled,
    ).toBe(false);
    const attached = plain({
      from,
      subject: 'see attached',
      attachments: [{ filename: 'fwd.eml', mediaType: 'message/rfc822', text: 'From: <a@b.example>\nSubject: x\n\nKP/2026/4410' }],
    });
    const kestrel = customers(
      ['kestrel', 'Kestrel Pharma GmbH', [{ pattern: 'KP/2026/4410', where: 'attachments' }]],
      ['pinnacle-audio', 'Pinnacle Audio Ltd', []],
    );
    expect(emailAgent.read(attached, pinned(kestrel)).settled).toBe(false);
    // A reply's subject is the message it answers (a haulier's reply on another customer's thread): quoted, in any language.
    for (const subject of [
      'Re: NGM/2026/1142',
      'RE : NGM/2026/1142',
      'AW: NGM/2026/1142',
      'SV: NGM/2026/1142',
      'Antw: NGM/2026/1142',
      'R: NGM/2026/1142',
      'Réf. : NGM/2026/1142',
      '[#4411] Re: NGM/2026/1142',
    ]) {
      expect(emailAgent.read(plain({ from, subject }), pinned(seed)).settled, subject).toBe(false);
    }
    expect(settled(emailAgent.read(plain({ from: NORTHGATE_DESK, subject: 'NGM/2026/1142 booked' }), pinned(seed))).customer).toBe('northgate');
    expect(settled(emailAgent.read(plain({ from: NORTHGATE_DESK, subject: 'Request: NGM/2026/1142' }), pinned(seed))).customer).toBe('northgate');
    // From a haulier nothing ties to Northgate, the format alone asks (another customer may issue the shape).
    expect(emailAgent.read(plain({ from, subject: 'NGM/2026/1142 booked' }), pinned(seed)).settled).toBe(false);
  });

  it('"a reference format alone decides only mail whose sender … was taught for it", and "a free-mail sender … naming another customer asks"', () => {
    expect(how).toContain(
      "a reference format alone decides only mail whose sender's domain bears its customer's name or was taught for it, and never once another customer's taught reference has its shape; a decision a free-mail sender contradicts by naming another customer asks;",
    );
    const haulier = { address: 'desk@haulier.example', name: '' };
    expect(emailAgent.read(plain({ from: haulier, subject: 'NGM/2026/1142 booked' }), pinned(seed)).settled).toBe(false);
    expect(settled(emailAgent.read(plain({ from: NORTHGATE_DESK, subject: 'NGM/2026/1142 booked' }), pinned(seed))).customer).toBe('northgate');
    const taught = customers(
      [
        'northgate',
        'Northgate Motors Ltd',
        [
          { pattern: '\\bNGM/\\d{4}/\\d+', where: 'subject' },
          { pattern: 'NGM/2026/0001', where: 'subject', sender: '<desk@haulier\\.example>' },
        ],
      ],
      ['brightwell-foods', 'Brightwell Foods plc', []],
    );
    expect(settled(emailAgent.read(plain({ from: haulier, subject: 'NGM/2026/1142 booked' }), pinned(taught))).customer).toBe('northgate');
    // A company's desk names its consignees; a free-mail person who names another customer may have moved.
    expect(
      settled(emailAgent.read(plain({ from: NORTHGATE_DESK, subject: 'NGM/2026/1142 booked', body: 'Consignee: Brightwell Foods.' }), pinned(seed))).customer,
    ).toBe('northgate');
    const person = customers(
      ['northgate', 'Northgate Motors Ltd', [{ pattern: '<ann\\.lee@gmail\\.com>', where: 'from' }]],
      ['brightwell-foods', 'Brightwell Foods plc', []],
    );
    expect(
      emailAgent.read(plain({ from: { address: 'ann.lee@gmail.com', name: 'Ann' }, body: 'I work for Brightwell Foods now.' }), pinned(person)).settled,
    ).toBe(false);
  });

  it('"on automated mail only a mark with a sender condition, or a mark of mail that is no customer\'s, scores"', () => {
    expect(how).toContain(
      "on automated mail (automatic replies, delivery reports, notices) only a mark with a sender condition, or a mark of mail that is no customer's, scores,",
    );
    const auto = plain({ from: { address: 'anna@brightwell-foods.example', name: 'Anna' }, subject: 'Away', headerFacts: { autoSubmitted: 'auto-replied' } });
    expect(emailAgent.read(auto, pinned(seed)).settled).toBe(false);
    expect(emailAgent.read({ ...auto, headerFacts: { precedence: 'bulk' } }, pinned(seed)).settled).toBe(false);
    expect(settled(emailAgent.read({ ...auto, headerFacts: undefined }, pinned(seed))).customer).toBe('brightwell-foods');
    const paired = customers(
      ['brightwell-foods', 'Brightwell Foods plc', [{ pattern: 'pallets', where: 'body', sender: '<anna@brightwell-foods\\.example>' }]],
      ['pinnacle-audio', 'Pinnacle Audio Ltd', []],
    );
    expect(settled(emailAgent.read(auto, pinned(paired))).customer).toBe('brightwell-foods');
    const nobody = defineCollection('customers', [
      new CustomerMarks('brightwell-foods', 'Brightwell Foods plc', [{ pattern: '@brightwell-foods\\.example>', where: 'from' }]),
      new CustomerMarks('none', 'Nobody', [{ pattern: 'pallets', where: 'body' }], true),
    ]);
    expect(settled(emailAgent.read(auto, pinned(nobody))).customer).toBe('none');
  });

  it('"an automatic reply or a delivery report that none matches is the entry for mail that is no customer\'s, when there is one (a notice asks)"', () => {
    expect(how).toContain(
      "an automatic reply or a delivery report that none matches is the entry for mail that is no customer's, when there is one (a notice asks)",
    );
    const entries = (...more: CustomerMarks[]) =>
      defineCollection('customers', [
        new CustomerMarks('brightwell-foods', 'Brightwell Foods plc', [{ pattern: '@brightwell-foods\\.example>', where: 'from' }]),
        ...more,
      ]);
    const withNone = entries(new CustomerMarks('none', 'Nobody', [], true));
    const from = { address: 'anna@brightwell-foods.example', name: 'Anna' };
    const away = plain({ from, subject: 'Out of Office: pallets', headerFacts: { autoSubmitted: 'auto-replied' } });
    const bounce = plain({ from: { address: 'MAILER-DAEMON@mx.brightwell-foods.example', name: '' }, subject: 'Undelivered Mail Returned to Sender' });
    const notice = plain({ from, subject: 'Your booking', headerFacts: { autoSubmitted: 'auto-generated' } });
    const reading = emailAgent.read(away, pinned(withNone));
    expect(settled(reading).customer).toBe('none');
    expect(settled(reading).noCustomer).toBe(true);
    expect(reading.findings.customer).toMatchObject({
      settled: true,
      winner: 'none',
      reads: expect.stringMatching(/^Reads as Nobody: this is an automatic reply .*no customer's unless a lesson says so$/),
    });
    expect(settled(emailAgent.read(bounce, pinned(withNone))).customer).toBe('none');
    // A notice may be a portal's, for a customer: it asks. Without an entry for nobody's mail, all three ask.
    expect(emailAgent.read(notice, pinned(withNone)).settled).toBe(false);
    for (const message of [away, bounce, notice]) expect(emailAgent.read(message, pinned(entries())).settled).toBe(false);
    // A lesson on the sender's automatic replies still decides them for its customer.
    const taught = entries(new CustomerMarks('none', 'Nobody', [], true)).entries.map((entry) =>
      entry.key === 'brightwell-foods'
        ? new CustomerMarks(entry.key, entry.name, [{ pattern: 'pallets', where: 'body', sender: '<anna@brightwell-foods\\.example>' }])
        : entry,
    );
    expect(settled(emailAgent.read(away, pinned(defineCollection('customers', taught)))).customer).toBe('brightwell-foods');
    // Preview decides alike, and counts a change to the entry for nobody's mail as affecting them.
    const decider = customerDecider(1);
    for (const message of [away, bounce, notice]) {
      expect(decider.findings(decider.evidence(message), pinned(withNone)).customer).toEqual(emailAgent.read(message, pinned(withNone)).findings.customer);
    }
    const affects = decider.affects!('customers', undefined, new CustomerMarks('none', 'Nobody', [], true));
    expect([away, bounce, notice].map((message) => affects(decider.evidence(message)))).toEqual([true, true, false]);
  });

  it('"if no mark matches, I ask"', () => {
    const reading = createEmailAgent().read(
      plain(),
      pinned(customers(['brightwell-foods', 'Brightwell Foods plc', [{ pattern: '@brightwell-foods\\.example>', where: 'from' }]])),
    );
    expect(reading.findings.customer).toEqual({ settled: false, reads: 'Still cannot tell whose this is.', collection: 'customers' });
    expect(asked(reading).question).toBe('Which customer does this message belong to?');
  });

  it('"or no customer leads by that much, I ask": a tie asks, naming the contenders', () => {
    const definition = customers(
      ['pinnacle-audio', 'Pinnacle Audio Ltd', []],
      ['northgate', 'Northgate Motors Ltd', [{ pattern: 'NGM/', where: 'body' }]],
      ['origin', 'Origin Forwarding', [{ pattern: 'origin', where: 'from' }]],
    );
    const reading = emailAgent.read(email(), pinned(definition));
    expect(reading.findings.customer?.reads).toBe('Could be Northgate Motors Ltd or Origin Forwarding; the marks do not tell them apart.');
    const question = asked(reading);
    expect(question.question).toMatch(/^Which customer does this message belong to: Northgate Motors Ltd or Origin Forwarding\?/);
    // The sender ties them, so it is not what the question offers to teach; the consignee's name is.
    expect(question.question).toContain(
      'billing@origin.example is already a mark of Origin Forwarding, so I suggest Northgate Motors in any part of mail from billing@origin.example',
    );
    expect(question.suggested).toEqual({ pattern: expect.stringContaining('Northgate\\s+Motors'), where: 'any', sender: '<billing@origin\\.example>' });
    expect(question.entries.map((entry) => entry.key)).toEqual(['northgate', 'origin', 'pinnacle-audio']);
  });
});

describe('emailAgent.read', () => {
  const taught = customers(['northgate', 'Northgate Motors Ltd', [{ pattern: 'billing@origin\\.example', where: 'from' }]]);

  it('settles on the customer whose mark matched, saying which mark', () => {
    const reading = emailAgent.read(email(), pinned(taught, 4));
    expect(reading.findings).toEqual({
      customer: { settled: true, winner: 'northgate', reads: 'Reads as Northgate Motors Ltd, on billing@origin.example', collection: 'customers' },
    });
    expect(settled(reading)).toEqual({
      customer: 'northgate',
      customerName: 'Northgate Motors Ltd',
      decidedBy: 'rules',
      marks: [{ pattern: 'billing@origin\\.example', where: 'from', foundIn: 'from', text: 'billing@origin.example' }],
      version: 4,
    });
  });

  it('asks about every customer, suggesting the exact sender', () => {
    const question = asked(createEmailAgent().read(plain(), pinned(seed)));
    expect(question).toEqual({
      collection: 'customers',
      question: 'Which customer does this message belong to?',
      entries: [
        { key: 'northgate', label: 'Northgate Motors Ltd' },
        { key: 'brightwell-foods', label: 'Brightwell Foods plc' },
        { key: 'pinnacle-audio', label: 'Pinnacle Audio Ltd' },
      ],
      suggested: { pattern: '<billing@origin\\.example>', where: 'from' },
    });
  });

  it('suggests a lesson that, once taught, settles this sender and no lookalike', () => {
    const { suggested } = asked(createEmailAgent().read(plain(), pinned(seed)));
    if (suggested === undefined) throw new Error('expected a suggestion');
    const lesson = { collection: 'customers', entry: 'northgate', value: suggested, taughtBy: 'dana', reason: 'Origin bills for Northgate' };
    const { definition, changed } = absorbLesson(seed, lesson);
    expect(changed).toBe(true);
    expect(settled(emailAgent.read(email({ subject: 'Statement', body: '' }), pinned(definition, 2))).customer).toBe('northgate');
    for (const address of ['accounts@origin.example', 'billing@origin-example.example', 'ebilling@origin.example']) {
      expect(emailAgent.read(email({ from: { address, name: 'Origin Billing' }, subject: 'x', body: '' }), pinned(definition, 2)).settled, address).toBe(false);
    }
  });

  it('suggests the first reference, where it was found, when there is no sender', () => {
    const question = asked(
      emailAgent.read(email({ from: { address: '', name: '' }, subject: 'Pre-alert PA-2026-0901', body: 'Your reference: NGM/2026/1142' }), pinned(seed)),
    );
    expect(question.suggested).toEqual({
      pattern: '(?:^[-/]?|[^0-9a-z/-]|[^0-9a-z][-/]|(?-i:[a-z])[-/])PA-2026-0901(?:$|[^0-9a-z/-]|[-/](?:$|[^0-9a-z])|[-/](?-i:[a-z]|[A-Z][a-z]))',
      where: 'subject',
    });
  });

  it('reads an input back from the journal exactly as it read it the first time', () => {
    const input = email({ from: { address: 'j.parry@northgate-motors.example', name: 'Jenny Parry' } });
    const first = emailAgent.read(input, pinned(seed));
    expect(emailAgent.read(JSON.parse(JSON.stringify(input)) as EmailInput, pinned(seed))).toEqual(first);
  });

  it('says plainly when the task has no customers pinned', () => {
    expect(() => emailAgent.read(email(), pinDefinitions([]))).toThrow(
      'This task is not pinned to "customers" (it reads nothing); list its kind in the agent\'s kinds.',
    );
  });
});

describe('emailAgent.answer', () => {
  const question = (): Question<MarkLesson> => asked(emailAgent.read(email(), pinned(seed)));

  it("settles on the operator's customer and says so", () => {
    const reading = emailAgent.answer(email(), pinned(seed, 3), question(), { entry: 'northgate' });
    expect(reading.findings.customer).toEqual({
      settled: true,
      winner: 'northgate',
      reads: 'Northgate Motors Ltd, as the operator answered',
      collection: 'customers',
    });
    expect(settled(reading)).toEqual({ customer: 'northgate', customerName: 'Northgate Motors Ltd', decidedBy: 'operator', marks: [], version: 3 });
  });

  it('credits the person who answered, when the client names them', () => {
    const reading = emailAgent.answer(email(), pinned(seed), question(), { entry: 'pinnacle-audio', answeredBy: 'dana' });
    expect(reading.findings.customer?.reads).toBe('Pinnacle Audio Ltd, as dana answered');
    expect(settled(reading)).toMatchObject({ customer: 'pinnacle-audio', answeredBy: 'dana' });
  });

  it('refuses an answer that names no customer, in a sentence', () => {
    expect(() => emailAgent.answer(email(), pinned(seed), question(), { entry: 'acme' })).toThrow(
      new InputRefused('"acme" is not one of the customers; the answer must be one of: Northgate Motors Ltd, Brightwell Foods plc, Pinnacle Audio Ltd.'),
    );
  });
});

describe('emailAgent, around the reading', () => {
  it('dates a message by its Date header, and leaves an undated one undated', () => {
    expect(emailAgent.dateOf?.(email())).toEqual(new Date('2026-10-13T08:14:22.000Z'));
    const { date: _date, ...undated } = email();
    expect(emailAgent.dateOf?.(undated)).toBeUndefined();
  });

  it('summarizes sender, subject and the start of the body', () => {
    const summary = emailAgent.summarize?.(email({ body: `Good morning,\n\n${'pallets '.repeat(60)}` }));
    expect(summary).toMatchObject({ from: 'Origin Billing <billing@origin.example>', subject: 'Pre-alert and invoice OB-55120' });
    const excerpt = String(summary?.excerpt);
    expect(excerpt.startsWith('Good morning, pallets pallets')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(201);
    expect(excerpt.endsWith('pallets…')).toBe(true);
  });

  it('parses a message/rfc822 part into the input it reads', async () => {
    const raw = 'From: Jenny Parry <j.parry@northgate-motors.example>\nSubject: Where is our pallet?\nDate: Thu, 22 Oct 2026 14:31:56 +0100\n\nNGM/2026/1142';
    const input = await emailAgent.parse([{ kind: 'file', bytes: new TextEncoder().encode(raw), mediaType: 'message/rfc822' }]);
    expect(settled(emailAgent.read(input, pinned(seed))).customer).toBe('northgate');
  });
});

describe('a shared sender', () => {
  it('is not offered once it was decided for two customers; the question says why and offers the reference', () => {
    const agent = createEmailAgent();
    const portal = (subject: string) =>
      email({ from: { address: 'desk@freight-portal.example', name: 'Freight Portal' }, subject, body: 'see booking', attachments: [] });
    const first = asked(agent.read(portal('Booking OB-10001'), pinned(seed)));
    // A portal's domain bears no customer's name: its first message is offered as the sender AND its reference (SPEC §2.3.3).
    expect(first.suggested).toEqual({ pattern: expect.stringContaining('OB-10001'), where: 'subject', sender: '<desk@freight-portal\\.example>' });
    expect(first.question).toContain("desk@freight-portal.example is at a domain that bears no customer's name");
    // As the runtime does: an answered task completes, and only then is the agent told of it.
    const complete = (input: EmailInput, reading: Reading<EmailResult, MarkLesson>) => {
      if (reading.settled) agent.completed?.(input, reading.result);
    };
    complete(portal('Booking OB-10001'), agent.answer(portal('Booking OB-10001'), pinned(seed), first, { entry: 'pinnacle-audio' }));
    const second = asked(agent.read(portal('Booking OB-10002'), pinned(seed)));
    // Reading, answering and rereading without completing remember nothing (issue 35, class 10).
    agent.answer(portal('Booking OB-10002'), pinned(seed), second, { entry: 'northgate' });
    expect(asked(agent.read(portal('Booking OB-10002'), pinned(seed))).question).toBe(second.question);
    complete(portal('Booking OB-10002'), agent.answer(portal('Booking OB-10002'), pinned(seed), second, { entry: 'brightwell-foods' }));
    const third = asked(agent.read(portal('Booking OB-10003'), pinned(seed)));
    expect(third.suggested).toEqual({ pattern: expect.stringContaining('OB-10003'), where: 'subject', sender: '<desk@freight-portal\\.example>' });
    expect(third.question).toMatch(
      /^Which customer does this message belong to\? desk@freight-portal\.example has lately written for Brightwell Foods plc and Pinnacle Audio Ltd, so I suggest OB-10003 in the subject of mail from desk@freight-portal\.example/,
    );
  });

  it('already a mark of one customer is not offered for another', () => {
    const held = customers(
      ['northgate', 'Northgate Motors Ltd', [{ pattern: '<billing@origin\\.example>', where: 'from' }]],
      ['origin', 'Origin Forwarding', [{ pattern: '<billing@origin\\.example>', where: 'from' }]],
    );
    const question = asked(createEmailAgent().read(email(), pinned(held)));
    expect(question.suggested?.pattern).not.toBe('<billing@origin\\.example>');
    expect(question.question).toContain('already a mark of Northgate Motors Ltd and Origin Forwarding');
  });
});
