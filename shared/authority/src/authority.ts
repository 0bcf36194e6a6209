import { inSpan } from '@learnables/tracing';
import type { Definition, Learnable, LearnableKind } from '@learnables/learnable';
import { MalformedLesson, NotRetractable, UnknownCollection, absorbLesson, addEntry, defineCollection, removeEntry, retractValue } from '@learnables/learnable';
import type { Lesson, LessonOutcome, LessonValue, NewEntry, Retraction, RetractionOutcome } from '@learnables/protocol';
import { LessonSchema, NewEntrySchema, RetractionSchema, explainInvalid } from '@learnables/protocol';
import type { Activation, DefinitionStore, Snapshot, SnapshotChain, StoreWriter, StoredEntry, VersionReader } from './store/definition-store.ts';
import { UnknownVersion } from './errors.ts';
import { DEFAULT_COMMIT_WAIT_MS, checkedCommitWait, monotonicNow, waitOut } from './commit-wait.ts';
import type { VersionedDefinition } from './resolved-version.ts';
import { ResolvedVersion } from './resolved-version.ts';
import { VersionCache } from './version-cache.ts';

export type { VersionedDefinition } from './resolved-version.ts';

export interface RollbackRequest {
  readonly version: number;
  readonly author: string;
  readonly reason: string;
}

/** A rollback, with what it takes out of effect and what it brings back. */
export interface RollbackOutcome extends Activation {
  /** False when the version asked for was already active: nothing was recorded (SPEC §5.3). */
  readonly changed: boolean;
  /** The activations whose versions the rollback leaves behind (lessons, added entries, retractions), oldest first. */
  readonly undoes: Activation[];
  /** The activations whose versions it brings back, when rolling forward again; oldest first. */
  readonly restores: Activation[];
}

/** What a rollback would do, before anyone confirms it. */
export interface RollbackPreview {
  readonly collection: string;
  readonly from: number;
  readonly to: number;
  readonly undoes: Activation[];
  readonly restores: Activation[];
}

export interface AuthorityOptions {
  store: DefinitionStore;
  /** The learnable kinds served, one per collection; handed in where the service is composed. */
  kinds: readonly LearnableKind[];
  /** How many resolved versions to keep in memory (they never change, so any are safe to keep). */
  cacheSize?: number;
  /** Called after a version is published and before it is activated (used to test crash safety). */
  afterPublish?: (collection: string, version: number) => void | Promise<void>;
  /**
   * How long after committing an activation its writer is answered, in milliseconds (default
   * 25; 0 turns it off). The change feed announces it no sooner either, and `GET …/active`
   * advertises it, so an agent may reuse an answer of the active version for that long after
   * sending the request and still pin every activation acknowledged before its message (SPEC
   * §4.4). Every replica sharing a store must be given the same wait.
   */
  commitWaitMs?: number;
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
  /** How long after its commit an activation is acknowledged or announced (`AuthorityOptions.commitWaitMs`). */
  readonly commitWaitMs: number;

  constructor(options: AuthorityOptions) {
    this.store = options.store;
    this.kinds = new Map(options.kinds.map((kind) => [kind.collection, kind]));
    this.cache = new VersionCache(options.cacheSize ?? 64);
    this.afterPublish = options.afterPublish;
    this.commitWaitMs = checkedCommitWait(options.commitWaitMs ?? DEFAULT_COMMIT_WAIT_MS);
  }

  /**
   * Holds a write's answer until `commitWaitMs` after its commit returned (`committedAt`, on the
   * monotonic clock), when it changed the active version. Why: an agent reuses an answer of the
   * active version for up to that wait after it sent the request (SPEC §4.4). A writer told of its
   * activation at a ≥ c + W (c its commit) can only send a message that arrives at t ≥ a, so
   * t − W ≥ c; a request the agent sent at s with t − s < W was sent after c and reads it. The
   * wait is here, not in the HTTP layer, so in-process writers are held to it too; it is outside
   * the store's lock, so writers still follow one another as fast as they commit. Unchanged
   * answers wait for nothing: they activate nothing (like plain reads, they promise nothing
   * about what agents pin).
   */
  private async acknowledge(committedAt: number, changed: boolean): Promise<void> {
    if (changed) await waitOut(committedAt, this.commitWaitMs);
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
    // Checked on every start, seeded or not: a seed that breaks the rules is a mistake to fix now.
    // A seed is not held back by the commit wait: before version 1 there is no active version, so
    // no agent holds an answer older than it (a refusal is never reused).
    kind.checkSeed?.(definition.entries);
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
    return inSpan('learnables.lesson.write', { 'learnables.client': client }, async (span) => {
      const outcome = await this.absorbLesson(raw, client);
      span.setAttributes({
        'learnables.collection': outcome.collection,
        'learnables.entry': outcome.entry,
        'learnables.changed': outcome.changed,
        'learnables.version': outcome.version,
      });
      return outcome;
    });
  }

  private async absorbLesson(raw: unknown, client: string): Promise<LessonOutcome> {
    const parsed = LessonSchema.safeParse(raw);
    if (!parsed.success) throw new MalformedLesson(`That lesson cannot be read: ${explainInvalid(parsed.error)}.`);
    const lesson: Lesson = parsed.data;
    this.kindOf(lesson.collection);
    const { outcome, published } = await this.store.write(lesson.collection, async (tx) => {
      const active = await tx.latestActivation();
      if (!active) throw new UnknownCollection(lesson.collection, await this.store.collections());
      const current = await this.resolveWith(tx, lesson.collection, active.version);
      const absorbed = absorbLesson(current, lesson);
      const answer = { collection: lesson.collection, entry: lesson.entry, audit: absorbed.audit, ...(absorbed.says !== undefined && { says: absorbed.says }) };
      if (!absorbed.changed) return { outcome: { ...answer, changed: false, version: active.version } };
      const version = await this.publish(tx, lesson.collection, active.version, current, absorbed.definition);
      await tx.activate({
        version,
        kind: 'lesson',
        author: lesson.taughtBy,
        reason: lesson.reason,
        audit: absorbed.audit,
        ...(absorbed.says !== undefined && { says: absorbed.says }),
        client,
        entry: lesson.entry,
        value: lesson.value,
      });
      return { outcome: { ...answer, changed: true, version }, published: absorbed.definition };
    });
    const committedAt = monotonicNow();
    // Only once committed: a failed commit must not leave a version in the cache that another
    // writer may then publish under the same number with other content.
    if (published) this.cache.set(lesson.collection, outcome.version, { ...published, version: outcome.version });
    await this.acknowledge(committedAt, outcome.changed);
    return outcome;
  }

  /**
   * Add an empty entry (e.g. a new customer), made by the collection's kind, as a version of its
   * own (kind `entry-added`). Idempotent; a key taken by another label is refused.
   */
  async addEntry(raw: unknown, client: string): Promise<LessonOutcome> {
    const parsed = NewEntrySchema.safeParse(raw);
    if (!parsed.success) throw new MalformedLesson(`That new entry cannot be read: ${explainInvalid(parsed.error)}.`);
    const request: NewEntry = parsed.data;
    const kind = this.kindOf(request.collection);
    const { outcome, published } = await this.store.write(request.collection, async (tx) => {
      const active = await tx.latestActivation();
      if (!active) throw new UnknownCollection(request.collection, await this.store.collections());
      const current = await this.resolveWith(tx, request.collection, active.version);
      const added = addEntry(current, kind, request);
      const answer = { collection: request.collection, entry: added.entry, audit: added.audit };
      if (!added.changed) return { outcome: { ...answer, changed: false, version: active.version } };
      const version = await this.publish(tx, request.collection, active.version, current, added.definition);
      await tx.activate({
        version,
        kind: 'entry-added',
        author: request.taughtBy,
        reason: request.reason,
        audit: added.audit,
        client,
        entry: added.entry,
      });
      return { outcome: { ...answer, changed: true, version }, published: added.definition };
    });
    const committedAt = monotonicNow();
    if (published) this.cache.set(request.collection, outcome.version, { ...published, version: outcome.version });
    await this.acknowledge(committedAt, outcome.changed);
    return outcome;
  }

  /**
   * Retract the lesson that published a version: a new version from the active one with that
   * lesson's value taken out of its entry by the learnable, every other lesson kept. Taking back
   * what is no longer in effect (retracted already, or rolled back past) changes nothing.
   */
  async retract(raw: unknown, client: string): Promise<RetractionOutcome> {
    const parsed = RetractionSchema.safeParse(raw);
    if (!parsed.success) throw new MalformedLesson(`That retraction cannot be read: ${explainInvalid(parsed.error)}.`);
    const request: Retraction = parsed.data;
    const { collection, version: target } = request;
    const kind = this.kindOf(collection);
    const { outcome, published } = await this.store.write(collection, async (tx) => {
      const active = await tx.latestActivation();
      if (!active) throw new UnknownCollection(collection, await this.store.collections());
      const publisher = await tx.publisherOf(target);
      if (!publisher) throw new UnknownVersion(collection, target, await tx.latestVersion());
      const { activation: taught, value } = publisher;
      const entry = taught.entry ?? '';
      const unchanged = (audit: string) => ({
        outcome: { collection, entry, retracted: target, changed: false, version: active.version, audit },
        published: undefined,
      });
      if (taught.kind === 'seed') {
        throw new NotRetractable(`Version ${target} of ${collection} is its seed; roll back or teach instead of retracting it.`);
      }
      if (taught.kind === 'retraction') {
        throw new NotRetractable(`Version ${target} of ${collection} is itself a retraction; teach that lesson again to bring it back.`);
      }
      if (taught.kind === 'lesson' && (value === undefined || entry === '')) {
        throw new NotRetractable(
          `The lesson of version ${target} was taught before ${collection} kept lesson values, so it cannot be taken back alone; roll back instead.`,
        );
      }
      const lineage = (await this.cache.lineage(tx, collection, active.version)) ?? [];
      if (!lineage.includes(target)) {
        return unchanged(
          `Version ${target}'s ${taught.kind === 'lesson' ? 'lesson' : 'entry'} is not in effect: version ${active.version} is active and does not build on it, so there is nothing to take back.`,
        );
      }
      const since = new Set(lineage);
      if ((await tx.retractionsOf(target)).some((version) => since.has(version))) {
        return unchanged(`Version ${target}'s ${taught.kind === 'lesson' ? 'lesson was' : 'entry was'} retracted already; nothing changed.`);
      }
      const current = await this.resolveWith(tx, collection, active.version);
      const retracted = taught.kind === 'lesson' ? retractValue(current, entry, value as LessonValue) : removeEntry(current, kind, entry);
      if (!retracted.changed) return unchanged(retracted.audit);
      const version = await this.publish(tx, collection, active.version, current, retracted.definition);
      await tx.activate({
        version,
        kind: 'retraction',
        author: request.author,
        reason: request.reason,
        audit: retracted.audit,
        ...(retracted.says !== undefined && { says: retracted.says }),
        client,
        entry,
        retracts: target,
      });
      return {
        outcome: {
          collection,
          entry,
          retracted: target,
          changed: true,
          version,
          audit: retracted.audit,
          ...(retracted.says !== undefined && { says: retracted.says }),
        },
        published: retracted.definition,
      };
    });
    const committedAt = monotonicNow();
    if (published) this.cache.set(collection, outcome.version, { ...published, version: outcome.version });
    await this.acknowledge(committedAt, outcome.changed);
    return outcome;
  }

  /** Activate an earlier version. Nothing is deleted; the rollback is itself an activation. */
  async rollback(collection: string, request: RollbackRequest, client: string): Promise<RollbackOutcome> {
    this.kindOf(collection);
    const outcome = await this.store.write(collection, async (tx): Promise<RollbackOutcome> => {
      const active = await tx.latestActivation();
      if (!active) throw new UnknownCollection(collection, await this.store.collections());
      if (!(await tx.versionExists(request.version))) {
        throw new UnknownVersion(collection, request.version, await tx.latestVersion());
      }
      // Rolling back to the version in force changes nothing, so it records nothing (SPEC §5.3),
      // as posting a lesson already known does (§3.3).
      if (active.version === request.version) return { ...active, undoes: [], restores: [], changed: false };
      const { undoes, restores } = await this.rollbackEffect(tx, collection, active.version, request.version);
      const listed =
        undoes.length <= 20
          ? undoes.map((a) => a.version).join(', ')
          : `${undoes
              .slice(0, 20)
              .map((a) => a.version)
              .join(', ')} and ${undoes.length - 20} more`;
      const said = undoes.length === 0 ? '' : `, taking out version${undoes.length === 1 ? '' : 's'} ${listed}`;
      const activation = await tx.activate({
        version: request.version,
        kind: 'rollback',
        author: request.author,
        reason: request.reason,
        audit: `${collection} rolled back from version ${active.version} to version ${request.version}${said}`,
        client,
      });
      return { ...activation, undoes, restores, changed: true };
    });
    await this.acknowledge(monotonicNow(), outcome.changed);
    return outcome;
  }

  /** What rolling back to a version would take out of effect and bring back, without doing it. */
  async rollbackPreview(collection: string, version: number): Promise<RollbackPreview> {
    const active = await this.active(collection);
    const lineage = await this.cache.lineage(this.store, collection, version);
    if (lineage === undefined) throw new UnknownVersion(collection, version, this.cache.newestKnown(collection));
    const store = this.store;
    const reader = { ...pickReader(store), publishers: (versions: readonly number[]) => store.publishers(collection, versions) };
    const effect = await this.rollbackEffect(reader, collection, active.version, version);
    return { collection, from: active.version, to: version, ...effect };
  }

  private async rollbackEffect(
    reader: VersionReader & Pick<StoreWriter, 'publishers'>,
    collection: string,
    from: number,
    to: number,
  ): Promise<{ undoes: Activation[]; restores: Activation[] }> {
    const fromLine = (await this.cache.lineage(reader, collection, from)) ?? [];
    const toLine = (await this.cache.lineage(reader, collection, to)) ?? [];
    const keep = new Set(toLine);
    const had = new Set(fromLine);
    const leaving = fromLine.filter((v) => !keep.has(v));
    const coming = toLine.filter((v) => !had.has(v));
    // One after the other: inside a write, SQLite has one connection for both.
    const undoes = await reader.publishers(leaving);
    const restores = await reader.publishers(coming);
    return { undoes, restores };
  }

  /** Publish the next version, derived from the active one, holding only what changed. */
  private async publish(tx: StoreWriter, collection: string, parent: number, before: Definition, after: Definition): Promise<number> {
    const version = (await tx.latestVersion()) + 1;
    await tx.publish(version, parent, changedEntries(before, after), {
      size: after.entries.length,
      entries: () => after.entries.map((entry) => ({ key: entry.key, state: entry.toState() })),
    });
    await this.afterPublish?.(collection, version);
    return version;
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

  /**
   * The entries of version `to` that differ from version `from`, in `to`'s order, and how many
   * entries `to` has, when `from` is an ancestor of `to` not too far back; otherwise undefined
   * (then send the whole version). Builds only the entries that changed.
   */
  async changedSince(collection: string, from: number, to: number): Promise<{ entries: Learnable[]; size: number } | undefined> {
    const definition = await this.resolve(collection, to);
    // Cold, the lineage `to` was resolved along (back to its snapshot) usually reaches `from`; the
    // whole version tree (every version's row) is read only when it does not.
    let lineage = definition instanceof ResolvedVersion ? definition.lineage : undefined;
    if (lineage === undefined || !lineage.includes(from)) lineage = await this.cache.lineage(this.store, collection, to);
    const at = lineage?.indexOf(from) ?? -1;
    if (lineage === undefined || at < 0 || lineage.length - at - 1 > CHANGES_SINCE_LIMIT) return undefined;
    const pending = lineage.slice(at + 1);
    const keys = new Set<string>();
    for (const changed of (await this.store.deltas(collection, pending)).values()) for (const stored of changed) keys.add(stored.key);
    if (definition instanceof ResolvedVersion) return { entries: definition.pick(keys), size: definition.size };
    return { entries: definition.entries.filter((entry) => keys.has(entry.key)), size: definition.entries.length };
  }

  private async resolveWith(reader: VersionReader, collection: string, version: number): Promise<VersionedDefinition> {
    const cached = this.cache.get(collection, version);
    if (cached) return cached;
    const chain = await reader.snapshotChain(collection, version);
    const definition = (chain && (await this.resolveFromSnapshot(reader, collection, chain))) ?? (await this.resolveByWalking(reader, collection, version));
    this.cache.set(collection, version, definition);
    return definition;
  }

  /**
   * From the newest version of the lineage already in memory, or else from the lineage's snapshot,
   * apply the deltas of the versions after it: a bounded amount of reading however long the chain
   * behind the snapshot. Undefined if the snapshot is missing (then walk the whole chain).
   */
  private async resolveFromSnapshot(reader: VersionReader, collection: string, chain: SnapshotChain): Promise<VersionedDefinition | undefined> {
    const { lineage, deltas } = chain;
    let at = lineage.length - 1;
    while (at >= 0 && !this.cache.has(collection, lineage[at]!)) at -= 1;
    let base: Snapshot | Definition | undefined;
    if (at >= 0) {
      base = this.cache.get(collection, lineage[at]!)!;
    } else {
      base = await reader.snapshot(collection, lineage[0]!);
      if (!base) return undefined;
      at = 0;
    }
    const pending = lineage.slice(at + 1);
    return ResolvedVersion.overlay(
      this.kindOf(collection),
      lineage,
      base,
      pending.map((step) => deltas.get(step) ?? []),
    );
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
    const deltas = await reader.deltas(collection, pending);
    return ResolvedVersion.overlay(
      this.kindOf(collection),
      lineage,
      base ?? { collection, entries: [] },
      pending.map((step) => deltas.get(step) ?? []),
    );
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}

/** Beyond this many versions apart, the whole version is sent rather than what changed. */
const CHANGES_SINCE_LIMIT = 256;

const pickReader = (store: DefinitionStore): VersionReader => ({
  versions: (collection, since) => store.versions(collection, since),
  deltas: (collection, versions) => store.deltas(collection, versions),
  snapshotLineage: (collection, version) => store.snapshotLineage(collection, version),
  snapshotChain: (collection, version) => store.snapshotChain(collection, version),
  snapshot: (collection, version) => store.snapshot(collection, version),
});

/**
 * The entries a change replaced, added or removed: the control plane keeps every untouched entry
 * as the same object. A removed entry is stored with a null state.
 */
function changedEntries(before: Definition, after: Definition): StoredEntry[] {
  const was = new Map(before.entries.map((entry) => [entry.key, entry]));
  const changed: StoredEntry[] = after.entries.filter((entry) => was.get(entry.key) !== entry).map((entry) => ({ key: entry.key, state: entry.toState() }));
  const kept = new Set(after.entries.map((entry) => entry.key));
  for (const key of was.keys()) if (!kept.has(key)) changed.push({ key, state: null });
  return changed;
}
