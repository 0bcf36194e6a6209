import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineKind } from './define-kind.ts';
import { defineCollection, ofKind } from './definition.ts';
import type { Learned } from './learnable.ts';
import { Learnable } from './learnable.ts';
import { lessonField, lessonValue } from './lesson-value.ts';
import type { LessonValueOf } from './lesson-value.ts';

const binLesson = lessonValue(
  { litres: lessonField.number({ missing: 'A bin needs litres.', notANumber: (typed) => `${typed} is not litres.` }) },
  {
    unknownKey: (key) => `A bin takes litres; "${key}" is not one.`,
  },
);
type BinLesson = LessonValueOf<typeof binLesson>;

class Bin extends Learnable.of(binLesson) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly litres: number | null,
  ) {
    super();
  }
  learn({ litres }: BinLesson): Learned<Bin> {
    return { next: new Bin(this.key, this.label, litres), changed: litres !== this.litres };
  }
  describes({ litres }: BinLesson): string {
    return `${this.key} holds ${litres} l`;
  }
  unlearn(): Learned<Bin> {
    return { next: new Bin(this.key, this.label, null), changed: this.litres !== null };
  }
  describesRetraction({ litres }: BinLesson): string {
    return `${this.key} no longer holds ${litres} l`;
  }
  toState(): BinState {
    return { label: this.label, litres: this.litres };
  }
}

const binState = z.object({ label: z.string(), litres: z.number().positive().nullable() });
type BinState = z.infer<typeof binState>;

const binKind = defineKind({
  collection: 'bins',
  learnable: Bin,
  state: binState,
  fromState: (key, { label, litres }) => new Bin(key, label, litres),
  create: (key, label) => new Bin(key, label, null),
});

/** A learnable of another kind, for a definition composed by mistake. */
class Other extends Learnable {
  constructor(
    readonly key: string,
    readonly label = key,
  ) {
    super();
  }
  learn(): Learned<Other> {
    return { next: this, changed: false };
  }
  describes = () => '';
  unlearn(): Learned<Other> {
    return { next: this, changed: false };
  }
  describesRetraction = () => '';
  toState = () => ({});
}

describe('defineKind', () => {
  it('rebuilds an entry from the state its schema reads, and back', () => {
    const bin = binKind.fromState('b1', { label: 'Bin 1', litres: 40 });
    expect(bin).toEqual(new Bin('b1', 'Bin 1', 40));
    expect(binKind.fromState('b1', JSON.parse(JSON.stringify(bin.toState())))).toEqual(bin);
    expect(binKind.create('b2', 'Bin 2')).toEqual(new Bin('b2', 'Bin 2', null));
  });

  it.each([
    [{ label: 'Bin 1', litres: '40' }, 'bins: "b1" cannot be rebuilt from its state: litres: Invalid input: expected number, received string.'],
    [{ label: 'Bin 1' }, 'bins: "b1" cannot be rebuilt from its state: litres: Invalid input: expected number, received undefined.'],
    [
      { litres: -1 },
      'bins: "b1" cannot be rebuilt from its state: label: Invalid input: expected string, received undefined; litres: Too small: expected number to be >0.',
    ],
    [null, 'bins: "b1" cannot be rebuilt from its state: Invalid input: expected object, received null.'],
  ])('refuses the state %j with a sentence naming the entry and what is wrong where', (state, sentence) => {
    expect(() => binKind.fromState('b1', state)).toThrow(new Error(sentence));
  });

  it("carries the learnable's lesson schema, and tells its own entries", () => {
    expect(binKind.lesson).toBe(binLesson);
    expect(binKind.owns?.(new Bin('b1', 'Bin 1', null))).toBe(true);
    expect(binKind.owns?.(new Other('o1'))).toBe(false);
  });
});

describe('ofKind: a definition looked up by its kind', () => {
  it('types the entries as the kind builds them', () => {
    const definition = defineCollection('bins', [new Bin('b1', 'Bin 1', 40)]);
    const bins = ofKind(definition, binKind);
    expect(bins.entries[0]?.litres).toBe(40);
  });

  it('refuses a definition holding an entry the kind did not build, naming it', () => {
    const mixed = defineCollection<Learnable<any>>('bins', [new Bin('b1', 'Bin 1', 40), new Other('stray')]);
    expect(() => ofKind(mixed, binKind)).toThrow('"stray" in bins was not built by its kind');
  });

  it('refuses the definition of another collection', () => {
    expect(() => ofKind(defineCollection('crates', []), binKind)).toThrow('The "crates" definition is not one of bins');
  });
});
