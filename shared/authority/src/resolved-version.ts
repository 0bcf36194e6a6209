import type { Definition, Learnable, LearnableKind } from '@learnables/learnable';
import { deepFreeze } from '@learnables/learnable';
import type { Snapshot, StoredEntry } from './store/definition-store.ts';

/** A definition as of one version of its collection. */
export interface VersionedDefinition extends Definition {
  readonly version: number;
}

/** A state read from a delta, its learnable not built yet. */
class Unbuilt {
  constructor(readonly state: unknown) {}
}

/** Where an entry comes from: its place in the snapshot, a delta's state, or the learnable itself. */
type Slot = number | Unbuilt | Learnable;

/**
 * A version resolved from storage, whose learnables are built when first read rather than all at
 * once. A cold resolve of a 10,000-entry collection read its snapshot in a few milliseconds, then
 * spent longer building and freezing 10,000 learnables that a request for what changed since an
 * earlier version never looks at. The keys, their order and the count are known at once; each
 * entry is built (and deep-frozen) on its first read and is the same object every read after;
 * `entries` builds the rest, once, as one frozen array.
 *
 * Immutable as seen from outside: the object is frozen, and what it keeps in its private fields
 * is only what it has built so far of what it will always give.
 */
export class ResolvedVersion implements VersionedDefinition {
  readonly collection: string;
  readonly version: number;
  /** The versions it was built along, oldest first, ending with its own (from its snapshot when read from one). */
  readonly lineage: readonly number[];
  readonly #kind: LearnableKind;
  readonly #slots: Map<string, Slot>;
  readonly #snapshot: Snapshot | undefined;
  #entries: readonly Learnable[] | undefined;

  private constructor(kind: LearnableKind, lineage: readonly number[], slots: Map<string, Slot>, snapshot: Snapshot | undefined) {
    this.collection = kind.collection;
    this.version = lineage.at(-1)!;
    this.lineage = Object.freeze([...lineage]);
    this.#kind = kind;
    this.#slots = slots;
    this.#snapshot = snapshot;
    Object.freeze(this);
  }

  /**
   * The last version of `lineage`: the entries of `base` (a snapshot, or an ancestor already in
   * memory, both of the lineage) with each later version's changed entries applied in lineage order,
   * oldest first. A null state is a removal (an added entry retracted); an entry changed is kept in
   * its place, a new one goes last.
   */
  static overlay(
    kind: LearnableKind,
    lineage: readonly number[],
    base: Snapshot | Definition,
    changes: Iterable<readonly StoredEntry[]>,
  ): ResolvedVersion {
    let slots: Map<string, Slot>;
    let snapshot: Snapshot | undefined;
    if (base instanceof ResolvedVersion) {
      slots = new Map(base.#slots);
      snapshot = base.#snapshot;
    } else if ('keys' in base) {
      slots = new Map();
      for (let at = 0; at < base.keys.length; at += 1) slots.set(base.keys[at]!, at);
      snapshot = base;
    } else {
      slots = new Map(base.entries.map((entry) => [entry.key, entry]));
    }
    for (const changed of changes) {
      for (const stored of changed) {
        if (stored.state === null) slots.delete(stored.key);
        else slots.set(stored.key, new Unbuilt(stored.state));
      }
    }
    return new ResolvedVersion(kind, lineage, slots, snapshot);
  }

  /** How many entries the version has, without building any. */
  get size(): number {
    return this.#slots.size;
  }

  /** The entry under `key`, built (and frozen) on first read; undefined if the version has none. */
  entry(key: string): Learnable | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    if (typeof slot !== 'number' && !(slot instanceof Unbuilt)) return slot;
    const state = typeof slot === 'number' ? this.#snapshot!.state(slot) : slot.state;
    const built = deepFreeze(this.#kind.fromState(key, state));
    // Same key, so the entry keeps its place in the order.
    this.#slots.set(key, built);
    return built;
  }

  /** The entries whose keys are given, in the version's order; only those are built. */
  pick(keys: ReadonlySet<string>): Learnable[] {
    const out: Learnable[] = [];
    for (const key of this.#slots.keys()) if (keys.has(key)) out.push(this.entry(key)!);
    return out;
  }

  /** Every entry in the version's order: all built the first time, the same frozen array after. */
  get entries(): readonly Learnable[] {
    if (this.#entries === undefined) {
      const all: Learnable[] = [];
      for (const key of this.#slots.keys()) all.push(this.entry(key)!);
      this.#entries = Object.freeze(all);
    }
    return this.#entries;
  }
}
