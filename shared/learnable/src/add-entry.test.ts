import { describe, expect, it } from 'vitest';
import type { LessonValue } from '@learnables/protocol';
import type { LearnableKind, Learned } from './index.ts';
import { EntryExists, Learnable, NotRetractable, addEntry, defineCollection, entryKeyFor, removeEntry, retractValue } from './index.ts';

/** A learnable of a kind no agent has (@learnables/testing builds on this package, so not from there). */
class WordList extends Learnable {
  constructor(
    readonly key: string,
    readonly words: readonly string[] = [],
    readonly name?: string,
  ) {
    super();
  }
  get label() {
    return this.name ?? `List ${this.key}`;
  }
  learn(value: LessonValue): Learned<WordList> {
    const word = String(value.word);
    return this.words.includes(word) ? { next: this, changed: false } : { next: new WordList(this.key, [...this.words, word], this.name), changed: true };
  }
  describes(value: LessonValue) {
    return `${this.key} knows the word '${String(value.word)}'`;
  }
  unlearn(value: LessonValue): Learned<WordList> {
    const kept = this.words.filter((w) => w !== value.word);
    return kept.length === this.words.length ? { next: this, changed: false } : { next: new WordList(this.key, kept, this.name), changed: true };
  }
  describesRetraction(value: LessonValue) {
    return `${this.key} no longer knows the word '${String(value.word)}'`;
  }
  toState() {
    return { words: this.words, ...(this.name !== undefined && { name: this.name }) };
  }
}

const kind: LearnableKind<WordList> = {
  collection: 'lists',
  fromState: (key, state) => new WordList(key, (state as { words: string[] }).words, (state as { name?: string }).name),
  create: (key, label) => new WordList(key, [], label),
};
const lists = () => defineCollection('lists', [kind.fromState('alpha', { words: ['a', 'typo', 'z'] })]);
const request = (label: string, key?: string) => ({ collection: 'lists', newEntry: { label, ...(key && { key }) }, taughtBy: 'dana', reason: 'r' });

describe('entryKeyFor', () => {
  it('makes the same plain key from a label every time', () => {
    expect(entryKeyFor('Harbour & Sons Ltd.')).toBe('harbour-sons-ltd');
    expect(entryKeyFor('  Müller Spedition GmbH ')).toBe('muller-spedition-gmbh');
    expect(entryKeyFor('Harbour & Sons Ltd.')).toBe(entryKeyFor('Harbour & Sons Ltd.'));
  });

  it('gives a label with no latin letter or digit a stable key from its hash', () => {
    const key = entryKeyFor('東京物流');
    expect(key).toMatch(/^entry-[0-9a-f]{12}$/);
    expect(entryKeyFor('東京物流')).toBe(key);
    expect(entryKeyFor('大阪物流')).not.toBe(key);
  });

  it('keeps keys to 64 characters', () => {
    expect(entryKeyFor('a'.repeat(100)).length).toBe(64);
  });
});

describe('addEntry, removeEntry and retractValue: the control plane reads no key of a value', () => {
  it('adds an empty entry made by the kind, and leaves the definition it was given alone', () => {
    const before = lists();
    const added = addEntry(before, kind, request('Beta Ltd'));
    expect(added).toMatchObject({ changed: true, entry: 'beta-ltd' });
    expect(added.definition.entries.map((e) => [e.key, e.label])).toEqual([
      ['alpha', 'List alpha'],
      ['beta-ltd', 'Beta Ltd'],
    ]);
    expect(added.definition.entries[0]).toBe(before.entries[0]);
    expect(before.entries).toHaveLength(1);
  });

  it('is idempotent for the same label and refuses another label on a taken key', () => {
    const once = addEntry(lists(), kind, request('Beta Ltd')).definition;
    const twice = addEntry(once, kind, request('Beta Ltd'));
    expect(twice.changed).toBe(false);
    expect(twice.definition).toBe(once);
    expect(() => addEntry(once, kind, request('Beta Logistics', 'beta-ltd'))).toThrow(EntryExists);
  });

  it('answers a label that reads as an existing one (case, spacing, punctuation, the legal form) with that entry, adding nothing', () => {
    const seeded = defineCollection('lists', [new WordList('northgate', ['ngm'], 'Northgate Motors Ltd')]);
    for (const label of [
      'Northgate Motors Ltd',
      'northgate motors ltd',
      'Northgate  Motors Ltd.',
      'NORTHGATE MOTORS LIMITED',
      'Northgate-Motors, Ltd',
      'Ｎｏｒｔｈｇａｔｅ Motors Ltd',
      ' Northgate Motors Ltd ',
    ]) {
      const again = addEntry(seeded, kind, request(label));
      expect(again, label).toMatchObject({ changed: false, entry: 'northgate' });
      expect(again.definition, label).toBe(seeded);
    }
    expect(addEntry(seeded, kind, request('Northgate Motors Limited')).audit).toBe(
      'lists already has northgate ("Northgate Motors Ltd"), which is how "Northgate Motors Limited" reads; nothing was added',
    );
    // Conservative: another word, a missing legal form or another one is another entry.
    for (const label of ['Northgate Motors', 'Northgate Motors Inc', 'Northgate Motor Ltd', 'Northgate Motors Group Ltd', 'Northgate Mötors Ltd']) {
      expect(addEntry(seeded, kind, request(label)), label).toMatchObject({ changed: true });
    }
  });

  it("takes one value back through the learnable's own unlearn, keeping the others", () => {
    const taken = retractValue(lists(), 'alpha', { word: 'typo' });
    expect(taken.changed).toBe(true);
    expect(taken.audit).toBe("alpha no longer knows the word 'typo'");
    expect((taken.definition.entries[0] as WordList).words).toEqual(['a', 'z']);
    const again = retractValue(taken.definition, 'alpha', { word: 'typo' });
    expect(again.changed).toBe(false);
    expect(again.definition).toBe(taken.definition);
  });

  it('removes an added entry only while it has been taught nothing', () => {
    const added = addEntry(lists(), kind, request('Beta Ltd')).definition;
    expect(removeEntry(added, kind, 'beta-ltd').definition.entries.map((e) => e.key)).toEqual(['alpha']);
    expect(() => removeEntry(lists(), kind, 'alpha')).toThrow(NotRetractable);
  });
});
