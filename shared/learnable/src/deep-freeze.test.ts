import { describe, expect, it } from 'vitest';
import { deepFreeze } from './learnable.ts';

describe('deepFreeze', () => {
  it('freezes everything reachable: array elements, nested objects, non-enumerable and symbol-keyed properties', () => {
    const hidden = { deep: [1] };
    const bySymbol = { deep: { x: 1 } };
    const symbol = Symbol('s');
    const value: Record<PropertyKey, unknown> = { list: [{ a: [{ b: 1 }] }], [symbol]: bySymbol };
    Object.defineProperty(value, 'hidden', { value: hidden, enumerable: false });
    deepFreeze(value);
    const list = value.list as { a: { b: number }[] }[];
    for (const frozen of [value, list, list[0], list[0]!.a, list[0]!.a[0], hidden, hidden.deep, bySymbol, bySymbol.deep]) {
      expect(Object.isFrozen(frozen)).toBe(true);
    }
  });
});
