// A mark held by two customers makes their messages tie for ever; a lesson or a seed that would
// do so is refused, naming the customer that holds it.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import { UnlearnableValue } from '@learnables/learnable';
import { CustomerMarks, checkSeedMarks, compileMark, customerMarksKind, plainNameOf, sameMark } from './customer-marks.ts';

const definition = () =>
  defineCollection('customers', [
    new CustomerMarks('northgate', 'Northgate Motors Ltd', [{ pattern: '<noreply@portal\\.example>', where: 'from' }]),
    new CustomerMarks('brightwell-foods', 'Brightwell Foods plc', [{ pattern: 'BW-88213', where: 'any' }]),
    new CustomerMarks('corvid', 'Corvid Electronics Inc.'),
  ]);

const teach = (entry: string, value: { pattern: string; where: string }) =>
  absorbLesson(definition(), { collection: 'customers', entry, value, taughtBy: 'dana', reason: 'test' });

describe('a mark another customer holds', () => {
  it('is refused at teach time, naming the customer that holds it', () => {
    expect(() => teach('corvid', { pattern: '<noreply@portal\\.example>', where: 'from' })).toThrow(UnlearnableValue);
    expect(() => teach('corvid', { pattern: '<noreply@portal\\.example>', where: 'from' })).toThrow(
      "'<noreply@portal\\.example>' is already a mark of Northgate Motors Ltd (northgate)",
    );
  });

  it('is refused where the places overlap: a mark for any shares every place', () => {
    expect(() => teach('corvid', { pattern: 'BW-88213', where: 'subject' })).toThrow('already a mark of Brightwell Foods plc');
    expect(() => teach('corvid', { pattern: '<noreply@portal\\.example>', where: 'any' })).toThrow('already a mark of Northgate');
  });

  it("is taught when it looks in another place, or is already the same customer's", () => {
    expect(teach('corvid', { pattern: '<noreply@portal\\.example>', where: 'body' }).changed).toBe(true);
    expect(teach('northgate', { pattern: '<noreply@portal\\.example>', where: 'from' }).changed).toBe(false);
    expect(teach('corvid', { pattern: 'CVE-104455', where: 'subject' }).changed).toBe(true);
  });
});

describe('the customers seed, checked at start-up against the same rules', () => {
  it('refuses a domain mark a longer look-alike domain would match', () => {
    const open = [new CustomerMarks('brightwell-foods', 'Brightwell Foods plc', [{ pattern: '@brightwell-foods\\.example', where: 'from' }])];
    expect(() => checkSeedMarks(open)).toThrow(
      /brightwell-foods's mark '@brightwell-foods\\\.example' also matches a longer look-alike domain \(e\.g\. accounts@brightwell-foods\.example-remit\.invalid\); end it with >/,
    );
    expect(() => customerMarksKind.checkSeed?.(open)).toThrow('look-alike');
  });

  it('refuses a mark held by two customers', () => {
    const twice = [
      new CustomerMarks('a', 'A', [{ pattern: '<desk@hub\\.example>', where: 'from' }]),
      new CustomerMarks('b', 'B', [{ pattern: '<desk@hub\\.example>', where: 'any' }]),
    ];
    expect(() => checkSeedMarks(twice)).toThrow("'<desk@hub\\.example>' is a mark of both a and b");
  });

  it("passes the project's own seed, whose domain marks end where the address does", () => {
    const seed = JSON.parse(readFileSync(new URL('../../../fixtures/seeds/customers.json', import.meta.url), 'utf8')) as { entries: Record<string, unknown> };
    const entries = Object.entries(seed.entries).map(([key, state]) => customerMarksKind.fromState(key, state));
    expect(() => checkSeedMarks(entries)).not.toThrow();
    const brightwell = entries.find((entry) => entry.key === 'brightwell-foods')!;
    const fromMark = brightwell.marks.find((mark) => mark.where === 'from')!;
    expect(compileMark(fromMark.pattern).test('Accounts <accounts@brightwell-foods.example>')).toBe(true);
    expect(compileMark(fromMark.pattern).test('Accounts <accounts@brightwell-foods.example-remit.invalid>')).toBe(false);
  });
});

describe('the seed check, the quick way (issue 17: 50,000 marks were minutes of single matches)', () => {
  // The way the seed was checked before: each mark against every other customer's name, and
  // against every later customer's marks. The quick way must find exactly the same problems.
  const slowProblems = (entries: readonly CustomerMarks[]): string[] => {
    const problems: string[] = [];
    for (const [index, entry] of entries.entries()) {
      for (const mark of entry.marks) {
        if (mark.where !== 'from') {
          let regex: ReturnType<typeof compileMark> | undefined;
          try {
            regex = compileMark(mark.pattern);
          } catch {
            regex = undefined;
          }
          const named =
            regex && entries.find((other) => other.key !== entry.key && !other.noCustomer && (regex.test(other.name) || regex.test(plainNameOf(other.name))));
          if (named !== undefined) problems.push(`${entry.key}'s mark '${mark.pattern}' matches the name of ${named.key}, whose mail it would claim`);
        }
        const holder = entries.slice(index + 1).find((other) => other.marks.some((known) => sameMark(known, mark)));
        if (holder !== undefined) problems.push(`'${mark.pattern}' is a mark of both ${entry.key} and ${holder.key}, so their messages would tie for ever`);
      }
    }
    return problems;
  };
  const quickProblems = (entries: readonly CustomerMarks[]): string[] => {
    try {
      checkSeedMarks(entries);
      return [];
    } catch (error) {
      return (error as Error).message
        .replace(/^The customers seed breaks the rules lessons follow: /, '')
        .replace(/\.$/, '')
        .split('; ');
    }
  };
  const words = ['Alder', 'Birch', 'Cedar', 'Dover', 'Elm', 'Fjord'];
  const forms = ['', ' Ltd', ' plc', ' GmbH'];
  const patterns = [...words, 'Birch$', '^Elm Cedar$', 'Alder Birch', 'cedar\\s+dover', 'REF-1[0-9]', '(unclosed', 'Elm Ltd', '[a-z]+ Fjord', 'nothing-named'];
  const where = ['from', 'subject', 'body', 'attachments', 'any'] as const;

  it('finds exactly the problems one mark at a time would, over generated seeds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.tuple(fc.constantFrom(...words), fc.constantFrom(...words), fc.constantFrom(...forms)),
            noCustomer: fc.boolean(),
            marks: fc.array(
              fc.record({
                pattern: fc.constantFrom(...patterns),
                where: fc.constantFrom(...where),
                sender: fc.option(fc.constantFrom('<a@x\\.example>', '<b@x\\.example>'), { nil: undefined }),
              }),
              { maxLength: 4 },
            ),
          }),
          { maxLength: 8 },
        ),
        (seed) => {
          const entries = seed.map(
            (entry, at) =>
              new CustomerMarks(
                `c${at}`,
                `${entry.name[0]} ${entry.name[1]}${entry.name[2]}`,
                entry.marks.map((mark) =>
                  mark.sender === undefined || mark.where === 'from'
                    ? { pattern: mark.pattern, where: mark.where }
                    : { pattern: mark.pattern, where: mark.where, sender: mark.sender },
                ),
                entry.noCustomer && at % 3 === 0,
              ),
          );
          expect(quickProblems(entries).filter((problem) => !problem.includes('sender condition'))).toEqual(slowProblems(entries));
        },
      ),
      { numRuns: 300 },
    );
  });
});
