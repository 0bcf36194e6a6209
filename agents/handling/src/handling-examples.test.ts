import { describe, expect, it } from 'vitest';
import { UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import { HandlingExamples, LONGEST_EXAMPLE, handlingExamplesKind } from './handling-examples.ts';

const perishable = (examples: string[] = ['frozen peas, 4 cartons']) => new HandlingExamples('perishable', 'Perishable (cold chain)', examples);
const fragile = new HandlingExamples('fragile', 'Fragile', ['glass vases, 3 crates']);

/** As the control plane does it: the schema reads the value, then `learn` takes it. */
const teach = (entry: HandlingExamples, value: LessonValue, others: HandlingExamples[] = [fragile]) => entry.learn(entry.readValue(value), others);

function refusalOf(value: LessonValue): UnlearnableValue {
  try {
    teach(perishable(), value);
  } catch (error) {
    expect(error).toBeInstanceOf(UnlearnableValue);
    return error as UnlearnableValue;
  }
  throw new Error('expected a refusal, and the example was taken');
}

describe('HandlingExamples', () => {
  it('adds an example, trimmed, and leaves the old entry as it was', () => {
    const before = perishable();
    const { next, changed } = teach(before, { example: '  frozen prawns, 12 cartons, -18 °C ' });
    expect(changed).toBe(true);
    expect(next).toEqual(perishable(['frozen peas, 4 cartons', 'frozen prawns, 12 cartons, -18 °C']));
    expect(before.examples).toEqual(['frozen peas, 4 cartons']);
  });

  it('knows an example it has, whatever its case and spacing: nothing changes', () => {
    const before = perishable();
    expect(teach(before, { example: 'Frozen  PEAS, 4 cartons' })).toEqual({ next: before, changed: false });
  });

  it.each([
    [{ example: '' }, 'A handling example needs the goods description, e.g. "frozen prawns, 12 cartons, -18 °C".', 'example'],
    [{}, 'A handling example needs the goods description, e.g. "frozen prawns, 12 cartons, -18 °C".', 'example'],
    [{ example: 12 }, 'A handling example needs the goods description, e.g. "frozen prawns, 12 cartons, -18 °C".', 'example'],
    [
      { example: 'x'.repeat(LONGEST_EXAMPLE + 1) },
      `An example of ${LONGEST_EXAMPLE + 1} characters is longer than the ${LONGEST_EXAMPLE} I learn from; give the goods description alone, e.g. "frozen prawns, 12 cartons".`,
      'example',
    ],
    [{ example: 'frozen peas', handling: 'perishable' }, 'A handling example takes example; "handling" is not one.', 'handling'],
    [
      { example: 'GLASS vases,  3 crates' },
      '"GLASS vases,  3 crates" is already an example of Fragile; take it back there first if it was wrong, since one description cannot teach two handlings.',
      'example',
    ],
  ])('refuses %j in its own words, naming the field', (value, sentence, field) => {
    const refusal = refusalOf(value);
    expect(refusal.message).toBe(sentence);
    expect(refusal.field).toBe(field);
  });

  it('takes an example of exactly the longest length', () => {
    expect(teach(perishable(), { example: 'y'.repeat(LONGEST_EXAMPLE) }).changed).toBe(true);
  });

  it('says what it learned and what it took back', () => {
    expect(perishable().describes({ example: 'frozen prawns' })).toBe('"frozen prawns" is an example of Perishable (cold chain) handling');
    expect(perishable().describesRetraction({ example: 'frozen peas' })).toBe('"frozen peas" is no longer an example of Perishable (cold chain) handling');
  });

  it('takes back the example it has (case and spacing aside), and nothing else', () => {
    const back = (entry: HandlingExamples, value: LessonValue) => entry.unlearn(entry.readValue(value));
    expect(back(perishable(), { example: 'FROZEN peas,  4 cartons' })).toEqual({ next: perishable([]), changed: true });
    const before = perishable();
    expect(back(before, { example: 'frozen prawns' })).toEqual({ next: before, changed: false });
  });

  it('comes back from storage as it went in', () => {
    const entry = perishable(['frozen peas', 'chilled cheese']);
    expect(handlingExamplesKind.fromState('perishable', JSON.parse(JSON.stringify(entry.toState())))).toEqual(entry);
    expect(handlingExamplesKind.create('livestock', 'Live animals')).toEqual(new HandlingExamples('livestock', 'Live animals', []));
  });

  it('refuses a seed that holds what no lesson could: an over-long example, or one example under two handlings', () => {
    expect(() => handlingExamplesKind.fromState('fragile', { label: 'Fragile', examples: ['z'.repeat(LONGEST_EXAMPLE + 1)] })).toThrow(
      'handling: "fragile" cannot be rebuilt from its state: examples.0: Too big',
    );
    expect(() => handlingExamplesKind.checkSeed!([fragile, new HandlingExamples('general', 'General cargo', ['Glass vases, 3 crates'])])).toThrow(
      'handling: "Glass vases, 3 crates" is an example of both "fragile" and "general"; keep it in one.',
    );
  });
});
