import type { NewEntry } from '@learnables/protocol';
import type { Absorbed } from './absorb-lesson.ts';
import type { Definition } from './definition.ts';
import { defineCollection } from './definition.ts';
import { entryKeyFor } from './entry-key.ts';
import { EntryExists, UnknownCollection } from './errors.ts';
import { labelAsRead } from './same-label.ts';
import type { Learnable, LearnableKind } from './learnable.ts';

export interface EntryAdded<L extends Learnable<any> = Learnable> extends Absorbed<L> {
  /** The new entry's key, as given or made from its label. */
  readonly entry: string;
}

/**
 * Add an empty entry, made by the collection's kind, so lessons can be taught to it. Idempotent:
 * an entry whose label reads the same (labelAsRead) changes nothing and is answered; a key taken
 * by an entry of another label is refused.
 */
export function addEntry<L extends Learnable<any>>(definition: Definition<L>, kind: LearnableKind<L>, request: NewEntry): EntryAdded<L> {
  if (request.collection !== definition.collection) throw new UnknownCollection(request.collection, [definition.collection]);
  const label = request.newEntry.label.trim();
  // The same customer twice is one entry (SPEC §3.5): a label that reads as an existing entry's
  // (case, spacing, punctuation, "Ltd"/"Limited": same-label.ts) is answered with that entry, under
  // whatever key, so a question never offers two identical choices.
  const read = labelAsRead(label);
  const alike = definition.entries.find((entry) => labelAsRead(entry.label) === read);
  if (alike) {
    const as = alike.label.trim() === label ? '' : `, which is how "${label}" reads`;
    return {
      definition,
      changed: false,
      audit: `${definition.collection} already has ${alike.key} ("${alike.label.trim()}")${as}; nothing was added`,
      entry: alike.key,
    };
  }
  const key = request.newEntry.key ?? entryKeyFor(label);
  const existing = definition.entries.find((entry) => entry.key === key);
  if (existing) throw new EntryExists(definition.collection, key, existing.label, label);
  const created = kind.create(key, label);
  return {
    definition: defineCollection(definition.collection, [...definition.entries, created]),
    changed: true,
    audit: `${definition.collection} gained ${key} ("${label}")`,
    entry: key,
  };
}
