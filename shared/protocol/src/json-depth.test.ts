import { describe, expect, it } from 'vitest';
import { LessonSchema, MAX_BODY_DEPTH, jsonNestsDeeperThan, refuseDeepJson } from './index.ts';

const nested = (levels: number): string => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('the depth of a request, counted on its text', () => {
  it('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
    expect(jsonNestsDeeperThan(nested(3), 3)).toBe(false);
    expect(jsonNestsDeeperThan(nested(4), 3)).toBe(true);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '[[[[[[{{{{', b: 'say \\"[[[[[["' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '\\', b: [[[1]]] }), 3)).toBe(true);
    expect(jsonNestsDeeperThan(new TextEncoder().encode(nested(30)), MAX_BODY_DEPTH)).toBe(true);
  });

  it('refuses a body deeper than MAX_BODY_DEPTH with a 400 the services answer in their own shape', () => {
    const deep = new TextEncoder().encode(`{"value":{"maxKg":${nested(5000)}}}`);
    expect(() => refuseDeepJson(undefined, undefined, deep)).toThrow(expect.objectContaining({ type: 'entity.too.deep', status: 400 }));
    expect(() => refuseDeepJson(undefined, undefined, new TextEncoder().encode(`{"value":{"maxKg":${nested(10)}}}`))).not.toThrow();
  });

  it('keeps the lesson schema from walking the value (only its learnable reads it)', () => {
    const reads: PropertyKey[] = [];
    const value = new Proxy(
      { maxKg: [[1]] },
      { get: (t, k, r) => (reads.push(k), Reflect.get(t, k, r)), getOwnPropertyDescriptor: (t, k) => (reads.push(k), Reflect.getOwnPropertyDescriptor(t, k)) },
    );
    LessonSchema.parse({ collection: 'c', entry: 'e', value, taughtBy: 't', reason: 'r' });
    expect(reads.filter((key) => typeof key === 'string')).toEqual([]);
  });
});
