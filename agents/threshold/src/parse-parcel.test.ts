import { describe, expect, it } from 'vitest';
import type { InputPart } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';
import { parseParcel } from './parse-parcel.ts';

const text = (value: string): InputPart => ({ kind: 'text', text: value });
const data = (value: unknown): InputPart => ({ kind: 'data', data: value });

function refusalOf(parts: InputPart[]): string {
  try {
    parseParcel(parts);
  } catch (error) {
    expect(error).toBeInstanceOf(InputRefused);
    return (error as InputRefused).message;
  }
  throw new Error('expected a refusal, and the parcel was read');
}

describe('parseParcel', () => {
  it('reads a data part { category, weightKg }, the category in lower case', () => {
    expect(parseParcel([data({ category: 'Furniture', weightKg: 32 })])).toEqual({ category: 'furniture', weightKg: 32 });
  });

  it('prefers the data part to any text beside it', () => {
    expect(parseParcel([text('books 3'), data({ category: 'tyres', weightKg: '9.5' })])).toEqual({ category: 'tyres', weightKg: 9.5 });
  });

  it.each([
    ['furniture 32', { category: 'furniture', weightKg: 32 }],
    ['Furniture 32 kg', { category: 'furniture', weightKg: 32 }],
    ['furniture: 32.5kg', { category: 'furniture', weightKg: 32.5 }],
    ['furniture, 32', { category: 'furniture', weightKg: 32 }],
  ])('reads the text %j', (said, parcel) => {
    expect(parseParcel([text(said)])).toEqual(parcel);
  });

  it.each([
    [[], 'There is no parcel in this message. Send a parcel as data, {"category": "furniture", "weightKg": 32}, or as text such as "furniture 32".'],
    [
      [text('furniture')],
      '"furniture" is not a parcel I can read. Send a parcel as data, {"category": "furniture", "weightKg": 32}, or as text such as "furniture 32".',
    ],
    [[text('furniture 0')], 'A parcel weighs more than 0 kg, and this furniture parcel says 0 kg; weigh it again.'],
    [
      [data({ weightKg: 32 })],
      'This parcel has no category. Send a parcel as data, {"category": "furniture", "weightKg": 32}, or as text such as "furniture 32".',
    ],
    [
      [data({ category: 'books', weightKg: 'heavy' })],
      'This books parcel has no weight in kilograms. Send a parcel as data, {"category": "furniture", "weightKg": 32}, or as text such as "furniture 32".',
    ],
    [
      [{ kind: 'file', bytes: new Uint8Array([1]) } as InputPart],
      'There is no parcel in this message. Send a parcel as data, {"category": "furniture", "weightKg": 32}, or as text such as "furniture 32".',
    ],
  ])('refuses %j with a sentence', (parts, sentence) => {
    expect(refusalOf(parts)).toBe(sentence);
  });
});
