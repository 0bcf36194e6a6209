import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import { refusalOf } from '@learnables/testing';
import { CustomerMarks, MARK_PLACES, customerMarksKind } from './customer-marks.ts';
import { referencePattern, senderPattern } from './mark-patterns.ts';

const northgate = () => new CustomerMarks('northgate', 'Northgate Motors Ltd');

/** A lesson's value as the control plane hands it over: read with the learnable's schema, then learned. */
const teach = (customer: CustomerMarks, value: LessonValue) => customer.learn(customer.readValue(value));

describe('CustomerMarks', () => {
  it('adds a mark as an amended copy and leaves the original alone', () => {
    const before = northgate();
    const { next, changed } = teach(before, { pattern: '<billing@origin\\.example>', where: 'from' });
    expect(changed).toBe(true);
    expect((next as CustomerMarks).marks).toEqual([{ pattern: '<billing@origin\\.example>', where: 'from' }]);
    expect(before.marks).toEqual([]);
  });

  it('looks in the from when no where is given', () => {
    const { next } = teach(northgate(), { pattern: 'northgate' });
    expect((next as CustomerMarks).marks[0]?.where).toBe('from');
  });

  it('knows a mark it already has: unchanged, same object', () => {
    const once = teach(northgate(), { pattern: 'PA-2026-0901', where: 'subject' }).next;
    const twice = teach(once, { pattern: 'PA-2026-0901', where: 'subject' });
    expect(twice).toEqual({ next: once, changed: false });
  });

  it('reads a where as a person types it, and refuses a mark held by another customer, naming it', () => {
    expect(northgate().readValue({ pattern: ' PA-1 ', where: ' Subject ' })).toEqual({ pattern: 'PA-1', where: 'subject' });
    const brightwell = new CustomerMarks('brightwell', 'Brightwell Foods', [{ pattern: 'PA-1', where: 'any' }]);
    expect(refusalOf(() => northgate().learn(northgate().readValue({ pattern: 'PA-1', where: 'subject' }), [brightwell]))).toMatch(
      /^'PA-1' is already a mark of Brightwell Foods \(brightwell\)/,
    );
  });

  it('refuses a seed entry it cannot read, naming it and the field', () => {
    expect(() => customerMarksKind.fromState('northgate', { name: 'Northgate', marks: [{ pattern: 'x', where: 'headers' }] })).toThrow(
      'customers: "northgate" cannot be rebuilt from its state: marks.0.where: Invalid option: expected one of "from"|"subject"|"body"|"attachments"|"any".',
    );
  });

  it('writes the audit line in its own words', () => {
    expect(northgate().describes({ pattern: 'billing@origin\\.example', where: 'from' })).toBe(
      "northgate learned: matches 'billing@origin\\.example' in the from",
    );
  });

  it.each([
    [{ pattern: 'billing@origin\\.example(' }, '"billing@origin\\.example(" is not a usable pattern: missing )'],
    [{ pattern: '(a+)+\\1' }, '"(a+)+\\1" is not a usable pattern: invalid escape sequence: \\1'],
    [{ pattern: '   ' }, 'A mark needs a pattern: the text that gives this customer away.'],
    [{ pattern: 42 }, 'A mark needs a pattern: the text that gives this customer away.'],
    [{ pattern: 'x', where: 'headers' }, '"headers" is not a place to look; choose one of from, subject, body, attachments, any.'],
    [{ pattern: '.*' }, '".*" matches an empty text, so it would claim every message; give the text that gives the customer away.'],
    [{ pattern: 'x', colour: 'red' }, 'A mark has a pattern and a where; "colour" is neither.'],
    [{ pattern: 'x'.repeat(501) }, 'That pattern is 501 characters long; a mark may be at most 500.'],
  ])('refuses %j in a sentence', (value, sentence) => {
    expect(refusalOf(() => teach(northgate(), value))).toBe(sentence);
  });

  // Issue 15: these were taken, and then claimed other customers' mail with no question.
  const EVERY_MESSAGE = ['.', '\\S', '[\\s\\S]', '(?s).', '@', '\\b', '[^\\x{0}]', '\\w', '[a-z]', 'e', '\\d'];
  it.each(EVERY_MESSAGE.flatMap((pattern) => MARK_PLACES.map((where) => [pattern, where] as const)))(
    'refuses %j in the %s: it would claim messages without evidence',
    (pattern, where) => {
      expect(refusalOf(() => teach(northgate(), { pattern, where }))).toMatch(
        new RegExp(
          `^"${pattern.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')}" (matches \\d+ of 16 sample messages that belong to no customer, so it would claim messages without evidence|is found even in random characters, so it is no evidence of one customer); give the text that gives this customer away, such as an address or a reference\\.$`,
        ),
      );
    },
  );

  it.each([
    [
      '@',
      'from',
      '"@" is found even in random characters, so it is no evidence of one customer; give the text that gives this customer away, such as an address or a reference.',
    ],
    [
      '\\.(?:com|net|org|io|dev|de|no|ng|jp|uk|example|studio)>',
      'from',
      '"\\.(?:com|net|org|io|dev|de|no|ng|jp|uk|example|studio)>" matches 12 of 16 sample messages that belong to no customer, so it would claim messages without evidence; give the text that gives this customer away, such as an address or a reference.',
    ],
    [
      '.{400}',
      'body',
      '".{400}" is found even in random characters, so it is no evidence of one customer; give the text that gives this customer away, such as an address or a reference.',
    ],
  ])('says how broad %j in the %s is', (pattern, where, sentence) => {
    expect(refusalOf(() => teach(northgate(), { pattern, where }))).toBe(sentence);
  });

  it.each([['qN\\pL{300}'], ['\\pL{5}'], ['[\\s\\S]{1000}']])('refuses %j, which expands to too many states, before compiling it whole', (pattern) => {
    expect(refusalOf(() => teach(northgate(), { pattern, where: 'body' }))).toBe(
      `"${pattern}": this pattern expands to too many states to be matched quickly; use fewer repeats or a smaller class of characters.`,
    );
  });

  it('takes every seed mark, the references and addresses the suggestions make, and short but telling text', () => {
    const seeds = JSON.parse(readFileSync(new URL('../../../fixtures/seeds/customers.json', import.meta.url), 'utf8')) as {
      entries: Record<string, { marks: { pattern: string; where: string }[] }>;
    };
    const marks = [
      ...Object.values(seeds.entries).flatMap((entry) => entry.marks),
      { pattern: senderPattern('billing@origin.example'), where: 'from' },
      { pattern: referencePattern('PA-2026-0901'), where: 'any' },
      ...['Northgate', 'NGM/', 'OB-', 'origin', 'pallets', 'c1', '[a-z]{300}'].flatMap((pattern) =>
        MARK_PLACES.filter((where) => !(pattern === 'c1' && where === 'any')).map((where) => ({ pattern, where })),
      ),
    ];
    expect(marks.length).toBeGreaterThan(40);
    for (const mark of marks) expect(() => teach(northgate(), mark), JSON.stringify(mark)).not.toThrow();
  });

  it('names the field a refusal is about', () => {
    try {
      teach(northgate(), { pattern: 'x', where: 'headers' });
      expect.unreachable();
    } catch (error) {
      expect((error as UnlearnableValue).field).toBe('where');
    }
  });

  it('comes back from storage as it went in', () => {
    const taught = teach(northgate(), { pattern: '<a@b\\.example>', where: 'from' }).next as CustomerMarks;
    const back = customerMarksKind.fromState('northgate', JSON.parse(JSON.stringify(taught.toState())));
    expect(back).toEqual(taught);
  });
});
