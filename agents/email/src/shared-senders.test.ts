// The trap scenario's rules (issue 19, SPEC §2.3.3–2.3.4), each as the smallest case that shows it:
// a "sender AND reference" mark, a sender that writes about customers by name or was told apart by
// something else than its address, a domain typed without its end, and a customer's name taught to
// another entry. Each test here fails on the agent before these rules.
import { describe, expect, it } from 'vitest';
import { UnlearnableValue, absorbLesson, defineCollection } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import type { PinnedDefinitions, Question, Reading } from '@learnables/runtime';
import { pinDefinitions } from '@learnables/runtime';
import { CustomerMarks, customerMarksKind } from './customer-marks.ts';
import type { MarkLesson } from './customer-marks.ts';
import { createEmailAgent } from './email-agent.ts';
import { NAMES_LOOKED_FOR_IN } from './suggest-mark.ts';
import type { EmailResult } from './email-agent.ts';
import type { EmailInput } from './email-input.ts';
import { matchMarks } from './match-marks.ts';
import { messageFields } from './message-fields.ts';

const definitionOf = (...entries: CustomerMarks[]) => defineCollection('customers', entries);
const pinned = (definition: Definition, version = 1): PinnedDefinitions => pinDefinitions([{ ...definition, version }]);
const teach = (customer: CustomerMarks, value: LessonValue, others: CustomerMarks[] = []) => customer.learn(customer.readValue(value), others);

/** The learnable's refusal: its sentence and the field it is about. */
function refusalOf(attempt: () => unknown): { message: string; field?: string } {
  try {
    attempt();
  } catch (error) {
    if (error instanceof UnlearnableValue) return { message: error.message, ...(error.field !== undefined && { field: error.field }) };
    throw error;
  }
  throw new Error('expected a refusal, and the value was taken');
}

const portal = { address: 'noreply@dockslot-portal.example', name: 'DockSlot Bookings' };
const haulier = { address: 'traffic@swiftline-haulage.example', name: 'Swiftline Traffic' };
const email = (from: EmailInput['from'], subject: string, body: string): EmailInput => ({
  from,
  subject,
  body,
  attachments: [],
  date: '2026-10-06T09:00:00.000Z',
});

const seed = () =>
  definitionOf(
    new CustomerMarks('brightwell-foods', 'Brightwell Foods plc', [
      { pattern: '@brightwell-foods\\.example>', where: 'from' },
      { pattern: '\\bBW-\\d{5}\\b', where: 'subject' },
    ]),
    new CustomerMarks('oakridge-furniture', 'Oakridge Furniture Co.'),
    new CustomerMarks('meridian-medical', 'Meridian Medical Supplies'),
    new CustomerMarks('no-customer', "Not a customer's (newsletters, notices)", [], true),
  );

function asked(reading: Reading<EmailResult, MarkLesson>): Question<MarkLesson> {
  if (reading.settled) throw new Error(`expected a question, got ${reading.result.customer}`);
  return reading.question;
}

/** Teach the question's suggestion to `entry`, exactly as offered, as the authority would. */
function taught(definition: Definition<CustomerMarks>, entry: string, question: Question<MarkLesson>): Definition<CustomerMarks> {
  if (question.suggested === undefined) throw new Error('expected a suggestion');
  const lesson = { collection: 'customers', entry, value: question.suggested as unknown as LessonValue, taughtBy: 'clerk', reason: 'as offered' };
  return absorbLesson(definition, lesson).definition as Definition<CustomerMarks>;
}

describe('a "sender AND reference" mark', () => {
  const oakridge = new CustomerMarks('oakridge-furniture', 'Oakridge Furniture Co.', [
    { pattern: '(?:^|[^0-9a-z])Oakridge\\s+Furniture(?:$|[^0-9a-z])', where: 'body', sender: '<noreply@dockslot-portal\\.example>' },
  ]);

  it('counts only on mail from its sender', () => {
    const definition = definitionOf(
      oakridge,
      new CustomerMarks('no-customer', 'Not a customer', [{ pattern: '<newsletter@freightweek\\.example>', where: 'from' }], true),
    );
    const booking = messageFields(email(portal, '[DockSlot] Booking DO-405916 confirmed', 'Customer: Oakridge Furniture Co.\nCustomer ref: OFC-58729'));
    expect(matchMarks(definition, booking, 1)).toMatchObject({ kind: 'settled', winner: 'oakridge-furniture' });
    // The same name in a newsletter's headline is news, not Oakridge's mail.
    const news = messageFields(
      email({ address: 'newsletter@freightweek.example', name: 'FreightWeek' }, 'FreightWeek #44', 'Oakridge Furniture opens a new hub'),
    );
    expect(matchMarks(definition, news, 1)).toMatchObject({ kind: 'settled', winner: 'no-customer' });
  });

  it('is a lesson the learnable takes, and says so with its sender', () => {
    const value = { pattern: 'OFC-58729', where: 'body', sender: '<noreply@dockslot-portal\\.example>' };
    const { next, changed } = teach(new CustomerMarks('oakridge-furniture', 'Oakridge Furniture Co.'), value);
    expect(changed).toBe(true);
    expect((next as CustomerMarks).marks).toEqual([value]);
    expect((next as CustomerMarks).describes(value as MarkLesson)).toBe(
      "oakridge-furniture learned: matches 'OFC-58729' in the body of mail from '<noreply@dockslot-portal\\.example>'",
    );
    // Blank, as an empty form field sends it: no condition at all.
    expect((teach(new CustomerMarks('x', 'X'), { pattern: 'OFC-58729', where: 'body', sender: ' ' }).next as CustomerMarks).marks).toEqual([
      { pattern: 'OFC-58729', where: 'body' },
    ]);
  });

  it('refuses a sender condition on a mark that already looks at the sender, and one that is not anchored', () => {
    const customer = new CustomerMarks('x', 'X');
    expect(refusalOf(() => customer.readValue({ pattern: '<a@b\\.example>', where: 'from', sender: '<a@b\\.example>' }))).toMatchObject({ field: 'sender' });
    const open = refusalOf(() => customer.readValue({ pattern: 'OFC-1', where: 'body', sender: '@dockslot-portal\\.example' }));
    expect(open).toMatchObject({ field: 'sender' });
    expect(open.message).toContain('dockslot-portal.example-remit.invalid');
  });

  it('refuses a sender condition that is no evidence of a sender, and text that says nothing beside it', () => {
    const customer = new CustomerMarks('x', 'X');
    // Any sender at all: the pair would be the text alone, which must pass the evidence check.
    const anyone = refusalOf(() => customer.readValue({ pattern: '.', where: 'body', sender: '.' }));
    expect(anyone).toEqual({
      field: 'sender',
      message:
        'The sender "." is found even in random characters, so it is no condition on who sent the mail; give the sender\'s address, such as <noreply@portal\\.example>.',
    });
    // Any sender in the usual domains: it claims most mail that is nobody's.
    expect(
      refusalOf(() => customer.readValue({ pattern: 'OFC-1', where: 'body', sender: '\\.(?:com|net|org|io|dev|de|no|ng|jp|uk|example|studio)>' })),
    ).toMatchObject({
      field: 'sender',
      message: expect.stringMatching(
        /^The sender ".*" matches 12 of 16 sample messages that belong to no customer, so it is no condition on who sent the mail/,
      ),
    });
    // A real sender, and text found in any message: the sender alone, said as something else.
    const nothing = refusalOf(() => customer.readValue({ pattern: '.', where: 'any', sender: '<noreply@dockslot-portal\\.example>' }));
    expect(nothing).toEqual({
      field: 'pattern',
      message:
        '"." is found even in random characters, so beside the sender it tells nothing apart; teach the sender as a mark on the from, or give the text that tells this customer\'s mail from that sender apart, such as a reference.',
    });
  });

  it('is held apart from the same text on another sender, and not from the same text on every sender', () => {
    const pair = { pattern: 'OFC-58729', where: 'body', sender: '<noreply@dockslot-portal\\.example>' } as const;
    const other = new CustomerMarks('other', 'Other', [{ ...pair, sender: '<desk@elsewhere\\.example>' }]);
    expect(teach(new CustomerMarks('x', 'X'), pair, [other]).changed).toBe(true);
    const everywhere = new CustomerMarks('other', 'Other', [{ pattern: 'OFC-58729', where: 'body' }]);
    expect(refusalOf(() => teach(new CustomerMarks('x', 'X'), pair, [everywhere])).message).toContain('already a mark of Other');
  });
});

describe('typed at teach time', () => {
  it('refuses a domain without its end, naming the look-alike it would also take, and takes it with >', () => {
    const brightwell = new CustomerMarks('brightwell-foods', 'Brightwell Foods plc');
    const refusal = refusalOf(() => brightwell.readValue({ pattern: '@brightwell-foods\\.example', where: 'from' }));
    expect(refusal).toMatchObject({ field: 'pattern' });
    expect(refusal.message).toContain('accounts@brightwell-foods.example-remit.invalid');
    expect(refusal.message).toContain('end it with >');
    expect(teach(brightwell, { pattern: '@brightwell-foods\\.example>', where: 'from' }).changed).toBe(true);
    // An address too: its own local part stands in the example.
    expect(refusalOf(() => brightwell.readValue({ pattern: 'billing@origin\\.example', where: 'any' })).message).toContain(
      'billing@origin.example-remit.invalid',
    );
  });

  it("refuses another customer's name for this entry, naming whose name it is", () => {
    const oakridge = new CustomerMarks('oakridge-furniture', 'Oakridge Furniture Co.');
    const news = new CustomerMarks('no-customer', "Not a customer's", [], true);
    const name = { pattern: '(?:^|[^0-9a-z])Oakridge\\s+Furniture(?:$|[^0-9a-z])', where: 'subject', sender: '<newsletter@freightweek\\.example>' };
    expect(refusalOf(() => teach(news, name, [oakridge])).message).toMatch(/matches the name of Oakridge Furniture Co\. \(oakridge-furniture\)/);
    // Its own name is its own evidence.
    expect(teach(oakridge, name, [news]).changed).toBe(true);
  });

  it("refuses a seed that gives one customer a mark matching another's name, as it would refuse the lesson", () => {
    const oakridge = new CustomerMarks('oakridge-furniture', 'Oakridge Furniture Co.');
    const haulier = new CustomerMarks('greystone-tools', 'Greystone Tools plc', [{ pattern: 'Oakridge Furniture', where: 'body' }]);
    expect(() => customerMarksKind.checkSeed?.([oakridge, haulier])).toThrow(
      /greystone-tools's mark 'Oakridge Furniture' matches the name of oakridge-furniture/,
    );
    expect(() =>
      customerMarksKind.checkSeed?.([oakridge, new CustomerMarks('greystone-tools', 'Greystone Tools plc', [{ pattern: 'Greystone Tools', where: 'body' }])]),
    ).not.toThrow();
  });
});

describe('a sender that writes about customers', () => {
  it('naming a known customer in its text is offered only with that name, and that customer comes first', () => {
    const agent = createEmailAgent();
    const question = asked(
      agent.read(email(portal, '[DockSlot] Booking DO-405916 confirmed', 'Customer: Oakridge Furniture Co.\nCustomer ref: OFC-58729'), pinned(seed())),
    );
    // Anywhere in its mail: a statement names the customer in its attached CSV.
    expect(question.suggested).toEqual({
      pattern: expect.stringContaining('Oakridge\\s+Furniture'),
      where: 'any',
      sender: '<noreply@dockslot-portal\\.example>',
    });
    expect(question.entries[0]?.key).toBe('oakridge-furniture');
    expect(question.question).toContain('so I suggest Oakridge Furniture in any part of mail from noreply@dockslot-portal.example');
  });

  it('looks for customers’ names in the first 4,096 characters of the subject and of the body only: a question costs the same for a megabyte of body', () => {
    // Every customer's name was looked for through the whole body: 10,000 customers and a 1 MB body held the event loop 9 s.
    const agent = createEmailAgent();
    const filler = 'Slot details follow below. '.repeat(Math.ceil(NAMES_LOOKED_FOR_IN / 27));
    const late = asked(
      agent.read(
        email(portal, '[DockSlot] Booking DO-405917 confirmed', `${filler}\nCustomer: Oakridge Furniture Co.\nCustomer ref: OFC-58730`),
        pinned(seed()),
      ),
    );
    expect(late.suggested?.pattern).not.toContain('Oakridge');
    const early = asked(agent.read(email(portal, '[DockSlot] Booking DO-405918 confirmed', `Customer: Oakridge Furniture Co.\n${filler}`), pinned(seed())));
    expect(early.suggested?.pattern).toContain('Oakridge\\s+Furniture');
  });

  it('is not taught as a plain sender once its mail was told apart by a reference (the haulier of issue 19)', () => {
    const agent = createEmailAgent();
    let definition = seed();
    // Decided by the seed's reference in the subject: the haulier is seen with Brightwell.
    const collection = email(haulier, 'Collection booked BW-88666', 'Vehicle loaded, 17 pallets.');
    // A seed reference format alone, from a haulier nothing ties to Brightwell, asks (issue 35, class 6): answered.
    const first = agent.read(collection, pinned(definition));
    const answered = agent.answer(collection, pinned(definition), asked(first), { entry: 'brightwell-foods' });
    expect(answered.settled && answered.result.customer).toBe('brightwell-foods');
    // The task completes, and the runtime tells the agent so (reading alone remembers nothing).
    if (answered.settled) agent.completed?.(collection, answered.result);
    // The reference in the body: asked. Its address never told its mail apart, so it is not what is offered alone.
    const second = asked(agent.read(email(haulier, 'POD job 725877', 'Signed POD attached.\nConsignee reference: BW-89416'), pinned(definition)));
    expect(second.suggested).toMatchObject({ sender: '<traffic@swiftline-haulage\\.example>' });
    expect(second.suggested?.where).not.toBe('from');
    definition = taught(definition, 'brightwell-foods', second);
    // Meridian's delivery by the same haulier is asked about, not decided as Brightwell's.
    const third = agent.read(email(haulier, 'Delivery ETA job 767250', 'Our driver will be with you Friday.\nCustomer ref: MMS-56647'), pinned(definition, 2));
    expect(third.settled).toBe(false);
  });
});
