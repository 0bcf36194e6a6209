import { describe, expect, it } from 'vitest';
import { parseAmount } from './parse-amount.ts';

describe('parseAmount', () => {
  it.each([
    ['19', 19],
    ['287.2', 287.2],
    ['134,8', 134.8],
    ['2,844.0', 2844],
    ['1,234', 1234],
    ['1,234,567', 1234567],
    ['1.234,5', 1234.5],
    ['1.234.567', 1234567],
    ['1 234,5', 1234.5],
    ['1\u00a0234,5', 1234.5],
    ["1'234.5", 1234.5],
    ['  -3 ', -3],
    ['.5', 0.5],
  ])('reads %j as %d', (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it.each(['', 'kg', '12 kg', '618-22208303', '1,2,3', '1.2.3,4,5', '2025-03-14', '--1', '1e5'])('does not take %j for a number', (text) => {
    expect(parseAmount(text)).toBeNull();
  });
});
