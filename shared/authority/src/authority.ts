import type { Definition, Learnable, LearnableKind } from '@learnables/learnable';
import { MalformedLesson, UnknownCollection, absorbLesson, defineCollection } from '@learnables/learnable';
import type { Lesson, LessonOutcome } from '@learnables/protocol';
import { LessonSchema, explainInvalid } from '@learnables/protocol';
import type { Activation, DefinitionStore, StoredEntry, VersionReader } from './store/definition-store.ts';
import { UnknownVersion } from './errors.ts';
import { VersionCache } from './version-cache.ts';

/** A definition as of one version of its collection. */
export interface VersionedDefinition extends Definition {
  readonly version: number;
}

export interface RollbackRequest {
  readonly version: number;
  readonly author: string;
  readonly reason: string;
}

export interface AuthorityOptions {
  store: DefinitionStore;
  /** The learnable kinds served, one per collection; handed in where the service is composed. */
  kinds: readonly LearnableKind[];
  /** How many resolved versions to keep in memory (they never change, so any are safe to keep). */
  cacheSize?: number;
  /** Called after a version is published and before it is activated (used to test crash safety). */
  afterPublish?: (collection: string, version: number) => void | Promise<void>;
}

/**
 * Where a lesson becomes a new immutable version, and where anyone can later ask which rules
 * were in force and who put them there.
 */
export class Authority {
  readonly store: DefinitionStore;
  private readonly kinds: Map<string, LearnableKind>;
  private readonly cache: VersionCache;
  private readonly afterPublish: AuthorityOptions['afterPublish'];

  constructor(options: AuthorityOptions) {
    this.store = options.store;
    this.kinds = new Map(options.kinds.map((kind) => [kind.collection, kind]));
    this.cache = new VersionCache(options.cacheSize ?? 64);
    this.afterPublish = options.afterPublish;
  }

  /** The collections this authority serves (those it has a kind for). */
  get collections(): string[] {
    return [...this.kinds.keys()];
  }

  private kindOf(collection: string): LearnableKind {
    const kind = this.kinds.get(collection);
    if (!kind) throw new UnknownCollection(collection, this.collections);
    return kind;
  }

  /** Load a collection's seed as version 1, unless the collection already exists. */
  async seed(collection: string, entries: Record<string, unknown>, source: string): Promise<boolean> {
    const kind = this.kindOf(collection);
    const definition = defineCollection(
      collection,
      Object.entries(entries).map(([key, state]) => kind.fromState(key, state)),
    );
    return this.store.seed(
      collection,
      definition.entries.map((entry) => ({ key: entry.key, state: entry.toState() })),
      { author: 'seed', reason: `loaded from ${source}`, audit: `${definition.entries.length} entries loaded`, client: 'seed' },
    );
  }

  /**
   * Absorb a lesson: under the collection's write lock, read the active version, run the
   * control plane, and if anything changed publish version N+1 and activate it — all in one
   * transaction, so no reader ever sees a version without its activation or the reverse.
   */
  async absorb(raw: unknown, client: string): Promise<LessonOutcome> {
    const parsed = LessonSchema.safeParse(raw);
    if (!parsed.success) throw new MalformedLesson(`That lesson cannot be read: ${explainInvalid(parsed.error)}.`);
    const lesson: Lesson = parsed.data;
    this.kindOf(lesson.collection);
    const { outcome, published } = await this.store.write(lesson.collection, async (tx) => {
      const active = await tx.latestActivation();
      if (!active) throw new UnknownCollection(lesson.collection, await this.store.collections());
      const current = await this.resolveWith(tx, lesson.collection, active.version);
      const absorbed = absorbLesson(current, lesson);
      const answer = { collection: lesson.collection, entry: lesson.entry, audit: absorbed.audit };
      if (!absorbed.changed) return { outcome: { ...answer, changed: false, version: active.version } };
      const version = (await tx.latestVersion()) + 1;
      const next = absorbed.definition;
      await tx.publish(version, active.version, changedEntries(current, next), {
        size: next.entries.length,
        entries: () => next.entries.map((entry) => ({ key: entry.key, state: entry.toState() })),
      });
      await this.afterPublish?.(lesson.collection, version);
      await tx.activate({
        version,
        kind: 'lesson',
        author: lesson.taughtBy,
        reason: lesson.reason,
        audit: absorbed.audit,
        client,
      });
      return { outcome: { ...answer, changed: true, version }, published: absorbed.definition };
    });
    // Only once committed: a failed commit must not leave a version in the cache that another
    // writer may then publish under the same number with other content.
    if (published) this.cache.set(lesson.collection, outcome.version, { ...published, version: outcome.version });
    return outcome;
  }

  /** Activate an earlier version. Nothing is deleted; the rollback is itself an activation. */
  async rollback(collection: string, request: RollbackRequest, client: string): Promise<Activation> {
    this.kindOf(collection);
    return this.store.write(collection, async (tx) => {
      const active = await tx.latestActivation();
      if (!active) throw new UnknownCollection(collection, await this.store.collections());
      if (!(await tx.versionExists(request.version))) {
        throw new UnknownVersion(collection, request.version, await tx.latestVersion());
      }
      return tx.activate({
        version: request.version,
        kind: 'rollback',
        author: request.author,
        reason: request.reason,
        audit: `${collection} rolled back from version ${active.version} to version ${request.version}`,
        client,
      });
    });
  }

  /** The active activation of a collection. */
  async active(collection: string): Promise<Activation> {
    this.kindOf(collection);
    const active = await this.store.latestActivation(collection);
    if (!active) throw new UnknownCollection(collection, await this.store.collections());
    return active;
  }

  /** The activation in force at a moment (epoch milliseconds); undefined before the seed. */
  async activeAt(collection: string, at: number): Promise<Activation | undefined> {
    this.kindOf(collection);
    return this.store.activationAt(collection, at);
  }

  async history(collection: string, options?: { limit?: number; before?: number }): Promise<Activation[]> {
    this.kindOf(collection);
    return this.store.history(collection, options);
  }

  /** The definition at a version. Versions never change, so the answer is cached freely. */
  async resolve(collection: string, version: number): Promise<VersionedDefinition> {
    this.kindOf(collection);
    return this.resolveWith(this.store, collection, version);
  }

  private async resolveWith(reader: VersionReader, collection: string, version: number): Promise<VersionedDefinition> {
    const cached = this.cache.get(collection, version);
    if (cached) return cached;
    const lineage = await reader.snapshotLineage(collection, version);
    const definition =
      (lineage && (await this.resolveFromSnapshot(reader, collection, version, lineage))) ??
      (await this.resolveByWalking(reader, collection, version));
    this.cache.set(collection, version, definition);
    return definition;
  }

  /**
   * From the newest version of the lineage already in memory, or else from the lineage's snapshot,
   * apply the deltas of the versions after it: a bounded amount of reading however long the chain
   * behind the snapshot. Undefined if the snapshot is missing (then walk the whole chain).
   */
  private async resolveFromSnapshot(
    reader: VersionReader,
    collection: string,
    version: number,
    lineage: readonly number[],
  ): Promise<VersionedDefinition | undefined> {
    const kind = this.kindOf(collection);
    let at = lineage.length - 1;
    while (at >= 0 && !this.cache.has(collection, lineage[at]!)) at -= 1;
    let entries: Map<string, Learnable>;
    if (at >= 0) {
      entries = new Map(this.cache.get(collection, lineage[at]!)!.entries.map((entry) => [entry.key, entry]));
    } else {
      const snapshot = await reader.snapshot(collection, lineage[0]!);
      if (!snapshot) return undefined;
      entries = new Map(snapshot.map((stored) => [stored.key, kind.fromState(stored.key, stored.state)]));
      at = 0;
    }
    const pending = lineage.slice(at + 1);
    applyDeltas(kind, entries, pending, await reader.deltas(collection, pending));
    return { ...defineCollection(collection, [...entries.values()]), version };
  }

  /** The way before snapshots (and for versions written before them): the whole ancestry. */
  private async resolveByWalking(reader: VersionReader, collection: string, version: number): Promise<VersionedDefinition> {
    const lineage = await this.cache.lineage(reader, collection, version);
    if (lineage === undefined) throw new UnknownVersion(collection, version, this.cache.newestKnown(collection));
    // Start from the nearest ancestor already resolved, then apply each later version's delta.
    let startAt = lineage.length;
    let base: VersionedDefinition | undefined;
    for (let i = lineage.length - 1; i >= 0; i -= 1) {
      base = this.cache.get(collection, lineage[i]!);
      if (base) {
        startAt = i + 1;
        break;
      }
    }
    const pending = base ? lineage.slice(startAt) : lineage;
    const entries = new Map(base?.entries.map((entry) => [entry.key, entry]));
    applyDeltas(this.kindOf(collection), entries, pending, await reader.deltas(collection, pending));
    return { ...defineCollection(collection, [...entries.values()]), version };
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}

/** Apply each version's changed entries in lineage order (oldest first). */
function applyDeltas(
  kind: LearnableKind,
  entries: Map<string, Learnable>,
  pending: readonly number[],
  deltas: Map<number, StoredEntry[]>,
): void {
  for (const step of pending) {
    for (const stored of deltas.get(step) ?? []) entries.set(stored.key, kind.fromState(stored.key, stored.state));
  }
}

/** The entries a lesson replaced: `absorbLesson` keeps every untouched entry as the same object. */
function changedEntries(before: Definition, after: Definition): StoredEntry[] {
  return after.entries
    .filter((entry, index) => entry !== before.entries[index])
    .map((entry) => ({ key: entry.key, state: entry.toState() }));
}
