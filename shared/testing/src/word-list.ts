import type { LearnableKind, Learned } from '@learnables/learnable';
import { Learnable, UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';

/** A learnable of a kind no agent has: a list of words. Enough to drive shared code in tests. */
export class WordList extends Learnable {
  constructor(
    readonly key: string,
    readonly words: readonly string[] = [],
    readonly name?: string,
  ) {
    super();
  }
  get label(): string {
    return this.name ?? `List ${this.key}`;
  }
  learn(value: LessonValue): Learned<WordList> {
    const word = value.word;
    if (typeof word !== 'string' || word.trim() === '') throw new UnlearnableValue('a word list needs a word', { field: 'word' });
    if (this.words.includes(word)) return { next: this, changed: false };
    return { next: new WordList(this.key, [...this.words, word], this.name), changed: true };
  }
  unlearn(value: LessonValue): Learned<WordList> {
    const word = value.word;
    if (typeof word !== 'string' || word.trim() === '') throw new UnlearnableValue('a word list needs a word', { field: 'word' });
    if (!this.words.includes(word)) return { next: this, changed: false };
    return {
      next: new WordList(
        this.key,
        this.words.filter((known) => known !== word),
        this.name,
      ),
      changed: true,
    };
  }
  describesRetraction(value: LessonValue): string {
    return `${this.key} no longer knows the word '${String(value.word)}'`;
  }
  describes(value: LessonValue): string {
    return `${this.key} knows the word '${String(value.word)}'`;
  }
  toState(): { words: readonly string[]; name?: string } {
    return { words: this.words, ...(this.name !== undefined && { name: this.name }) };
  }
}

export const wordListKind = (collection = 'lists'): LearnableKind<WordList> => ({
  collection,
  fromState: (key, state) => new WordList(key, (state as { words: string[] }).words, (state as { name?: string }).name),
  create: (key, label) => new WordList(key, [], label),
});
