import { describe, expect, it } from 'vitest';
import { readWeight, unitColumn, unitInHeading, unitOf } from './read-weight.ts';

describe('unitInHeading', () => {
  it.each([
    ['Gross Weight (kg)', 'kg'],
    ['Weight (KGS)', 'kg'],
    ['Weight lbs', 'lb'],
    ['Wt [pounds]', 'lb'],
    ['Gross Wt', null],
    ['Weight', null],
  ])('%s → %s', (heading, unit) => {
    expect(unitInHeading(heading)).toBe(unit);
  });
});

describe('unitOf', () => {
  it('knows kg and lb however they are written, and nothing else', () => {
    expect(['KG', 'kgs', 'Kilos', 'lb', 'LBS.', 'pounds'].map(unitOf)).toEqual(['kg', 'kg', 'kg', 'lb', 'lb', 'lb']);
    expect(['t', 'cbm', ''].map(unitOf)).toEqual([null, null, null]);
  });
});

describe('unitColumn', () => {
  it('is the nearest unit column right of the weight, else left of it', () => {
    expect(unitColumn(['Pcs', 'Unit', 'Weight', 'Unit'], 2, new Set())).toBe(3);
    expect(unitColumn(['Weight', 'UOM', 'Goods'], 0, new Set())).toBe(1);
    expect(unitColumn(['UOM', 'Weight'], 1, new Set())).toBe(0);
  });

  it('is never a column read as a field, and null when there is none', () => {
    expect(unitColumn(['Weight', 'Unit'], 0, new Set([1]))).toBeNull();
    expect(unitColumn(['Weight', 'Goods'], 0, new Set())).toBeNull();
  });
});

describe('readWeight', () => {
  it.each([
    ['374.8 kg', { value: 374.8, unit: 'kg' }],
    ['109.8 lb', { value: 109.8, unit: 'lb' }],
    ['317.7KG', { value: 317.7, unit: 'kg' }],
    ['2,844.0 lbs', { value: 2844, unit: 'lb' }],
    ['134,8', { value: 134.8, unit: 'kg' }],
    ['12 cbm', { value: 12, unit: null }],
  ])('reads the cell %j, its own unit first', (cell, weight) => {
    expect(readWeight(cell, 'kg')).toEqual(weight);
  });

  it('gives a number cell the fallback unit, or none', () => {
    expect(readWeight(52, 'lb')).toEqual({ value: 52, unit: 'lb' });
    expect(readWeight(52, null)).toEqual({ value: 52, unit: null });
  });

  it('reads no weight from an empty cell or one with no number', () => {
    expect(readWeight(null, 'kg')).toBeNull();
    expect(readWeight('n/a', 'kg')).toBeNull();
  });
});
