import { describe, expect, it } from 'vitest';
import { CustomerMarks } from '@learnables/email-agent';
import { ColumnMapping } from '@learnables/manifest-agent';
import { WeightLimit } from '@learnables/threshold-agent';
import type { Learnable } from '@learnables/learnable';
import { UnlearnableValue, absorbLesson, defineCollection } from '@learnables/learnable';
import type { Lesson, LessonValue } from '@learnables/protocol';
import { LessonSchema } from '@learnables/protocol';

const customers = () =>
  defineCollection('customers', [
    new CustomerMarks('northgate', 'Northgate Motors Ltd'),
    new CustomerMarks('brightwell', 'Brightwell Foods', [{ pattern: 'brightwell\\.example', where: 'from' }]),
  ]);
const mappings = () =>
  defineCollection('mappings', [
    new ColumnMapping('waybill', 'Waybill number', ['AWB', 'Waybill'], true),
    new ColumnMapping('consignee', 'Consignee', ['Consignee']),
  ]);

describe('one control plane for two learnables with nothing in common', () => {
  it("takes ColumnMapping's lesson down the same absorbLesson as CustomerMarks', in the learnable's words", () => {
    const mapped = absorbLesson(mappings(), {
      collection: 'mappings',
      entry: 'waybill',
      value: { column: 'Air Waybill No' },
      taughtBy: 'dana@warehouse.example',
      reason: 'the new forwarder heads it that way',
    });
    expect(mapped.changed).toBe(true);
    expect(mapped.audit).toBe("reads waybill from the 'Air Waybill No' column");
    expect((mapped.definition.entries[0] as ColumnMapping).columns).toEqual(['AWB', 'Waybill', 'Air Waybill No']);

    const marked = absorbLesson(customers(), {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: '<billing@origin\\.example>', where: 'from' },
      taughtBy: 'dana@warehouse.example',
      reason: "Northgate's billing desk sends the pre-alerts",
    });
    expect(marked.changed).toBe(true);
    expect(marked.audit).toBe("northgate learned: matches '<billing@origin\\.example>' in the from");
  });

  it("keeps RE2's reason, word for word, when a pattern cannot be used", () => {
    const attempt = () =>
      absorbLesson(customers(), {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: 'billing@origin\\.example(', where: 'from' },
        taughtBy: 'dana',
        reason: 'r',
      });
    expect(attempt).toThrow(UnlearnableValue);
    expect(attempt).toThrow('"billing@origin\\.example(" is not a usable pattern: missing )');
  });

  it('answers changed: false and hands back the same definition for a heading already known, case aside', () => {
    const before = mappings();
    const again = absorbLesson(before, { collection: 'mappings', entry: 'waybill', value: { column: ' awb ' }, taughtBy: 'd', reason: 'r' });
    expect(again).toMatchObject({ changed: false, audit: "reads waybill from the 'awb' column" });
    expect(again.definition).toBe(before);
  });
});

/**
 * The rule of construction: only the learnable reads named keys of a lesson's value. The value
 * is wrapped so that every key read is recorded along with whether the learnable's own code was
 * running at the time; validation at the wire boundary and the control plane must read none.
 */
describe('the lesson value is opaque to everything but its learnable', () => {
  function watchValue(value: LessonValue) {
    const outsideReads: PropertyKey[] = [];
    let insideLearnable = 0;
    const watched = new Proxy(value, {
      get(target, key, receiver) {
        if (insideLearnable === 0 && typeof key === 'string') outsideReads.push(key);
        return Reflect.get(target, key, receiver);
      },
      getOwnPropertyDescriptor(target, key) {
        if (insideLearnable === 0) outsideReads.push(key);
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    });
    /** Mark the learnable's own methods so reads made by them are allowed: its schema (`readValue`) is its own. */
    const trust = <L extends Learnable>(entry: L): L => {
      const readValue = entry.readValue.bind(entry);
      const learn = entry.learn.bind(entry);
      const describes = entry.describes.bind(entry);
      const during = <T>(work: () => T): T => {
        insideLearnable += 1;
        try {
          return work();
        } finally {
          insideLearnable -= 1;
        }
      };
      return Object.assign(Object.create(entry), {
        readValue: (v: LessonValue) => during(() => readValue(v)),
        learn: (v: LessonValue) => {
          const learned = during(() => learn(v));
          return { ...learned, next: trust(learned.next) };
        },
        describes: (v: LessonValue) => during(() => describes(v)),
      }) as L;
    };
    return { watched, outsideReads, trust };
  }

  for (const [name, build, entry, value] of [
    ['CustomerMarks', customers, 'northgate', { pattern: '<billing@origin\\.example>', where: 'from' }],
    ['ColumnMapping', mappings, 'waybill', { column: 'Air Waybill No' }],
    ['WeightLimit', () => defineCollection('weight-limits', [new WeightLimit('furniture', 'Furniture')]), 'furniture', { maxKg: '30' }],
  ] as const) {
    it(`no layer but ${name} itself reads a key of the value`, () => {
      const { watched, outsideReads, trust } = watchValue({ ...value });
      const definition = build();
      const trusted = defineCollection(
        definition.collection,
        definition.entries.map((e: Learnable) => trust(e)),
      );
      const lesson: Lesson = LessonSchema.parse({ collection: definition.collection, entry, value: watched, taughtBy: 'dana', reason: 'r' });
      const result = absorbLesson(trusted, lesson);
      expect(result.changed).toBe(true);
      expect(outsideReads).toEqual([]);
    });
  }

  it('would notice a layer that peeked (the watch itself can fail)', () => {
    const { watched, outsideReads } = watchValue({ pattern: 'x' });
    void (watched as Record<string, unknown>).pattern;
    expect(outsideReads).toEqual(['pattern']);
  });
});
