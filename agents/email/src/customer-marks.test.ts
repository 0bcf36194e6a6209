import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UnlearnableValue } from '@learnables/learnable';
import { refusalOf } from '@learnables/testing';
import { CustomerMarks, MARK_PLACES, customerMarksKind } from './customer-marks.ts';
import { referencePattern, senderPattern } from './mark-patterns.ts';

const northgate = () => new CustomerMarks('northgate', 'Northgate Motors Ltd');

describe('CustomerMarks', () => {
  it('adds a mark as an amended copy and leaves the original alone', () => {
    const before = northgate();
    const { next, changed } = before.learn({ pattern: 'billing@origin\\.example', where: 'from' });
    expect(changed).toBe(true);
    expect((next as CustomerMarks).marks).toEqual([{ pattern: 'billing@origin\\.example', where: 'from' }]);
    expect(before.marks).toEqual([]);
  });

  it("looks in the from when no where is given", () => {
    const { next } = northgate().learn({ pattern: 'northgate' });
    expect((next as CustomerMarks).marks[0]?.where).toBe('from');
  });

  it('knows a mark it already has: unchanged, same object', () => {
    const once = northgate().learn({ pattern: 'PA-2026-0901', where: 'subject' }).next;
    const twice = once.learn({ pattern: 'PA-2026-0901', where: 'subject' });
    expect(twice).toEqual({ next: once, changed: false });
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
    expect(refusalOf(() => northgate().learn(value))).toBe(sentence);
  });

  // Issue 15: these were taken, and then claimed other customers' mail with no question.
  const EVERY_MESSAGE = ['.', '\\S', '[\\s\\S]', '(?s).', '@', '\\b', '[^\\x{0}]', '\\w', '[a-z]', 'e', '\\d'];
  it.each(EVERY_MESSAGE.flatMap((pattern) => MARK_PLACES.map((where) => [pattern, where] as const)))(
    'refuses %j in the %s: it would claim messages without evidence',
    (pattern, where) => {
      expect(refusalOf(() => northgate().learn({ pattern, where }))).toMatch(
        new RegExp(`^"${pattern.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')}" (matches \\d+ of 16 sample messages that belong to no customer, so it would claim messages without evidence|is found even in random characters, so it is no evidence of one customer); give the text that gives this customer away, such as an address or a reference\\.$`),
      );
    },
  );

  it.each([
    ['@', 'from', '"@" is found even in random characters, so it is no evidence of one customer; give the text that gives this customer away, such as an address or a reference.'],
    ['\\.(?:com|net|org|io|dev|de|no|ng|jp|uk|example|studio)>', 'from', '"\\.(?:com|net|org|io|dev|de|no|ng|jp|uk|example|studio)>" matches 12 of 16 sample messages that belong to no customer, so it would claim messages without evidence; give the text that gives this customer away, such as an address or a reference.'],
    ['.{400}', 'body', '".{400}" is found even in random characters, so it is no evidence of one customer; give the text that gives this customer away, such as an address or a reference.'],
  ])('says how broad %j in the %s is', (pattern, where, sentence) => {
    expect(refusalOf(() => northgate().learn({ pattern, where }))).toBe(sentence);
  });

  it.each([['qN\\pL{300}'], ['\\pL{5}'], ['[\\s\\S]{1000}']])('refuses %j, which expands to too many states, before compiling it whole', (pattern) => {
    expect(refusalOf(() => northgate().learn({ pattern, where: 'body' }))).toBe(
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
      ...['Northgate', 'NGM/', 'OB-', 'origin', 'pallets', 'c1', '[a-z]{300}'].flatMap((pattern) => MARK_PLACES.filter((where) => !(pattern === 'c1' && where === 'any')).map((where) => ({ pattern, where }))),
    ];
    expect(marks.length).toBeGreaterThan(40);
    for (const mark of marks) expect(() => northgate().learn(mark), JSON.stringify(mark)).not.toThrow();
  });

  it('names the field a refusal is about', () => {
    try {
      northgate().learn({ pattern: 'x', where: 'headers' });
      expect.unreachable();
    } catch (error) {
      expect((error as UnlearnableValue).field).toBe('where');
    }
  });

  it('comes back from storage as it went in', () => {
    const taught = northgate().learn({ pattern: 'a@b\\.example', where: 'from' }).next as CustomerMarks;
    const back = customerMarksKind.fromState('northgate', JSON.parse(JSON.stringify(taught.toState())));
    expect(back).toEqual(taught);
  });
});
