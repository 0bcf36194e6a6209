import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCollection } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import { CustomerMarks, MARK_PLACES, compileMark, sameMark } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import { escapePattern, senderPattern } from './mark-patterns.ts';
import { setMarksPerShard } from './match-marks.ts';
import { senderLine } from './message-fields.ts';
import { heldBy, holdersOf, suggestEvidence } from './suggest-mark.ts';

// A suggestion asks, for every message no mark settles, which customers already hold its sender.
// It used to try every customer's from marks one by one, compiling each (300 ms a question at
// 10,000 marks); it now asks the version's compiled sets and an index of marks by pattern. These
// tests hold the quick way to the old one, written out here as it was.

/** The plain way: each customer's marks in the from (or any), compiled and tried in turn. */
function plainHolders(from: string, customers: readonly CustomerMarks[]): CustomerMarks[] {
  const test = (pattern: string) => {
    try {
      return compileMark(pattern).test(from);
    } catch {
      return false;
    }
  };
  // A mark with a sender condition is no mark of the from alone.
  return customers.filter((customer) =>
    customer.marks.some((mark) => mark.sender === undefined && (mark.where === 'from' || mark.where === 'any') && test(mark.pattern)),
  );
}

/** The plain way: the first customer holding a mark that looks for this text on the same mail (sameMark). */
function plainHeldBy(mark: Mark, customers: readonly CustomerMarks[]): CustomerMarks | undefined {
  return customers.find((customer) => customer.marks.some((known) => sameMark(known, mark)));
}

const LOCALS = ['desk', 'noreply', 'billing', 'ab'] as const;
const DOMAINS = ['portal.example', 'origin.example', 'x.example', 'portal.example.net'] as const;
const address = fc.tuple(fc.constantFrom(...LOCALS), fc.constantFrom(...DOMAINS)).map(([local, domain]) => `${local}@${domain}`);
const pattern = fc.oneof(
  address.map(senderPattern),
  fc.constantFrom(...DOMAINS).map((domain) => `@${escapePattern(domain)}>`),
  fc.constantFrom(...DOMAINS).map((domain) => `@${escapePattern(domain)}`),
  fc.constantFrom(...LOCALS, 'portal', 'Desk Team', 'é'),
);
// Some with a sender condition ("the sender AND this text"), which only a mark with no condition or the same one shares.
const mark = fc
  .record({
    pattern,
    where: fc.constantFrom(...MARK_PLACES),
    sender: fc.constantFrom(undefined, undefined, '<desk@portal\\.example>', '<noreply@x\\.example>'),
  })
  .map(({ sender, ...rest }): Mark => (sender === undefined ? rest : { ...rest, sender }));
const definitions = fc
  .array(fc.uniqueArray(mark, { maxLength: 4, selector: (m) => `${m.pattern}|${m.where}|${m.sender ?? ''}` }), { minLength: 1, maxLength: 30 })
  .map((marksPerCustomer) =>
    defineCollection(
      'customers',
      marksPerCustomer.map((marks, i) => new CustomerMarks(`c${i}`, `Customer ${i}`, marks)),
    ),
  );
const senders = fc.record({ address: fc.oneof(address, fc.constant('')), name: fc.constantFrom('', 'Desk Team', 'Portal', '<desk@portal.example>', 'é') });

describe('who already holds a sender: the compiled sets and the index decide as trying each mark did', () => {
  let before: number;
  beforeAll(() => {
    // Small shards, so a few dozen marks make many of them.
    before = setMarksPerShard(4);
  });
  afterAll(() => {
    setMarksPerShard(before);
  });

  it('finds the same customers holding a from line, in the same order, for every generated definition and sender', () => {
    fc.assert(
      fc.property(definitions, fc.array(senders, { minLength: 1, maxLength: 10 }), (definition, fromList) => {
        for (const from of fromList) {
          const line = senderLine(from);
          expect(holdersOf(line, definition).map((c) => c.key)).toEqual(plainHolders(line, definition.entries).map((c) => c.key));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds the same holder of a mark, for every generated definition and mark', () => {
    fc.assert(
      fc.property(definitions, fc.array(mark, { minLength: 1, maxLength: 10 }), (definition, marks) => {
        for (const candidate of marks) expect(heldBy(candidate, definition.entries)?.key).toBe(plainHeldBy(candidate, definition.entries)?.key);
      }),
      { numRuns: 300 },
    );
  });

  it('offers the same suggestion as trying each mark did, for generated messages', () => {
    const entries = (definition: Definition<CustomerMarks>) => definition.entries;
    fc.assert(
      fc.property(definitions, senders, fc.constantFrom('Booking BK-55120', 'hello', 'Arrival NGM/2026/1142 for Customer 3'), (definition, from, subject) => {
        const input = { from, subject, body: 'Booking for Customer 12, ref PA-2026-0901', attachments: [] };
        const suggestion = suggestEvidence(input, { customers: definition });
        const holders = plainHolders(senderLine(from), entries(definition));
        const held = from.address === '' ? undefined : plainHeldBy({ pattern: senderPattern(from.address), where: 'from' }, entries(definition));
        if (from.address !== '' && (holders.length > 0 || held !== undefined)) {
          // A held sender is never offered alone, and the sentence names the holders found the old way.
          expect(suggestion?.mark).not.toEqual({ pattern: senderPattern(from.address), where: 'from' });
          if (suggestion?.why !== undefined && holders.length > 0) {
            for (const holder of holders) expect(suggestion.why).toContain(holder.label);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
