import { describe, expect, it } from 'vitest';
import { lessonPromise } from './honesty.ts';

describe('lessonPromise says no more than decidedBy allows', () => {
  it('promises the next message only under rules', () => {
    expect(lessonPromise('rules')).toContain('takes effect on the next message');
    for (const decidedBy of ['model', 'hybrid', 'oracle', '']) expect(lessonPromise(decidedBy)).not.toContain('takes effect on the next message');
  });

  it('calls a lesson one example among many under a model or a hybrid', () => {
    expect(lessonPromise('model')).toContain('one example among many');
    expect(lessonPromise('hybrid')).toContain('one example among many');
  });
});
