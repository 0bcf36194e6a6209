import type { LessonValue } from '@learnables/protocol';
import type { Absorbed } from './absorb-lesson.ts';
import type { Definition } from './definition.ts';
import { defineCollection } from './definition.ts';
import { NotRetractable } from './errors.ts';
import type { Learnable, LearnableKind } from './learnable.ts';
import { saysOf } from './learnable.ts';

/**
 * Take one lesson's value back out of its entry, leaving every other lesson where it is. The
 * learnable does the taking (`unlearn`) and says what it took, so this reads no key of the value.
 * An entry no longer there, or a value it no longer holds, answers changed: false.
 */
export function retractValue<L extends Learnable<any>>(definition: Definition<L>, entryKey: string, value: LessonValue): Absorbed<L> {
  const index = definition.entries.findIndex((entry) => entry.key === entryKey);
  const entry = definition.entries[index];
  if (entry === undefined) {
    return { definition, changed: false, audit: `${entryKey} is no longer in ${definition.collection}, so there is nothing to take back` };
  }
  const read = entry.readValue(value);
  const unlearned = entry.unlearn(read);
  const audit = entry.describesRetraction(read);
  // The words of the value taken back, so a history can say what no longer holds without it.
  const says = saysOf(entry, read);
  const words = says === undefined ? {} : { says };
  if (!unlearned.changed) return { definition, changed: false, audit, ...words };
  const next = unlearned.next as L;
  const entries = definition.entries.map((existing, i) => (i === index ? next : existing));
  return { definition: defineCollection(definition.collection, entries), changed: true, audit, ...words };
}

/**
 * Take an added entry back out. Only while it has been taught nothing: an entry that still holds
 * lessons is refused, since removing it would silently take those lessons with it. "Taught
 * nothing" is judged by comparing its stored state with a fresh one from the kind — no key read.
 */
export function removeEntry<L extends Learnable<any>>(definition: Definition<L>, kind: LearnableKind<L>, entryKey: string): Absorbed<L> {
  const entry = definition.entries.find((e) => e.key === entryKey);
  if (entry === undefined) {
    return { definition, changed: false, audit: `${entryKey} is no longer in ${definition.collection}, so there is nothing to take back` };
  }
  const fresh = kind.create(entry.key, entry.label);
  if (JSON.stringify(fresh.toState()) !== JSON.stringify(entry.toState())) {
    throw new NotRetractable(`${entryKey} has been taught since it was added; retract its lessons first, then the entry.`);
  }
  return {
    definition: defineCollection(
      definition.collection,
      definition.entries.filter((e) => e.key !== entryKey),
    ),
    changed: true,
    audit: `${definition.collection} no longer has ${entryKey} ("${entry.label}")`,
  };
}
