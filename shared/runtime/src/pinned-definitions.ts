import type { Definition, Learnable, LearnableKind } from '@learnables/learnable';
import { ofKind } from '@learnables/learnable';

/** One collection's definition at the version a task is pinned to. */
export type PinnedDefinition<L extends Learnable<any> = Learnable> = Definition<L> & { readonly version: number };

/** The definitions a task reads, each at the version it is pinned to, by collection. */
export interface PinnedDefinitions extends ReadonlyMap<string, PinnedDefinition> {
  /**
   * The definition of `kind`'s collection, its entries typed as the kind builds them. Throws when
   * the task is not pinned to that collection, or (once per version) when an entry is not the
   * kind's own: both are mistakes in composing the agent, not in its input.
   */
  of<L extends Learnable<any>>(kind: LearnableKind<L>): PinnedDefinition<L>;
}

class Pinned extends Map<string, PinnedDefinition> implements PinnedDefinitions {
  of<L extends Learnable<any>>(kind: LearnableKind<L>): PinnedDefinition<L> {
    const definition = this.get(kind.collection);
    if (definition === undefined) {
      throw new Error(
        `This task is not pinned to "${kind.collection}" (it reads ${[...this.keys()].join(', ') || 'nothing'}); list its kind in the agent's kinds.`,
      );
    }
    return ofKind(definition, kind);
  }
}

/** Definitions at their versions, keyed by their collections, for `read`, `answer` and `prepare`. */
export function pinDefinitions(definitions: Iterable<PinnedDefinition<any>>): PinnedDefinitions {
  return new Pinned([...definitions].map((definition) => [definition.collection, definition]));
}
