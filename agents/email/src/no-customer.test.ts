// Mail that is no customer's (a weekly newsletter, a maintenance notice) can be taught once like
// any other, so it stops asking; a message decided for it never counts as a customer's.
import { describe, expect, it } from 'vitest';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import type { PinnedDefinitions, Reading } from '@learnables/runtime';
import { pinDefinitions } from '@learnables/runtime';
import { CustomerMarks, customerMarksKind } from './customer-marks.ts';
import { createEmailAgent } from './email-agent.ts';
import type { EmailResult } from './email-agent.ts';
import type { EmailInput } from './email-input.ts';

const definition = defineCollection('customers', [
  new CustomerMarks('northgate', 'Northgate Motors Ltd', [{ pattern: '@northgate-motors\\.example>', where: 'from' }]),
  customerMarksKind.fromState('no-customer', { name: "Not a customer's (newsletters, notices)", marks: [], noCustomer: true }),
]);
const pinned = (version: number, def = definition): PinnedDefinitions => pinDefinitions([{ ...def, version }]);

const newsletter: EmailInput = {
  from: { address: 'news@freight-weekly.example', name: 'Freight Weekly' },
  subject: 'Freight Weekly #41: rates, ports, people',
  body: 'This week in freight…\n\nUnsubscribe: https://freight-weekly.example/u',
  attachments: [],
};

function result(reading: Reading<EmailResult>): EmailResult {
  if (!reading.settled) throw new Error('expected a decision');
  return reading.result;
}

describe("nobody's mail", () => {
  it("is asked about once, taught like any entry, and then decided as no customer's", () => {
    const agent = createEmailAgent();
    const first = agent.read(newsletter, pinned(1));
    if (first.settled) throw new Error('expected a question');
    expect(first.question.entries.map((entry) => entry.key)).toContain('no-customer');
    const answered = result(agent.answer(newsletter, pinned(1), first.question, { entry: 'no-customer' }));
    expect(answered).toMatchObject({ customer: 'no-customer', noCustomer: true, decidedBy: 'operator' });

    const taught = absorbLesson(definition, {
      collection: 'customers',
      entry: 'no-customer',
      value: first.question.suggested ?? {},
      taughtBy: 'dana',
      reason: 'a newsletter',
    });
    expect(taught.changed).toBe(true);
    const next = result(agent.read({ ...newsletter, subject: 'Freight Weekly #42' }, pinned(2, taught.definition)));
    expect(next).toMatchObject({ customer: 'no-customer', noCustomer: true, decidedBy: 'rules' });
  });

  it("a customer's decision never says noCustomer", () => {
    const reading = createEmailAgent().read({ ...newsletter, from: { address: 'ops@northgate-motors.example', name: 'Ops' } }, pinned(1));
    expect(result(reading).customer).toBe('northgate');
    expect(result(reading).noCustomer).toBeUndefined();
  });

  it('keeps what it is through storage and lessons', () => {
    const entry = definition.entries[1] as CustomerMarks;
    expect(entry.toState()).toEqual({ name: "Not a customer's (newsletters, notices)", marks: [], noCustomer: true });
    const next = entry.learn(entry.readValue({ pattern: '<news@freight-weekly\\.example>', where: 'from' })).next as CustomerMarks;
    expect(next.noCustomer).toBe(true);
    expect(customerMarksKind.fromState('no-customer', next.toState()).noCustomer).toBe(true);
    expect((definition.entries[0] as CustomerMarks).toState()).not.toHaveProperty('noCustomer');
  });
});
