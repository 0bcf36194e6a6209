import type { Lesson } from '@learnables/protocol';
import type { Definition } from './definition.ts';
import { defineCollection } from './definition.ts';
import { UnknownCollection, UnknownEntry } from './errors.ts';
import type { Learnable } from './learnable.ts';
import { saysOf } from './learnable.ts';

export interface Absorbed<L extends Learnable<any> = Learnable> {
  /** The definition after the lesson: the very same object when nothing changed. */
  readonly definition: Definition<L>;
  readonly changed: boolean;
  /** The learnable's sentence for this lesson, for the activation record. */
  readonly audit: string;
  /** The learnable's words for the value, when it has them (`Learnable.says`). */
  readonly says?: string;
}

/**
 * The control plane, and all of it: find the entry, let it learn, keep the result if it changed.
 * It knows no field of any value — the learnable does — so a new kind of lesson needs no change
 * here, and a refusal (`UnlearnableValue`) passes through with the learnable's words intact.
 */
export function absorbLesson<L extends Learnable<any>>(definition: Definition<L>, lesson: Lesson): Absorbed<L> {
  if (lesson.collection !== definition.collection) {
    throw new UnknownCollection(lesson.collection, [definition.collection]);
  }
  const index = definition.entries.findIndex((entry) => entry.key === lesson.entry);
  const entry = definition.entries[index];
  if (entry === undefined) {
    throw new UnknownEntry(
      lesson.collection,
      lesson.entry,
      definition.entries.map((e) => e.key),
    );
  }
  // Read once, with the learnable's own schema: `learn` and `describes` get the value it reads.
  const value = entry.readValue(lesson.value);
  const learned = entry.learn(
    value,
    definition.entries.filter((_, i) => i !== index),
  );
  // A learnable amends itself into its own kind; the base class cannot say so in TypeScript.
  const next = learned.next as L;
  const changed = learned.changed;
  const audit = next.describes(value);
  const says = saysOf(next, value);
  const words = says === undefined ? {} : { says };
  if (!changed) return { definition, changed: false, audit, ...words };
  const entries = definition.entries.map((existing, i) => (i === index ? next : existing));
  return { definition: defineCollection(definition.collection, entries), changed: true, audit, ...words };
}
