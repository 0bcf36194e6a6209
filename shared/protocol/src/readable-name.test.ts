import { describe, expect, it } from 'vitest';
import { unreadableIn } from './readable-name.ts';

describe('readable names', () => {
  it('accepts names people have, in any script', () => {
    for (const name of ['dana', 'Dana Ørsted', 'سارة', '李明', 'José-María O’Neil', 'emoji 👩‍🔧 ok']) expect(unreadableIn(name)).toBeUndefined();
  });
  it('says what is wrong with control characters, lone surrogates and direction overrides', () => {
    expect(unreadableIn('dana\nadmin')).toMatch(/control character/);
    expect(unreadableIn('tab\there')).toMatch(/control character/);
    expect(unreadableIn('\ud800')).toMatch(/broken character/);
    expect(unreadableIn('x\udc00y')).toMatch(/broken character/);
    expect(unreadableIn('dana\u202enimda')).toMatch(/direction/);
    expect(unreadableIn('a\u2066b')).toMatch(/direction/);
  });
});
