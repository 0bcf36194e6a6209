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

/** What a version lays over an entry of its ground: a state from a delta, or its learnable once built. */
type Change = Unbuilt | Learnable;

/** A ground entry a version has removed (an added entry retracted), until it is added again. */
const REMOVED = Symbol('removed');

/** How many searches for places a ground answers by one pass over its keys before it indexes them. */
const SEARCHES_BEFORE_INDEX = 3;

/**
 * What versions are laid over: a snapshot's keys in order (each state parsed, and its learnable
 * built, when first read), or the entries of a definition already built. Shared by every version
 * resolved over it, as are the learnables it builds: a state never changes, so neither does the
 * learnable made from it. Its key → place index is built only once several searches ask for it:
 * a cold resolve needs the places of the few keys changed since the snapshot (and a request for
 * what changed since an earlier version, of a few more), which one pass over the keys finds at a
 * fraction of the cost of indexing 10,000 of them; versions laid over it one lesson after another
 * soon have it built.
 */
class Ground {
  readonly #kind: LearnableKind;
  readonly #state: ((at: number) => unknown) | undefined;
  readonly #built: (Learnable | undefined)[];
  #index: Map<string, number> | undefined;
  #searches = 0;

  private constructor(
    kind: LearnableKind,
    readonly keys: readonly string[],
    state: ((at: number) => unknown) | undefined,
    built: (Learnable | undefined)[],
  ) {
    this.#kind = kind;
    this.#state = state;
    this.#built = built;
  }

  static ofSnapshot(kind: LearnableKind, snapshot: Snapshot): Ground {
    return new Ground(kind, snapshot.keys, (at) => snapshot.state(at), new Array<Learnable | undefined>(snapshot.keys.length));
  }

  static ofEntries(kind: LearnableKind, entries: readonly Learnable[]): Ground {
    return new Ground(
      kind,
      entries.map((entry) => entry.key),
      undefined,
      [...entries],
    );
  }

  /** The learnable at a place, built (and frozen) on first read. */
  entryAt(at: number): Learnable {
    let built = this.#built[at];
    if (built === undefined) {
      built = deepFreeze(this.#kind.fromState(this.keys[at]!, this.#state!(at)));
      this.#built[at] = built;
    }
    return built;
  }

  /** The place of each of `keys` that the ground holds. */
  places(keys: ReadonlySet<string>): Map<string, number> {
    const out = new Map<string, number>();
    if (keys.size === 0) return out;
    this.#searches += 1;
    if (this.#index === undefined && this.#searches > SEARCHES_BEFORE_INDEX) {
      this.#index = new Map();
      for (let at = 0; at < this.keys.length; at += 1) if (!this.#index.has(this.keys[at]!)) this.#index.set(this.keys[at]!, at);
    }
    if (this.#index !== undefined) {
      for (const key of keys) {
        const at = this.#index.get(key);
        if (at !== undefined) out.set(key, at);
      }
    } else {
      for (let at = 0; at < this.keys.length; at += 1) {
        const key = this.keys[at]!;
        if (keys.has(key) && !out.has(key)) out.set(key, at);
      }
    }
    return out;
  }
}

/**
 * A version resolved from storage, whose learnables are built when first read rather than all at
 * once. A cold resolve of a 10,000-entry collection read its snapshot in a few milliseconds, then
 * spent longer building and freezing 10,000 learnables that a request for what changed since an
 * earlier version never looks at. The keys, their order and the count are known at once; each
 * entry is built (and deep-frozen) on its first read and is the same object every read after;
 * `entries` builds the rest, once, as one frozen array.
 *
 * A version is its ground (a snapshot, or the definition it was first laid over) and what the
 * versions since changed: the ground keys replaced or removed, and the keys added after them, in
 * the order added. It keeps no map of every key: indexing 10,000 keys was a third of a cold
 * resolve, and copying that map for each version a lesson made most of a warm one.
 *
 * Immutable as seen from outside: the object is frozen, and what it keeps in its private fields
 * is only what it has built so far of what it will always give.
 */
export class ResolvedVersion implements VersionedDefinition {
  readonly collection: string;
  readonly version: number;
  /** The versions it was built along, oldest first, ending with its own (from its snapshot when read from one). */
  readonly lineage: readonly number[];
  readonly size: number;
  readonly #kind: LearnableKind;
  readonly #ground: Ground;
  /** Ground keys replaced or removed since the ground. */
  readonly #over: Map<string, Change | typeof REMOVED>;
  /** Keys without a ground place of their own (new, or removed and added again), in the order added. */
  readonly #added: Map<string, Change>;
  #entries: readonly Learnable[] | undefined;

  private constructor(kind: LearnableKind, lineage: readonly number[], ground: Ground, over: Map<string, Change | typeof REMOVED>, added: Map<string, Change>) {
    this.collection = kind.collection;
    this.version = lineage.at(-1)!;
    this.lineage = Object.freeze([...lineage]);
    this.#ground = ground;
    this.#over = over;
    this.#added = added;
    let removed = 0;
    for (const change of over.values()) if (change === REMOVED) removed += 1;
    this.size = ground.keys.length - removed + added.size;
    this.#kind = kind;
    Object.freeze(this);
  }

  /**
   * The last version of `lineage`: the entries of `base` (a snapshot, or an ancestor already in
   * memory, both of the lineage) with each later version's changed entries applied in lineage order,
   * oldest first. A null state is a removal (an added entry retracted); an entry changed is kept in
   * its place, a new one goes last (and so does one removed and added again).
   */
  static overlay(kind: LearnableKind, lineage: readonly number[], base: Snapshot | Definition, changes: Iterable<readonly StoredEntry[]>): ResolvedVersion {
    let ground: Ground;
    let over: Map<string, Change | typeof REMOVED>;
    let added: Map<string, Change>;
    if (base instanceof ResolvedVersion) {
      ground = base.#ground;
      over = new Map(base.#over);
      added = new Map(base.#added);
    } else {
      ground = 'keys' in base ? Ground.ofSnapshot(kind, base) : Ground.ofEntries(kind, base.entries);
      over = new Map();
      added = new Map();
    }
    const steps = [...changes];
    // Which changed keys have a place in the ground: those already replaced or removed do; the
    // rest are searched for once, all together.
    const unknown = new Set<string>();
    for (const changed of steps) for (const stored of changed) if (!over.has(stored.key) && !added.has(stored.key)) unknown.add(stored.key);
    const grounded = ground.places(unknown);
    for (const changed of steps) {
      for (const { key, state } of changed) {
        if (added.has(key)) {
          if (state === null) added.delete(key);
          else added.set(key, new Unbuilt(state));
        } else if ((over.has(key) || grounded.has(key)) && over.get(key) !== REMOVED) {
          over.set(key, state === null ? REMOVED : new Unbuilt(state));
        } else if (state !== null) {
          added.set(key, new Unbuilt(state));
        }
      }
    }
    return new ResolvedVersion(kind, lineage, ground, over, added);
  }

  /** The entry under `key`, built (and frozen) on first read; undefined if the version has none. */
  entry(key: string): Learnable | undefined {
    if (this.#added.has(key)) return this.#built(this.#added, key);
    if (this.#over.has(key)) return this.#over.get(key) === REMOVED ? undefined : this.#built(this.#over, key);
    const at = this.#ground.places(new Set([key])).get(key);
    return at === undefined ? undefined : this.#ground.entryAt(at);
  }

  /** The change under `key` in `changes`, built on first read and kept there (same key, same place). */
  #built(changes: Map<string, Change | typeof REMOVED>, key: string): Learnable {
    const change = changes.get(key) as Change;
    if (!(change instanceof Unbuilt)) return change;
    const built = deepFreeze(this.#kind.fromState(key, change.state));
    changes.set(key, built);
    return built;
  }

  /** The entry at a ground place, or what the version laid over it; undefined if removed. */
  #atGround(at: number): Learnable | undefined {
    if (this.#over.size > 0) {
      const key = this.#ground.keys[at]!;
      const change = this.#over.get(key);
      if (change === REMOVED) return undefined;
      if (change !== undefined) return this.#built(this.#over, key);
    }
    return this.#ground.entryAt(at);
  }

  /** The entries whose keys are given, in the version's order; only those are built. */
  pick(keys: ReadonlySet<string>): Learnable[] {
    const out: Learnable[] = [];
    const places = [...this.#ground.places(new Set([...keys].filter((key) => !this.#added.has(key)))).values()].sort((a, b) => a - b);
    for (const at of places) {
      const entry = this.#atGround(at);
      if (entry !== undefined) out.push(entry);
    }
    for (const key of this.#added.keys()) if (keys.has(key)) out.push(this.#built(this.#added, key));
    return out;
  }

  /** Every entry in the version's order: all built the first time, the same frozen array after. */
  get entries(): readonly Learnable[] {
    if (this.#entries === undefined) {
      const all: Learnable[] = [];
      for (let at = 0; at < this.#ground.keys.length; at += 1) {
        const entry = this.#atGround(at);
        if (entry !== undefined) all.push(entry);
      }
      for (const key of this.#added.keys()) all.push(this.#built(this.#added, key));
      this.#entries = Object.freeze(all);
    }
    return this.#entries;
  }
}
