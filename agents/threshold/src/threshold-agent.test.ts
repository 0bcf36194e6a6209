import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Definition } from '@learnables/learnable';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import { DeclarationSchema, fieldsToRender } from '@learnables/protocol';
import type { PinnedDefinitions, Question, Reading } from '@learnables/runtime';
import { InputRefused, checkAgent, pinDefinitions } from '@learnables/runtime';
import type { Parcel } from './parse-parcel.ts';
import { seedsFolder } from './seeds-folder.ts';
import type { ParcelCheck } from './threshold-agent.ts';
import { HOW, thresholdAgent } from './threshold-agent.ts';
import type { LimitLesson, WeightLimit, WeightLimitState } from './weight-limit.ts';
import { weightLimitKind } from './weight-limit.ts';

/** Version 1: seeds/weight-limits.json, built the way the authority builds it. */
function seed(): Definition<WeightLimit> {
  const file = JSON.parse(readFileSync(join(seedsFolder, 'weight-limits.json'), 'utf8')) as { entries: Record<string, WeightLimitState> };
  return defineCollection(
    'weight-limits',
    Object.entries(file.entries).map(([key, state]) => weightLimitKind.fromState(key, state)),
  );
}

const pinned = (definition: Definition<WeightLimit>, version = 1): PinnedDefinitions => pinDefinitions([{ ...definition, version }]);

const teach = (definition: Definition<WeightLimit>, entry: string, value: LessonValue) =>
  absorbLesson(definition, { collection: 'weight-limits', entry, value, taughtBy: 'dana', reason: 'house rule' }).definition;

const read = (parcel: Parcel, definition = seed()): Reading<ParcelCheck, LimitLesson> => thresholdAgent.read(parcel, pinned(definition));

function questionOf(reading: Reading<ParcelCheck, LimitLesson>): Question<LimitLesson> {
  if (reading.settled) throw new Error(`expected a question, and it settled: ${reading.findings.secondCheck?.reads}`);
  return reading.question;
}

function resultOf(reading: Reading<ParcelCheck, LimitLesson>): ParcelCheck {
  if (!reading.settled) throw new Error(`expected a settled reading, and it asks: ${reading.question.question}`);
  return reading.result;
}

const furniture32: Parcel = { category: 'furniture', weightKg: 32 };

describe('the seed', () => {
  it('has categories with a limit and categories without one', () => {
    expect(seed().entries.map((limit) => [limit.key, limit.maxKg])).toEqual([
      ['books', 25],
      ['electronics', 15],
      ['furniture', null],
      ['tyres', null],
    ]);
  });
});

describe('the card', () => {
  it('declares weight-limits, one category per entry, decided by rules, taught by a limit of kind "number"', () => {
    const { declaration } = thresholdAgent;
    expect(DeclarationSchema.omit({ methods: true }).parse(declaration)).toEqual(declaration);
    expect(declaration).toMatchObject({ collection: 'weight-limits', entry: 'category', how: HOW, decidedBy: 'rules' });
    expect(declaration.lessonFields).toEqual([expect.objectContaining({ name: 'maxKg', kind: 'number' })]);
    expect(thresholdAgent.kinds).toEqual([weightLimitKind]);
  });

  it('offers in its form only what its learnable takes, as the runtime checks at start-up', () => {
    expect(() => checkAgent(thresholdAgent)).not.toThrow();
  });

  it('gets a text box for its limit from any client, since no client knows the kind "number"', () => {
    expect(fieldsToRender(thresholdAgent.declaration.lessonFields)).toEqual([
      expect.objectContaining({ name: 'maxKg', control: 'text', declaredKind: 'number' }),
    ]);
  });
});

describe(`how: "${HOW}"`, () => {
  it('is one sentence', () => {
    expect(HOW.match(/[.!?](\s|$)/g)).toHaveLength(1);
  });

  it(`"A parcel heavier than its category's limit gets a second check": heavier is checked, the limit itself and lighter are not`, () => {
    expect(HOW).toContain("A parcel heavier than its category's limit gets a second check");
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 1000, noNaN: true }), fc.double({ min: 0.01, max: 5000, noNaN: true }), (maxKg, weightKg) => {
        const taught = teach(seed(), 'furniture', { maxKg });
        const result = resultOf(read({ category: 'furniture', weightKg }, taught));
        expect(result).toEqual({ category: 'furniture', weightKg, maxKg, secondCheck: weightKg > maxKg });
      }),
    );
    expect(resultOf(read({ category: 'books', weightKg: 25 })).secondCheck).toBe(false);
    expect(resultOf(read({ category: 'books', weightKg: 25.01 })).secondCheck).toBe(true);
  });

  it('"a category with no limit yet, I ask about": whatever the weight', () => {
    expect(HOW).toContain('a category with no limit yet, I ask about');
    for (const weightKg of [0.2, 32, 999]) {
      expect(questionOf(read({ category: 'tyres', weightKg })).entry).toBe('tyres');
    }
  });
});

describe('reading a parcel', () => {
  it('says which limit decided, and how', () => {
    expect(read({ category: 'books', weightKg: 32 }).findings).toEqual({
      secondCheck: { settled: true, winner: 'check', reads: '32 kg is over the 25 kg limit for books: second check', collection: 'weight-limits' },
    });
    expect(read({ category: 'books', weightKg: 12 }).findings.secondCheck).toMatchObject({
      winner: 'pass',
      reads: '12 kg is within the 25 kg limit for books: no second check',
    });
  });

  it('asks about a category with no limit: the question, its two answers, and the category a lesson would set', () => {
    const reading = read(furniture32);
    expect(reading.findings.secondCheck).toEqual({
      settled: false,
      reads: 'no limit for furniture yet, so I ask whether a 32 kg parcel needs a second check',
      collection: 'weight-limits',
    });
    expect(questionOf(reading)).toEqual({
      collection: 'weight-limits',
      question: 'Does a 32 kg furniture parcel need a second check?',
      entries: [
        { key: 'check', label: 'Yes, check it' },
        { key: 'pass', label: 'No, let it through' },
      ],
      entry: 'furniture',
    });
  });

  it("suggests no limit: the parcel's own weight, taught, would let through the very parcel an operator may have sent to a second check", () => {
    expect(questionOf(read(furniture32))).not.toHaveProperty('suggested');
    const ownWeight = teach(seed(), 'furniture', { maxKg: furniture32.weightKg });
    expect(read(furniture32, ownWeight).findings.secondCheck).toMatchObject({ winner: 'pass' });
  });

  it('settles once a limit is taught, typed as text', () => {
    const taught = teach(seed(), 'furniture', { maxKg: '30' });
    expect(read(furniture32, taught).findings.secondCheck).toMatchObject({
      settled: true,
      winner: 'check',
      reads: '32 kg is over the 30 kg limit for furniture: second check',
    });
  });

  it('refuses a category it keeps no limit for, naming the ones it has', () => {
    expect(() => read({ category: 'toys', weightKg: 3 })).toThrow(
      new InputRefused('I keep no weight limit for "toys" parcels; the categories I know are books, electronics, furniture, tyres.'),
    );
  });
});

describe('answering', () => {
  it.each([
    ['check', true, '32 kg furniture parcel: second check, as the operator answered'],
    ['pass', false, '32 kg furniture parcel: no second check, as the operator answered'],
  ])("settles with the operator's verdict, %s", (entry, secondCheck, reads) => {
    const question = questionOf(read(furniture32));
    const answered = thresholdAgent.answer(furniture32, pinned(seed()), question, { entry });
    expect(answered.findings.secondCheck).toEqual({ settled: true, winner: entry, reads, collection: 'weight-limits' });
    expect(resultOf(answered)).toEqual({ category: 'furniture', weightKg: 32, maxKg: null, secondCheck });
  });
});
