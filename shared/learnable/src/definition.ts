import type { Learnable } from './learnable.ts';
import { deepFreeze } from './learnable.ts';

/**
 * One collection's entries, as of one version. Immutable: a lesson produces a new definition
 * and never touches this one, which tasks pinned to it may still be reading.
 */
export interface Definition<L extends Learnable = Learnable> {
  readonly collection: string;
  readonly entries: readonly L[];
}

export function defineCollection<L extends Learnable>(collection: string, entries: readonly L[]): Definition<L> {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.key)) throw new Error(`${collection} lists "${entry.key}" twice; every entry needs its own key.`);
    seen.add(entry.key);
  }
  return deepFreeze({ collection, entries: [...entries] });
}

export function findEntry<L extends Learnable>(definition: Definition<L>, key: string): L | undefined {
  return definition.entries.find((entry) => entry.key === key);
}
