import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DeclarationSchema, LessonSchema, TeachBlockSchema, explainInvalid, jsonSchemas } from './index.ts';

const emailDeclaration = {
  collection: 'customers',
  entry: 'customer',
  teaches: 'which customer a message belongs to',
  how: 'Every mark that matches scores; the highest score wins if it clears the margin.',
  decidedBy: 'rules',
  lessonFields: [
    { name: 'pattern', label: 'Text that gives it away', kind: 'text' },
    { name: 'where', label: 'Where to look', kind: 'choice', choices: ['from', 'subject'], default: 'from' },
  ],
  methods: { reread: { jsonrpc: 'learnables/reread', rest: '/learnables:reread' } },
};

describe('the published JSON Schemas', () => {
  it('are exactly what the zod schemas generate (run `pnpm schemas` after changing a schema)', () => {
    const folder = new URL('../schemas/', import.meta.url);
    const generated = jsonSchemas();
    const committed = readdirSync(folder).filter((f) => f.endsWith('.json'));
    expect(committed.sort()).toEqual(
      Object.keys(generated)
        .map((name) => `${name}.json`)
        .sort(),
    );
    for (const [name, schema] of Object.entries(generated)) {
      expect(readFileSync(new URL(`${name}.json`, folder), 'utf8'), `${name}.json is out of date`).toBe(`${JSON.stringify(schema, null, 2)}\n`);
    }
  });
});

describe('the declaration', () => {
  it('accepts a declaration with a how, a decidedBy and lesson fields', () => {
    expect(DeclarationSchema.safeParse(emailDeclaration).success).toBe(true);
  });

  it('refuses a declaration without a how, or with a blank one', () => {
    const { how: _, ...withoutHow } = emailDeclaration;
    expect(DeclarationSchema.safeParse(withoutHow).success).toBe(false);
    const blank = DeclarationSchema.safeParse({ ...emailDeclaration, how: '   ' });
    expect(blank.success).toBe(false);
    expect(explainInvalid(blank.error!)).toBe('how must not be empty');
  });

  it('names where reread is served: a declaration without methods is refused', () => {
    const { methods: _, ...withoutMethods } = emailDeclaration;
    expect(explainInvalid(DeclarationSchema.safeParse(withoutMethods).error!)).toBe('methods is missing');
  });

  it('accepts only rules, model or hybrid as decidedBy', () => {
    for (const decidedBy of ['rules', 'model', 'hybrid']) {
      expect(DeclarationSchema.safeParse({ ...emailDeclaration, decidedBy }).success).toBe(true);
    }
    expect(DeclarationSchema.safeParse({ ...emailDeclaration, decidedBy: 'magic' }).success).toBe(false);
  });

  it('accepts lesson fields of kinds nobody knows yet, but not a choice without choices', () => {
    const colour = { ...emailDeclaration, lessonFields: [{ name: 'shade', label: 'Shade', kind: 'colour' }] };
    expect(DeclarationSchema.safeParse(colour).success).toBe(true);
    const emptyChoice = { ...emailDeclaration, lessonFields: [{ name: 'where', label: 'Where', kind: 'choice' }] };
    const result = DeclarationSchema.safeParse(emptyChoice);
    expect(result.success).toBe(false);
    expect(explainInvalid(result.error!)).toContain("a field of kind 'choice' needs at least one choice");
  });
});

describe('the lesson', () => {
  it('passes the value through as the very same object, unopened and uncopied', () => {
    const value = { anything: 'at all', nested: { deep: [1, 2] } };
    const lesson = LessonSchema.parse({ collection: 'c', entry: 'e', value, taughtBy: 'dana', reason: 'because' });
    expect(lesson.value).toBe(value);
  });

  it('names every bad field in one sentence', () => {
    const result = LessonSchema.safeParse({ collection: 'customers', entry: 'northgate', value: 'billing@', taughtBy: '' });
    expect(result.success).toBe(false);
    expect(explainInvalid(result.error!)).toBe('value must be an object; taughtBy must not be empty; reason is missing');
  });
});

describe('the teach block', () => {
  it('carries the pinned version as a positive whole number', () => {
    const block = { collection: 'customers', question: 'Whose?', entries: [{ key: 'a', label: 'A' }], version: 3 };
    expect(TeachBlockSchema.safeParse(block).success).toBe(true);
    expect(TeachBlockSchema.safeParse({ ...block, version: 0 }).success).toBe(false);
  });
});

describe('explainInvalid', () => {
  it('says a field is missing, or what it must be', () => {
    const result = LessonSchema.safeParse({ collection: 7, entry: 'e', value: {}, reason: 'r' });
    expect(explainInvalid(result.error!)).toBe('collection must be a string; taughtBy is missing');
  });
});
