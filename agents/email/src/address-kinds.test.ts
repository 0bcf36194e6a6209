import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { defineCollection } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import type { PinnedDefinitions, Question, Reading } from '@learnables/runtime';
import { pinDefinitions } from '@learnables/runtime';
import { customerMarksKind } from './customer-marks.ts';
import type { CustomerMarks, MarkLesson } from './customer-marks.ts';
import { createEmailAgent } from './email-agent.ts';
import type { EmailResult } from './email-agent.ts';
import type { EmailInput } from './email-input.ts';
import { InternalSenders } from './internal-senders.ts';
import { referencePattern } from './mark-patterns.ts';
import { parseEmail } from './parse-email.ts';

/**
 * Issue 35, class 5: addresses that are not one customer's. A list or group posting for its
 * members, an SRS-rewritten sender and the warehouse's own address are never offered as a mark (nor
 * as the sender of one); a free-mail address is one person's: offered exactly, and once that person
 * has written for two customers, as the sender AND a reference. Fixtures in fixtures/email/addresses.
 */

const fixtures = new URL('../../../fixtures/email/addresses/', import.meta.url);
const eml = async (name: string): Promise<EmailInput> => parseEmail(await readFile(new URL(name, fixtures)));

let seed: Definition<CustomerMarks>;
const pinned = (): PinnedDefinitions => pinDefinitions([{ ...seed, version: 1 }]);

beforeAll(async () => {
  const file = JSON.parse(await readFile(new URL('../../seeds/customers.json', fixtures), 'utf8')) as { entries: Record<string, unknown> };
  seed = defineCollection(
    'customers',
    Object.entries(file.entries).map(([key, state]) => customerMarksKind.fromState(key, state)),
  );
});

function asked(reading: Reading<EmailResult, MarkLesson>): Question<MarkLesson> {
  if (reading.settled) throw new Error(`expected a question, got ${JSON.stringify(reading.result)}`);
  return reading.question;
}

const warehouse = new InternalSenders({ domains: ['warehouse.example'] });

describe('the headers that say who sent a message, as parsed', () => {
  it('keeps List-Id, List-Post, the List-* headers and Reply-To of a group that rewrote the From', async () => {
    expect((await eml('google-group-via-rewrite.eml')).senderFacts).toEqual({
      listId: 'hollis-ops.googlegroups.com',
      listPost: 'hollis-ops@googlegroups.com',
      listHeaders: true,
      replyTo: { address: 'ann.becker@gmail.com', name: 'Ann Becker' },
    });
  });

  it('leaves them out of a message that has none, as tasks journaled before them were', async () => {
    expect(await eml('freemail-person.eml')).not.toHaveProperty('senderFacts');
  });
});

describe("addresses that are not one customer's are never offered as a mark (issue 35, class 5)", () => {
  const cases = [
    ['m365-group-via-rewrite.eml', 'logistics-team@oakridge-group.example', 'OK-55120', 'subject', 'mailing list or group'],
    ['mailing-list-list-post.eml', 'announce@lists.freight-forum.example', 'RN-2026-14', 'subject', 'mailing list or group'],
    ['srs-rewritten-sender.eml', 'SRS0=x7Hk=TT=origin.example=billing@relay.forwardmail.example', 'OB-55121', 'subject', 'rewritten address (SRS)'],
    ['warehouse-own-address.eml', 'dana@ops.warehouse.example', 'VB-2026-0077', 'subject', "the warehouse's own address"],
  ] as const;
  for (const [file, address, reference, where, why] of cases) {
    it(`${file}: not ${address}, alone or as the sender of a pair; the reference ${reference} instead`, async () => {
      const agent = createEmailAgent({ internal: warehouse });
      const question = asked(agent.read(await eml(file), pinned()));
      const escaped = address.toLowerCase().replace(/[.]/g, '\\.');
      expect(question.suggested?.pattern ?? '').not.toContain(escaped);
      expect(question.suggested?.sender).toBeUndefined();
      expect(question.suggested).toEqual({ pattern: referencePattern(reference), where });
      expect(question.question).toContain(why);
    });
  }

  it("a list post rewritten \"via\" the list (the author in Reply-To) is the author's: offered as that person's own address, never the list's", async () => {
    const input = await eml('google-group-via-rewrite.eml');
    const agent = createEmailAgent({ internal: warehouse });
    const question = asked(agent.read(input, pinned()));
    expect(question.suggested).toEqual({ pattern: '<ann\\.becker@gmail\\.com>', where: 'from' });
    expect(question.suggested?.pattern).not.toContain('googlegroups');
    // Once taught, the author's address decides the author's next post through the list.
    const entries = seed.entries.map((entry) =>
      entry.key === 'sable-coffee' ? (entry.learn(entry.readValue({ pattern: '<ann\\.becker@gmail\\.com>', where: 'from' })).next as CustomerMarks) : entry,
    );
    const taught = pinDefinitions([{ ...defineCollection('customers', entries), version: 2 }]);
    const decided = agent.read({ ...input, subject: 'Booking PA-2026-0977' }, taught);
    expect(decided.settled && decided.result.customer).toBe('sable-coffee');
  });

  it('a list post with nothing narrower in it is asked with no suggestion at all', async () => {
    const input = await eml('mailing-list-list-post.eml');
    const question = asked(createEmailAgent().read({ ...input, subject: 'Booking for Thursday', body: 'Please book us in.' }, pinned()));
    expect(question.suggested).toBeUndefined();
  });
});

describe("a free-mail address is one person's (issue 35, class 5)", () => {
  it('offers this person, the exact address, never the free-mail domain', async () => {
    const question = asked(createEmailAgent().read(await eml('freemail-person.eml'), pinned()));
    expect(question.suggested).toEqual({ pattern: '<mia\\.howard77@gmail\\.com>', where: 'from' });
    expect(question.question).toContain('free-mail');
  });

  it('once the person has written for two customers, offers the person AND the reference', async () => {
    const agent = createEmailAgent();
    const input = await eml('freemail-person.eml');
    for (const customer of ['saltmarsh-wines', 'sable-coffee']) {
      const question = asked(agent.read(input, pinned()));
      const answered = agent.answer(input, pinned(), question, { entry: customer });
      if (answered.settled) agent.completed?.(input, answered.result);
    }
    const question = asked(agent.read(input, pinned()));
    expect(question.suggested).toEqual({ pattern: referencePattern('SB-4410'), where: 'subject', sender: '<mia\\.howard77@gmail\\.com>' });
    expect(question.question).toContain('has lately written for');
  });
});
