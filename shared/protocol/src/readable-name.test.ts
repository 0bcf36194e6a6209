import { describe, expect, it } from 'vitest';
import { nameProblem, readableName, unreadableIn } from './readable-name.ts';

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

describe('the name rule', () => {
  it('takes 1 to 120 characters once trimmed, and says what is wrong in words naming the field', () => {
    expect(nameProblem(' Dana ')).toBeUndefined();
    expect(nameProblem('x'.repeat(120))).toBeUndefined();
    expect(nameProblem('x'.repeat(121))).toBe('must be at most 120 characters');
    expect(nameProblem(' \t')).toBe('must not be empty');
    expect(nameProblem('dana\u202enimda')).toMatch(/^must not contain a character that changes the direction/);
    expect(readableName('taughtBy').parse('  Dana Ørsted ')).toBe('Dana Ørsted');
    const refused = readableName('taughtBy').safeParse('Evil\nkind: lesson author: admin');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual(['taughtBy must not contain a control character (such as a line break or tab)']);
  });
});
