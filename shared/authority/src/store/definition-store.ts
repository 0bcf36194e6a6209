/** Why an active version changed. */
export type ActivationKind = 'seed' | 'lesson' | 'entry-added' | 'retraction' | 'rollback';

/** One change of a collection's active version, as the history shows it. */
export interface Activation {
  readonly id: number;
  readonly collection: string;
  readonly version: number;
  readonly kind: ActivationKind;
  /** Who: `taughtBy` of a lesson, or the person rolling back. */
  readonly author: string;
  readonly reason: string;
  /** The learnable's own sentence for the lesson; for a rollback or seed, the authority's. */
  readonly audit: string;
  /** The authenticated client that made the change. */
  readonly client: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** The entry a lesson, an added entry or a retraction is about. */
  readonly entry?: string;
  /** For a retraction: the version whose lesson (or added entry) it took back. */
  readonly retracts?: number;
  /** The learnable's words for the value a lesson taught or a retraction took back (SPEC §3.6). */
  readonly says?: string;
}

export type NewActivation = Omit<Activation, 'id' | 'at'> & {
  /** A lesson's value, stored opaque so the lesson can be retracted later. */
  readonly value?: unknown;
};

/** An entry's state as stored: opaque JSON that the collection's LearnableKind rebuilds. */
export interface StoredEntry {
  readonly key: string;
  readonly state: unknown;
}

export interface VersionRecord {
  readonly collection: string;
  readonly version: number;
  /** The version this one was derived from; its entries are inherited unless changed here. */
  readonly parent: number | null;
  readonly createdAt: number;
}

/**
 * What the authority needs from storage. Writes happen only inside `write`, which holds the
 * collection's lock for its whole duration, so a read-decide-write sequence cannot interleave
 * with another writer (on any replica sharing the store).
 */
export interface DefinitionStore extends VersionReader {
  readonly engine: 'sqlite' | 'postgres';
  collections(): Promise<string[]>;
  /** The latest activation, i.e. what is active now; undefined for an unknown collection. */
  latestActivation(collection: string): Promise<Activation | undefined>;
  /** The last activation made at or before `at`. */
  activationAt(collection: string, at: number): Promise<Activation | undefined>;
  /** Activations, newest first. */
  history(collection: string, options?: { limit?: number; before?: number }): Promise<Activation[]>;
  /** The activations that published the given versions (never rollbacks), oldest first. */
  publishers(collection: string, versions: readonly number[]): Promise<Activation[]>;
  write<T>(collection: string, work: (tx: StoreWriter) => Promise<T>): Promise<T>;
  /** Create a collection with its seed as version 1, unless it already exists. */
  seed(collection: string, entries: readonly StoredEntry[], activation: Omit<NewActivation, 'collection' | 'version' | 'kind'>): Promise<boolean>;
  /** Be told of every activation committed by any writer sharing this store (see engine notes). */
  onActivation(listener: (activation: Activation) => void): () => void;
  close(): Promise<void>;
}

/** Reading immutable versions; the writer offers it too, on the connection holding the lock. */
export interface VersionReader {
  /** The lineage of every version of a collection, oldest first. */
  versions(collection: string, sinceVersion?: number): Promise<VersionRecord[]>;
  /** The entries each of the given versions changed. */
  deltas(collection: string, versions: readonly number[]): Promise<Map<number, StoredEntry[]>>;
  /**
   * The lineage of `version` back to its nearest snapshot, oldest first (the snapshot's version
   * first, `version` last); at most a bounded number of steps. Undefined when the version is
   * unknown or was written before snapshots existed: then walk `versions` instead.
   */
  snapshotLineage(collection: string, version: number): Promise<number[] | undefined>;
  /**
   * `snapshotLineage` and the deltas of every version of it after the snapshot's, in one query
   * (what a cold resolve reads besides the snapshot). Undefined as `snapshotLineage` is.
   */
  snapshotChain(collection: string, version: number): Promise<SnapshotChain | undefined>;
  /** Every entry of a version that holds a snapshot; undefined if it holds none. */
  snapshot(collection: string, version: number): Promise<Snapshot | undefined>;
}

/** A version's lineage back to its snapshot, oldest first, with what each version after the snapshot's changed. */
export interface SnapshotChain {
  readonly lineage: number[];
  readonly deltas: Map<number, StoredEntry[]>;
}

/**
 * Every entry of a snapshotted version: the keys in the definition's order, each state read only
 * when asked for (a cold resolve needs the keys at once but only the states of entries it builds).
 */
export interface Snapshot {
  readonly keys: readonly string[];
  /** The state of `keys[at]`. */
  state(at: number): unknown;
}

/** The whole of a version being published, in case the store decides to snapshot it. */
export interface FullVersion {
  readonly size: number;
  entries(): readonly StoredEntry[];
}

/** Operations available while a collection's write lock is held. */
export interface StoreWriter extends VersionReader {
  /** The activation that published a version (seed, lesson, entry-added or retraction), with a lesson's value. */
  publisherOf(version: number): Promise<{ activation: Activation; value: unknown } | undefined>;
  /** The versions of the retractions that took back the given version's lesson. */
  retractionsOf(version: number): Promise<number[]>;
  /** As the store's `publishers`, for this collection, on the connection holding the lock. */
  publishers(versions: readonly number[]): Promise<Activation[]>;
  latestActivation(): Promise<Activation | undefined>;
  /** The highest version number ever published in the collection (not necessarily active). */
  latestVersion(): Promise<number>;
  versionExists(version: number): Promise<boolean>;
  /** Store a version's delta; every so often also a snapshot of all of it (`full`). */
  publish(version: number, parent: number, changed: readonly StoredEntry[], full: FullVersion): Promise<void>;
  activate(activation: Omit<NewActivation, 'collection'>): Promise<Activation>;
}
