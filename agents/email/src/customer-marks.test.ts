import { describe, expect, it } from 'vitest';
import { UnlearnableValue } from '@learnables/learnable';
import { refusalOf } from '@learnables/testing';
import { CustomerMarks, customerMarksKind } from './customer-marks.ts';

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
