import type { NewEntry } from '@learnables/protocol';
import type { Absorbed } from './absorb-lesson.ts';
import type { Definition } from './definition.ts';
import { defineCollection } from './definition.ts';
import { entryKeyFor } from './entry-key.ts';
import { EntryExists, UnknownCollection } from './errors.ts';
import type { Learnable, LearnableKind } from './learnable.ts';

export interface EntryAdded<L extends Learnable<any> = Learnable> extends Absorbed<L> {
  /** The new entry's key, as given or made from its label. */
  readonly entry: string;
}

/**
 * Add an empty entry, made by the collection's kind, so lessons can be taught to it. Idempotent:
 * an entry of that key and label already there changes nothing; one of another label is refused.
 */
export function addEntry<L extends Learnable<any>>(definition: Definition<L>, kind: LearnableKind<L>, request: NewEntry): EntryAdded<L> {
  if (request.collection !== definition.collection) throw new UnknownCollection(request.collection, [definition.collection]);
  const label = request.newEntry.label.trim();
  const key = request.newEntry.key ?? entryKeyFor(label);
  const existing = definition.entries.find((entry) => entry.key === key);
  if (existing) {
    if (existing.label.trim() !== label) throw new EntryExists(definition.collection, key, existing.label, label);
    return { definition, changed: false, audit: `${definition.collection} already has ${key} ("${label}")`, entry: key };
  }
  const created = kind.create(key, label);
  return {
    definition: defineCollection(definition.collection, [...definition.entries, created]),
    changed: true,
    audit: `${definition.collection} gained ${key} ("${label}")`,
    entry: key,
  };
}
