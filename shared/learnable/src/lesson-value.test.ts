import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LessonValue } from '@learnables/protocol';
import { absorbLesson } from './absorb-lesson.ts';
import { defineCollection } from './definition.ts';
import { UnlearnableValue } from './errors.ts';
import type { Learned } from './learnable.ts';
import { Learnable } from './learnable.ts';
import { lessonField, lessonValue, readLessonValue, readNumber, shown } from './lesson-value.ts';
import type { LessonValueOf } from './lesson-value.ts';

/** A learnable of no agent: a shelf keeps a height limit in cm and a side, and a note. */
const shelfLesson = lessonValue(
  {
    height: lessonField
      .number({ missing: 'A shelf needs a height, in cm.', notANumber: (typed) => `${typed} is not a height; give it in figures.`, unit: 'cm' })
      .refine((cm) => cm > 0, { error: (issue) => `A height of ${String(issue.input)} cm holds nothing.` }),
    side: lessonField.choice(['left', 'right'], { notOne: (typed) => `${typed} is not a side; say left or right.`, absent: 'left' }),
    note: lessonField.text({ missing: 'A shelf needs a note.' }),
  },
  {
    unknownKey: (key) => `A shelf takes a height, a side and a note; "${key}" is none of them.`,
    check: ({ note, height }) => {
      if (note.length > height) throw new UnlearnableValue('The note is longer than the shelf is high.', { field: 'note' });
    },
  },
);
type ShelfLesson = LessonValueOf<typeof shelfLesson>;

/** The refusal reading a value meets; fails the test if it was read. */
function refusalOf(value: LessonValue): UnlearnableValue {
  try {
    readLessonValue(shelfLesson, value);
  } catch (error) {
    expect(error).toBeInstanceOf(UnlearnableValue);
    return error as UnlearnableValue;
  }
  throw new Error('expected a refusal, and the value was read');
}

describe('a lesson value read with its schema', () => {
  it('is typed and read: a number from the text a box sends, trimmed text, a choice case aside or its default', () => {
    const read: ShelfLesson = readLessonValue(shelfLesson, { height: ' 40 cm ', side: ' RIGHT ', note: '  top  ' });
    expect(read).toEqual({ height: 40, side: 'right', note: 'top' });
    expect(readLessonValue(shelfLesson, { height: 40.5, note: 'top' })).toEqual({ height: 40.5, side: 'left', note: 'top' });
  });

  it.each([
    [{ height: 40, note: 'x', colour: 'red' }, 'A shelf takes a height, a side and a note; "colour" is none of them.', 'colour'],
    // A key it does not take is named first, whatever else is wrong.
    [{ height: 'tall', colour: 'red' }, 'A shelf takes a height, a side and a note; "colour" is none of them.', 'colour'],
    [{ note: 'x' }, 'A shelf needs a height, in cm.', 'height'],
    [{ height: null, note: 'x' }, 'A shelf needs a height, in cm.', 'height'],
    [{ height: '  ', note: 'x' }, 'A shelf needs a height, in cm.', 'height'],
    [{ height: 'tall', note: 'x' }, '"tall" is not a height; give it in figures.', 'height'],
    [{ height: '40 kg', note: 'x' }, '"40 kg" is not a height; give it in figures.', 'height'],
    [{ height: [40], note: 'x' }, '[40] is not a height; give it in figures.', 'height'],
    [{ height: '-3', note: 'x' }, 'A height of -3 cm holds nothing.', 'height'],
    [{ height: 40, side: 'up', note: 'x' }, '"up" is not a side; say left or right.', 'side'],
    [{ height: 40, note: 7 }, 'A shelf needs a note.', 'note'],
    [{ height: 2, note: 'a long note' }, 'The note is longer than the shelf is high.', 'note'],
    // The check across fields runs only on a value read without a problem: a key it does not take comes first.
    [{ height: 2, note: 'a long note', colour: 'red' }, 'A shelf takes a height, a side and a note; "colour" is none of them.', 'colour'],
  ])("refuses %j in the learnable's words, naming the field", (value, sentence, field) => {
    const refusal = refusalOf(value);
    expect(refusal.message).toBe(sentence);
    expect(refusal.field).toBe(field);
  });

  it('refuses a value nested too deep to print with a sentence, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(refusalOf({ height: deep, note: 'x' }).message).toBe('That value is not a height; give it in figures.');
  });

  it("gives a check the learnable left without words a plain sentence naming the field, never zod's", () => {
    const bare = lessonValue({ size: z.number() }, { unknownKey: (key) => `no ${key}` });
    expect(() => readLessonValue(bare, { size: 'big' })).toThrow(new UnlearnableValue('"big" is not a usable size.', { field: 'size' }));
  });
});

describe('readNumber and shown', () => {
  it.each([
    [32, undefined, 32],
    ['32', undefined, 32],
    [' 32.5 ', undefined, 32.5],
    ['32 kg', 'kg', 32],
    ['32KG', 'kg', 32],
    ['32 kg', undefined, undefined],
    ['32,5', undefined, undefined],
    [Number.NaN, undefined, undefined],
    [true, undefined, undefined],
  ])('reads %j (unit %s) as %s', (raw, unit, number) => {
    expect(readNumber(raw, unit)).toBe(number);
  });

  it('shows a value as JSON, cut at 40 characters', () => {
    expect(shown('thirty')).toBe('"thirty"');
    expect(shown(undefined)).toBe('undefined');
    expect(shown('x'.repeat(60))).toBe(`"${'x'.repeat(39)}…`);
  });
});

class Shelf extends Learnable.of(shelfLesson) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly height: number | null = null,
  ) {
    super();
  }
  learn({ height }: ShelfLesson): Learned<Shelf> {
    return height === this.height ? { next: this, changed: false } : { next: new Shelf(this.key, this.label, height), changed: true };
  }
  describes({ height, side }: ShelfLesson): string {
    return `${this.key} holds up to ${height} cm on the ${side}`;
  }
  unlearn({ height }: ShelfLesson): Learned<Shelf> {
    return height === this.height ? { next: new Shelf(this.key, this.label), changed: true } : { next: this, changed: false };
  }
  describesRetraction({ height }: ShelfLesson): string {
    return `${this.key} no longer holds up to ${height} cm`;
  }
  toState() {
    return { label: this.label, height: this.height };
  }
}

describe('Learnable.of: a learnable that declares its value', () => {
  const shelves = () => defineCollection('shelves', [new Shelf('a1', 'Aisle 1')]);
  const lesson = (value: LessonValue) => ({ collection: 'shelves', entry: 'a1', value, taughtBy: 'dana', reason: 'r' });

  it('learns and describes the value its schema read, down the one control plane', () => {
    const absorbed = absorbLesson(shelves(), lesson({ height: '40 cm', note: 'top' }));
    expect(absorbed.changed).toBe(true);
    expect(absorbed.audit).toBe('a1 holds up to 40 cm on the left');
    expect(absorbed.definition.entries).toEqual([new Shelf('a1', 'Aisle 1', 40)]);
    expect(absorbLesson(absorbed.definition, lesson({ height: 40, side: 'left', note: 'top' })).changed).toBe(false);
  });

  it('is refused in its own words before learn is called', () => {
    expect(() => absorbLesson(shelves(), lesson({ height: 40, note: 'top', colour: 'red' }))).toThrow(
      'A shelf takes a height, a side and a note; "colour" is none of them.',
    );
  });

  it('carries its schema on the class, where its kind and the runtime find it', () => {
    expect(Shelf.lesson).toBe(shelfLesson);
    expect(new Shelf('a1', 'Aisle 1').readValue({ height: '12', note: 'n' })).toEqual({ height: 12, side: 'left', note: 'n' });
  });
});
