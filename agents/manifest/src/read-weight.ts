import { parseAmount } from './parse-amount.ts';
import type { Cell } from './sheet-input.ts';

export type WeightUnit = 'kg' | 'lb';

/** A weight and its unit; `unit` is null when the sheet does not say, or says something other than kg or lb. */
export interface Weight {
  readonly value: number;
  readonly unit: WeightUnit | null;
}

const UNIT_WORDS: Readonly<Record<string, WeightUnit>> = {
  kg: 'kg',
  kgs: 'kg',
  kilo: 'kg',
  kilos: 'kg',
  kilogram: 'kg',
  kilograms: 'kg',
  lb: 'lb',
  lbs: 'lb',
  pound: 'lb',
  pounds: 'lb',
};

/** `KG`, `kgs`, `lbs.` and the like; null for any other word. */
export function unitOf(word: string): WeightUnit | null {
  return UNIT_WORDS[word.trim().toLowerCase().replaceAll('.', '')] ?? null;
}

/** The unit a heading states, as in `Gross Weight (kg)` or `Weight lbs`; null for `Gross Wt`. */
export function unitInHeading(heading: string): WeightUnit | null {
  for (const word of heading.toLowerCase().match(/[a-z]+/g) ?? []) {
    const unit = unitOf(word);
    if (unit) return unit;
  }
  return null;
}

const UNIT_HEADING = /^(unit|units|uom|u\/m|unit of measure|unit of weight|weight unit|wt unit)$/i;

/**
 * The column saying which unit each row's weight is in (`Unit`, `UOM`, …): the nearest one to
 * the right of the weight column, else the nearest to its left, never one read as a field.
 */
export function unitColumn(headings: readonly string[], weightAt: number, taken: ReadonlySet<number>): number | null {
  const candidates = headings.flatMap((heading, at) => (UNIT_HEADING.test(heading.trim()) && !taken.has(at) ? [at] : []));
  return candidates.find((at) => at > weightAt) ?? candidates.filter((at) => at < weightAt).pop() ?? null;
}

/**
 * A weight cell with its unit. A unit written in the cell (`12.5 kg`, `317.7KG`, `2,844.0 lbs`)
 * wins; otherwise `fallback`, the unit from the row's unit column or the heading.
 */
export function readWeight(cell: Cell, fallback: WeightUnit | null): Weight | null {
  if (cell === null) return null;
  if (typeof cell === 'number') return { value: cell, unit: fallback };
  const parts = cell.match(/^\s*(.*?\d)\s*([a-z][a-z.]*)?\s*$/i);
  const value = parts?.[1] === undefined ? null : parseAmount(parts[1]);
  if (value === null) return null;
  const word = parts?.[2];
  return { value, unit: word === undefined ? fallback : unitOf(word) };
}
