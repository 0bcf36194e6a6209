import type { Learnable, LearnableKind } from './learnable.ts';
import { deepFreeze } from './learnable.ts';

/**
 * One collection's entries, as of one version. Immutable: a lesson produces a new definition
 * and never touches this one, which tasks pinned to it may still be reading.
 */
export interface Definition<L extends Learnable<any> = Learnable> {
  readonly collection: string;
  readonly entries: readonly L[];
}

export function defineCollection<L extends Learnable<any>>(collection: string, entries: readonly L[]): Definition<L> {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.key)) throw new Error(`${collection} lists "${entry.key}" twice; every entry needs its own key.`);
    seen.add(entry.key);
  }
  return deepFreeze({ collection, entries: [...entries] });
}

export function findEntry<L extends Learnable<any>>(definition: Definition<L>, key: string): L | undefined {
  return definition.entries.find((entry) => entry.key === key);
}

// Entries arrays (frozen, one per version, shared by every copy of the definition) already found
// to be all of a kind's own: checked once per version, not at every read.
const checked = new WeakMap<readonly Learnable<any>[], Set<LearnableKind<any>>>();

/**
 * The definition, its entries typed as `kind` builds them. When the kind can tell its own entries
 * (`owns`, which `defineKind` gives it), each is checked, once per version: an entry of another
 * kind is a definition composed with the wrong kind, and throws naming the entry.
 */
export function ofKind<L extends Learnable<any>, D extends Definition<any>>(definition: D, kind: LearnableKind<L>): D & Definition<L> {
  if (definition.collection !== kind.collection) {
    throw new Error(`The "${definition.collection}" definition is not one of ${kind.collection}; look it up by its own kind.`);
  }
  const owns = kind.owns;
  if (owns !== undefined && !checked.get(definition.entries)?.has(kind)) {
    const stranger = definition.entries.find((entry: Learnable<any>) => !owns(entry));
    if (stranger !== undefined) {
      throw new Error(`"${stranger.key}" in ${definition.collection} was not built by its kind; build the definition with that kind's fromState or create.`);
    }
    const kinds = checked.get(definition.entries) ?? new Set();
    kinds.add(kind);
    checked.set(definition.entries, kinds);
  }
  return definition as D & Definition<L>;
}
