import { describe, expect, it } from 'vitest';
import type { LessonValue } from '@learnables/protocol';
import type { Learned } from './index.ts';
import { Learnable, UnknownCollection, UnknownEntry, UnlearnableValue, absorbLesson, defineCollection } from './index.ts';

/** A learnable of a kind no agent has: a list of words. Enough to drive the control plane. */
class WordList extends Learnable {
  constructor(
    readonly key: string,
    readonly words: readonly string[] = [],
  ) {
    super();
  }
  get label() {
    return this.key.toUpperCase();
  }
  learn(value: LessonValue): Learned<WordList> {
    const word = value.word;
    if (typeof word !== 'string' || word === '') throw new UnlearnableValue('a word list needs a word');
    if (this.words.includes(word)) return { next: this, changed: false };
    return { next: new WordList(this.key, [...this.words, word]), changed: true };
  }
  describes(value: LessonValue) {
    return `${this.key} knows the word ${String(value.word)}`;
  }
  unlearn(value: LessonValue): Learned<WordList> {
    if (!this.words.includes(value.word as string)) return { next: this, changed: false };
    return {
      next: new WordList(
        this.key,
        this.words.filter((w) => w !== value.word),
      ),
      changed: true,
    };
  }
  describesRetraction(value: LessonValue) {
    return `${this.key} forgets the word ${String(value.word)}`;
  }
  toState() {
    return { words: this.words };
  }
}

const lesson = (entry: string, value: LessonValue) => ({ collection: 'lists', entry, value, taughtBy: 'dana', reason: 'r' });
const lists = () => defineCollection('lists', [new WordList('alpha'), new WordList('beta', ['b'])]);

describe('absorbLesson, the control plane', () => {
  it("returns a new definition with the amended entry and the learnable's audit sentence", () => {
    const before = lists();
    const result = absorbLesson(before, lesson('alpha', { word: 'a' }));
    expect(result.changed).toBe(true);
    expect(result.audit).toBe('alpha knows the word a');
    expect((result.definition.entries[0] as WordList).words).toEqual(['a']);
    expect(result.definition.entries[1]).toBe(before.entries[1]);
  });

  it('leaves the definition it was given exactly as it was (published versions are frozen)', () => {
    const before = lists();
    const snapshot = JSON.stringify(before);
    absorbLesson(before, lesson('alpha', { word: 'a' }));
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(Object.isFrozen(before)).toBe(true);
    expect(Object.isFrozen(before.entries)).toBe(true);
    expect(Object.isFrozen(before.entries[1])).toBe(true);
    expect(() => (before.entries as WordList[]).push(new WordList('gamma'))).toThrow(TypeError);
  });

  it('is idempotent: a lesson already known answers changed: false with the same definition object', () => {
    const once = absorbLesson(lists(), lesson('beta', { word: 'b2' }));
    const twice = absorbLesson(once.definition, lesson('beta', { word: 'b2' }));
    expect(twice.changed).toBe(false);
    expect(twice.definition).toBe(once.definition);
  });

  it("passes a refusal through with the learnable's own words", () => {
    expect(() => absorbLesson(lists(), lesson('alpha', { colour: 'red' }))).toThrow(new UnlearnableValue('a word list needs a word'));
  });

  it('names the entries that exist when the entry is unknown', () => {
    const attempt = () => absorbLesson(lists(), lesson('gamma', { word: 'g' }));
    expect(attempt).toThrow(UnknownEntry);
    expect(attempt).toThrow('"gamma" is not in lists; the entries are: alpha, beta.');
  });

  it('names the collection it holds when the collection is wrong', () => {
    const attempt = () => absorbLesson(lists(), { ...lesson('alpha', { word: 'a' }), collection: 'customers' });
    expect(attempt).toThrow(UnknownCollection);
    expect(attempt).toThrow('There is no collection called "customers"; the collections are: lists.');
  });

  it('refuses a definition that lists one key twice', () => {
    expect(() => defineCollection('lists', [new WordList('a'), new WordList('a')])).toThrow('lists lists "a" twice');
  });
});
