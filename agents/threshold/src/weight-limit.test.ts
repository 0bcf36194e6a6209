import { describe, expect, it } from 'vitest';
import { UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import { WeightLimit, weightLimitKind } from './weight-limit.ts';

/** A lesson's value as the control plane hands it over: read with the learnable's schema, then learned. */
const teach = (limit: WeightLimit, value: LessonValue) => limit.learn(limit.readValue(value));

/** The refusal a learnable throws; fails the test if the value was taken. */
function refusalOf(value: LessonValue): UnlearnableValue {
  try {
    teach(furniture(), value);
  } catch (error) {
    expect(error).toBeInstanceOf(UnlearnableValue);
    return error as UnlearnableValue;
  }
  throw new Error('expected a refusal, and the value was taken');
}

const furniture = (maxKg: number | null = null) => new WeightLimit('furniture', 'Furniture', maxKg);

describe('WeightLimit', () => {
  it('refuses a value nested too deep to print in a sentence, not with a stack overflow', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const refusal = refusalOf({ maxKg: deep });
    expect(refusal.message).toBe('That value is not a weight in kilograms; give it in figures, e.g. 30.');
    expect(refusal.field).toBe('maxKg');
  });

  it('sets a limit given as a number', () => {
    const { next, changed } = teach(furniture(), { maxKg: 30 });
    expect(changed).toBe(true);
    expect(next).toEqual(furniture(30));
  });

  it.each(['30', ' 30 ', '30 kg', '30KG', '30.0'])('takes %j, as a text box sends it, for 30', (typed) => {
    expect(teach(furniture(), { maxKg: typed }).next).toEqual(furniture(30));
  });

  it('knows a limit it already has, typed or not: nothing changes', () => {
    const before = furniture(30);
    expect(teach(before, { maxKg: 30 })).toEqual({ next: before, changed: false });
    expect(teach(before, { maxKg: '30' }).next).toBe(before);
  });

  it('replaces a limit with another, tighter or looser, and leaves the old entry as it was', () => {
    const before = furniture(30);
    expect(teach(before, { maxKg: 25 })).toEqual({ next: furniture(25), changed: true });
    expect(teach(before, { maxKg: 40.5 })).toEqual({ next: furniture(40.5), changed: true });
    expect(before.maxKg).toBe(30);
  });

  it('says what it learned: furniture parcels over 30 kg get a second check', () => {
    expect(furniture().describes({ maxKg: 30 })).toBe('furniture parcels over 30 kg get a second check');
    expect(furniture().describes(furniture().readValue({ maxKg: '30 kg' }))).toBe('furniture parcels over 30 kg get a second check');
  });

  it.each([
    [{ maxKg: 'thirty' }, '"thirty" is not a weight in kilograms; give it in figures, e.g. 30.', 'maxKg'],
    [{ maxKg: '30,5' }, '"30,5" is not a weight in kilograms; give it in figures, e.g. 30.', 'maxKg'],
    [{ maxKg: true }, 'true is not a weight in kilograms; give it in figures, e.g. 30.', 'maxKg'],
    [{ maxKg: [30] }, '[30] is not a weight in kilograms; give it in figures, e.g. 30.', 'maxKg'],
    [{}, 'A weight limit needs maxKg, in kilograms.', 'maxKg'],
    [{ maxKg: '  ' }, 'A weight limit needs maxKg, in kilograms.', 'maxKg'],
    [{ maxKg: 0 }, 'A limit of 0 kg would send every parcel to a second check; give a weight above 0 kg.', 'maxKg'],
    [{ maxKg: '-5' }, 'A limit of -5 kg would send every parcel to a second check; give a weight above 0 kg.', 'maxKg'],
    [{ maxKg: 30000 }, 'A limit of 30000 kg is more than any parcel weighs; give one of at most 1000 kg.', 'maxKg'],
    [{ maxKg: 30, reason: 'heavy' }, 'A weight limit takes maxKg; "reason" is not one.', 'reason'],
  ])('refuses %j in its own words, naming the field', (value, sentence, field) => {
    const refusal = refusalOf(value);
    expect(refusal.message).toBe(sentence);
    expect(refusal.field).toBe(field);
  });

  it('comes back from storage as it went in, with a limit and without', () => {
    for (const limit of [furniture(), furniture(30)]) {
      expect(weightLimitKind.fromState('furniture', JSON.parse(JSON.stringify(limit.toState())))).toEqual(limit);
    }
  });

  it('refuses a seed whose limit is not a number, rather than comparing weights with text', () => {
    expect(() => weightLimitKind.fromState('tyres', { label: 'Tyres', maxKg: '30' })).toThrow(
      'weight-limits: "tyres" cannot be rebuilt from its state: maxKg: Invalid input: expected number, received string.',
    );
  });

  it('refuses a seed whose limit no lesson could set (SPEC §2.3.2), and one without a label', () => {
    expect(() => weightLimitKind.fromState('tyres', { label: 'Tyres', maxKg: 0 })).toThrow(
      'weight-limits: "tyres" cannot be rebuilt from its state: maxKg: Too small: expected number to be >0.',
    );
    expect(() => weightLimitKind.fromState('tyres', { label: 'Tyres', maxKg: 30000 })).toThrow('maxKg: Too big: expected number to be <=1000.');
    expect(() => weightLimitKind.fromState('tyres', { maxKg: null })).toThrow('label: Invalid input: expected string, received undefined.');
  });

  it('takes back the limit it has, and nothing else', () => {
    const teachBack = (limit: WeightLimit, value: LessonValue) => limit.unlearn(limit.readValue(value));
    expect(teachBack(furniture(30), { maxKg: '30' })).toEqual({ next: furniture(), changed: true });
    const before = furniture(30);
    expect(teachBack(before, { maxKg: 12 })).toEqual({ next: before, changed: false });
    expect(before.describesRetraction({ maxKg: 12 })).toBe('furniture parcels no longer have a 12 kg limit (their limit is 30 kg now)');
  });
});
