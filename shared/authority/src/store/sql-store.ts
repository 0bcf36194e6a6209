import { inSpan } from '@learnables/tracing';
import { EventEmitter } from 'node:events';
import type { Kysely, Transaction } from 'kysely';
import { Migrator, sql } from 'kysely';
import type pg from 'pg';
import type {
  Activation,
  ActivationKind,
  DefinitionStore,
  FullVersion,
  NewActivation,
  Snapshot,
  SnapshotChain,
  StoreWriter,
  StoredEntry,
  VersionRecord,
} from './definition-store.ts';
import type { Engine } from './migrations.ts';
import { authorityMigrations } from './migrations.ts';
import type { AuthorityTables } from './tables.ts';

type Db = Kysely<AuthorityTables> | Transaction<AuthorityTables>;

/**
 * When a version also stores a snapshot: once more delta rows than this have been written on its
 * lineage since the last snapshot. A snapshot costs about `size` rows, so snapshots add at most
 * 8 rows of storage per changed entry (storage stays proportional to the changes), and resolving
 * any version reads one snapshot plus at most size/8 (at least 64) delta rows.
 */
export const snapshotEvery = (size: number): number => Math.max(64, Math.ceil(size / 32));

/** The Postgres channel activations are announced on, so every replica hears every write. */
const CHANNEL = 'learnables_activations';

interface ActivationRow {
  id: number | string;
  collection: string;
  version: number;
  kind: string;
  author: string;
  reason: string;
  audit: string;
  client: string;
  at: number | string;
  entry?: string | null;
  value?: string | null;
  retracts?: number | null;
  says?: string | null;
}

// pg returns bigint columns as strings; the values here are ids and epoch milliseconds.
const toActivation = (row: ActivationRow): Activation => ({
  id: Number(row.id),
  collection: row.collection,
  version: row.version,
  kind: row.kind as ActivationKind,
  author: row.author,
  reason: row.reason,
  audit: row.audit,
  client: row.client,
  at: Number(row.at),
  ...(row.entry != null && { entry: row.entry }),
  ...(row.retracts != null && { retracts: Number(row.retracts) }),
  ...(row.says != null && { says: row.says }),
});

export interface SqlStoreOptions {
  engine: Engine;
  db: Kysely<AuthorityTables>;
  /** Postgres only: a dedicated client for LISTEN, so activations on other replicas reach us. */
  listener?: () => Promise<pg.Client>;
  /** SQLite only: the database file, so writers in one process queue instead of blocking. */
  file?: string;
  /** How many delta rows after a snapshot call for the next one (tests make it small). */
  snapshotEvery?: (size: number) => number;
}

/**
 * One queue of SQLite writers per file per process. better-sqlite3 is synchronous: a second
 * connection in the same process waiting on SQLite's busy timeout would block the event loop,
 * and with it the writer holding the lock — a deadlock. Writers in other processes still meet
 * SQLite's own lock and busy timeout, which is safe because they run on their own threads.
 */
const sqliteWriteQueues = new Map<string, Promise<unknown>>();

function queueSqliteWrite<T>(file: string, work: () => Promise<T>): Promise<T> {
  const previous = sqliteWriteQueues.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  const settled = next.catch(() => undefined);
  sqliteWriteQueues.set(file, settled);
  void settled.then(() => {
    if (sqliteWriteQueues.get(file) === settled) sqliteWriteQueues.delete(file);
  });
  return next;
}

/**
 * The definition store on SQL, one implementation for both engines. What differs is only how a
 * collection is locked for writing (SQLite: `BEGIN IMMEDIATE` on its single connection;
 * Postgres: `SELECT … FOR UPDATE` on the collection's row) and how activations are announced.
 */
export class SqlStore implements DefinitionStore {
  readonly engine: Engine;
  private readonly db: Kysely<AuthorityTables>;
  private readonly file: string;
  private readonly events = new EventEmitter();
  private readonly snapshotEvery: (size: number) => number;
  private listenClient: pg.Client | undefined;
  private closing = false;

  private constructor(options: SqlStoreOptions) {
    this.engine = options.engine;
    this.db = options.db;
    this.file = options.file ?? ':memory:';
    this.snapshotEvery = options.snapshotEvery ?? snapshotEvery;
    this.events.setMaxListeners(0);
  }

  static async open(options: SqlStoreOptions): Promise<SqlStore> {
    const store = new SqlStore(options);
    const { error } = await new Migrator({
      db: options.db,
      provider: authorityMigrations(options.engine),
      migrationTableName: 'authority_migrations',
      migrationLockTableName: 'authority_migrations_lock',
    }).migrateToLatest();
    if (error) throw new Error(`The authority could not prepare its tables: ${String(error)}`, { cause: error });
    if (options.listener) await store.listen(options.listener);
    return store;
  }

  private async listen(connect: () => Promise<pg.Client>): Promise<void> {
    const client = await connect();
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      this.events.emit('activation', JSON.parse(message.payload) as Activation);
    });
    // A lost LISTEN connection would silently stop the feed: report it and listen again.
    let lost = false;
    const relisten = (error?: Error) => {
      if (lost || this.closing) return;
      lost = true;
      this.events.emit('feed-error', error ?? new Error('the LISTEN connection closed'));
      const retry = () => {
        if (this.closing) return;
        this.listen(connect).catch(() => setTimeout(retry, 1000).unref());
      };
      setTimeout(retry, 250).unref();
    };
    client.on('error', relisten);
    client.on('end', () => relisten());
    await client.query(`LISTEN ${CHANNEL}`);
    this.listenClient = client;
  }

  async collections(): Promise<string[]> {
    const rows = await this.db.selectFrom('authority_collections').select('name').orderBy('name').execute();
    return rows.map((row) => row.name);
  }

  versions(collection: string, sinceVersion = 0): Promise<VersionRecord[]> {
    return readVersions(this.db, collection, sinceVersion);
  }

  deltas(collection: string, versions: readonly number[]): Promise<Map<number, StoredEntry[]>> {
    return readDeltas(this.db, collection, versions);
  }

  snapshotLineage(collection: string, version: number): Promise<number[] | undefined> {
    return readSnapshotLineage(this.db, collection, version);
  }

  snapshotChain(collection: string, version: number): Promise<SnapshotChain | undefined> {
    return readSnapshotChain(this.db, collection, version);
  }

  snapshot(collection: string, version: number): Promise<Snapshot | undefined> {
    return readSnapshot(this.db, collection, version);
  }

  async latestActivation(collection: string): Promise<Activation | undefined> {
    return readLatestActivation(this.db, collection);
  }

  async activationAt(collection: string, at: number): Promise<Activation | undefined> {
    const row = await this.db
      .selectFrom('authority_activations')
      .selectAll()
      .where('collection', '=', collection)
      .where('at', '<=', at)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && toActivation(row);
  }

  async history(collection: string, options: { limit?: number; before?: number } = {}): Promise<Activation[]> {
    let query = this.db
      .selectFrom('authority_activations')
      .selectAll()
      .where('collection', '=', collection)
      .orderBy('id', 'desc')
      .limit(options.limit ?? 100);
    if (options.before !== undefined) query = query.where('id', '<', options.before);
    return (await query.execute()).map(toActivation);
  }

  async publishers(collection: string, versions: readonly number[]): Promise<Activation[]> {
    return readPublishers(this.db, collection, versions);
  }

  async write<T>(collection: string, work: (tx: StoreWriter) => Promise<T>): Promise<T> {
    const announced: Activation[] = [];
    const result =
      this.engine === 'sqlite'
        ? await queueSqliteWrite(this.file, () =>
            this.db.connection().execute(async (connection) => {
              // IMMEDIATE takes the write lock before the first read, so two writers (even in two
              // processes on one file) cannot both read version N and both publish N+1.
              await sql`begin immediate`.execute(connection);
              try {
                const value = await work(this.writer(connection, collection, announced));
                await sql`commit`.execute(connection);
                return value;
              } catch (error) {
                await sql`rollback`.execute(connection);
                throw error;
              }
            }),
          )
        : await this.db.transaction().execute(async (tx) => {
            await sql`select name from authority_collections where name = ${collection} for update`.execute(tx);
            return work(this.writer(tx, collection, announced));
          });
    // Postgres announces through NOTIFY (delivered on commit, to every replica, us included).
    if (this.engine === 'sqlite') {
      for (const activation of announced) {
        inSpan(
          'learnables.changes.publish',
          {
            'learnables.collection': activation.collection,
            'learnables.version': activation.version,
            'learnables.activation.kind': activation.kind,
            'db.system.name': 'sqlite',
          },
          () => this.events.emit('activation', activation),
        );
      }
    }
    return result;
  }

  private writer(db: Db, collection: string, announced: Activation[]): StoreWriter {
    return {
      versions: (name, since) => readVersions(db, name, since),
      deltas: (name, versions) => readDeltas(db, name, versions),
      snapshotLineage: (name, version) => readSnapshotLineage(db, name, version),
      snapshotChain: (name, version) => readSnapshotChain(db, name, version),
      snapshot: (name, version) => readSnapshot(db, name, version),
      latestActivation: () => readLatestActivation(db, collection),
      latestVersion: async () => {
        const row = await db
          .selectFrom('authority_versions')
          .select((eb) => eb.fn.max('version').as('latest'))
          .where('collection', '=', collection)
          .executeTakeFirst();
        return Number(row?.latest ?? 0);
      },
      versionExists: async (version) =>
        (await db.selectFrom('authority_versions').select('version').where('collection', '=', collection).where('version', '=', version).executeTakeFirst()) !==
        undefined,
      publish: async (version, parent, changed, full) => {
        const from = await readBase(db, collection, parent);
        const since = (from?.since_base ?? 0) + changed.length;
        // A parent from before snapshots (no base) gets its lineage a snapshot now.
        if (from?.base == null || since > this.snapshotEvery(full.size)) {
          await insertVersion(db, collection, version, parent, changed, { base: version, since: 0 });
          await insertSnapshot(db, collection, version, full.entries());
        } else {
          await insertVersion(db, collection, version, parent, changed, { base: from.base, since });
        }
      },
      publisherOf: async (version) => {
        const row = await db
          .selectFrom('authority_activations')
          .selectAll()
          .where('collection', '=', collection)
          .where('version', '=', version)
          .where('kind', '!=', 'rollback')
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        return row && { activation: toActivation(row), value: row.value == null ? undefined : JSON.parse(row.value) };
      },
      publishers: (versions) => readPublishers(db, collection, versions),
      retractionsOf: async (version) => {
        const rows = await db
          .selectFrom('authority_activations')
          .select('version')
          .where('collection', '=', collection)
          .where('kind', '=', 'retraction')
          .where('retracts', '=', version)
          .execute();
        return rows.map((row) => row.version);
      },
      activate: async (activation) => {
        const stored = await insertActivation(db, { ...activation, collection });
        if (this.engine === 'postgres') {
          await inSpan(
            'learnables.changes.publish',
            {
              'learnables.collection': collection,
              'learnables.version': stored.version,
              'learnables.activation.kind': stored.kind,
              'db.system.name': 'postgresql',
            },
            () => sql`select pg_notify(${CHANNEL}, ${JSON.stringify(stored)})`.execute(db),
          );
        }
        announced.push(stored);
        return stored;
      },
    };
  }

  async seed(collection: string, entries: readonly StoredEntry[], activation: Omit<NewActivation, 'collection' | 'version' | 'kind'>): Promise<boolean> {
    const seedOnce = () =>
      this.db.transaction().execute(async (tx) => {
        const inserted = await tx
          .insertInto('authority_collections')
          .values({ name: collection, created_at: Date.now() })
          .onConflict((oc) => oc.column('name').doNothing())
          .executeTakeFirst();
        // Another replica seeding at the same moment wins; we keep what it wrote.
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return undefined;
        await insertVersion(tx, collection, 1, null, entries, { base: 1, since: 0 });
        await insertSnapshot(tx, collection, 1, entries);
        const stored = await insertActivation(tx, { ...activation, collection, version: 1, kind: 'seed' });
        if (this.engine === 'postgres') await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(stored)})`.execute(tx);
        return stored;
      });
    const created = this.engine === 'sqlite' ? await queueSqliteWrite(this.file, seedOnce) : await seedOnce();
    if (created && this.engine === 'sqlite') this.events.emit('activation', created);
    return created !== undefined;
  }

  onActivation(listener: (activation: Activation) => void): () => void {
    this.events.on('activation', listener);
    return () => this.events.off('activation', listener);
  }

  /** Errors of the change feed (e.g. a lost LISTEN connection, which is re-established). */
  onFeedError(listener: (error: Error) => void): () => void {
    this.events.on('feed-error', listener);
    return () => this.events.off('feed-error', listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listenClient?.end();
    await this.db.destroy();
  }
}

async function readVersions(db: Db, collection: string, sinceVersion = 0): Promise<VersionRecord[]> {
  const rows = await db
    .selectFrom('authority_versions')
    .select(['collection', 'version', 'parent', 'created_at'])
    .where('collection', '=', collection)
    .where('version', '>', sinceVersion)
    .orderBy('version')
    .execute();
  return rows.map((row) => ({
    collection: row.collection,
    version: row.version,
    parent: row.parent,
    createdAt: Number(row.created_at),
  }));
}

async function readDeltas(db: Db, collection: string, versions: readonly number[]): Promise<Map<number, StoredEntry[]>> {
  const out = new Map<number, StoredEntry[]>(versions.map((version) => [version, []]));
  // Chunked so a long lineage never exceeds a driver's parameter limit.
  for (let start = 0; start < versions.length; start += 5000) {
    const chunk = versions.slice(start, start + 5000);
    const rows = await db
      .selectFrom('authority_entries')
      .select(['version', 'entry_key', 'state'])
      .where('collection', '=', collection)
      .where('version', 'in', chunk)
      .execute();
    for (const row of rows) out.get(row.version)?.push({ key: row.entry_key, state: JSON.parse(row.state) });
  }
  return out;
}

/** See `VersionReader.snapshotLineage`: one recursive query up the parents to the base. */
async function readSnapshotLineage(db: Db, collection: string, version: number): Promise<number[] | undefined> {
  const { rows } = await sql<{ version: number; base: number | null }>`
    with recursive chain(version, parent, base) as (
      select version, parent, base from authority_versions where collection = ${collection} and version = ${version}
      union all
      select v.version, v.parent, v.base from authority_versions v
        join chain c on v.collection = ${collection} and v.version = c.parent
        where c.version <> c.base
    )
    select version, base from chain order by version`.execute(db);
  // A parent is always older than its child, so by number the lineage runs base … version.
  const base = rows.at(-1)?.base;
  if (base == null) return undefined;
  const lineage = rows.map((row) => row.version);
  return lineage[0] === base && lineage.at(-1) === version ? lineage : undefined;
}

/**
 * See `VersionReader.snapshotChain`. Usually the versions numbered from the snapshot's to `version`
 * are its lineage and nothing else (lessons one after another, no rollback between): then one range
 * read on the primary key gives the lineage with its delta rows. A recursive query up the parents
 * costs several microseconds a step (5 ms of a 10 ms cold resolve at 10,000 entries, 610 steps,
 * on a 2 GHz Xeon); the range read is a few times cheaper. Where the range holds versions of other
 * branches (a rollback, then lessons), or far more versions than the chain can have, the recursive
 * query is read instead: same answer, found the slow way.
 */
async function readSnapshotChain(db: Db, collection: string, version: number): Promise<SnapshotChain | undefined> {
  const head = await readBase(db, collection, version);
  if (head?.base == null) return undefined;
  const base = head.base;
  // A lineage has at most one version a delta row since its snapshot (and the snapshot's own);
  // a range much longer than that is mostly other branches, not worth reading first.
  if (version - base > 2 * (head.since_base ?? 0) + 64) return readSnapshotChainRecursively(db, collection, version);
  const { rows } = await sql<ChainRow>`
    select v.version, v.parent, e.entry_key, e.state from authority_versions v
      left join authority_entries e on e.collection = v.collection and e.version = v.version and v.version <> ${base}
      where v.collection = ${collection} and v.version >= ${base} and v.version <= ${version}
    order by v.version`.execute(db);
  // Where a version of the range is not the child of the one before it, a branch is in it.
  return chainOf(rows, base, version) ?? readSnapshotChainRecursively(db, collection, version);
}

/** A version of a chain read back to its snapshot, with one of its delta rows (none for the snapshot's own). */
interface ChainRow {
  readonly version: number;
  readonly parent: number | null;
  readonly entry_key: string | null;
  readonly state: string | null;
}

/**
 * Rows of a chain, by version, as its lineage and each version's deltas; undefined unless they run
 * from `base` to `version`, each version the child of the one before.
 */
function chainOf(rows: readonly ChainRow[], base: number, version: number): SnapshotChain | undefined {
  const lineage: number[] = [];
  const deltas = new Map<number, StoredEntry[]>();
  for (const row of rows) {
    if (lineage.at(-1) !== row.version) {
      if (lineage.length > 0 ? row.parent !== lineage.at(-1) : row.version !== base) return undefined;
      lineage.push(row.version);
      if (row.version !== base) deltas.set(row.version, []);
    }
    if (row.entry_key !== null && row.state !== null) deltas.get(row.version)?.push({ key: row.entry_key, state: JSON.parse(row.state) });
  }
  return lineage.at(-1) === version ? { lineage, deltas } : undefined;
}

/** A version's nearest snapshotted ancestor and the delta rows written on its lineage since; undefined if unknown. */
function readBase(db: Db, collection: string, version: number): Promise<{ base: number | null; since_base: number | null } | undefined> {
  return db
    .selectFrom('authority_versions')
    .select(['base', 'since_base'])
    .where('collection', '=', collection)
    .where('version', '=', version)
    .executeTakeFirst();
}

/**
 * `readSnapshotChain` the way that holds for any version tree: the recursive query of
 * `readSnapshotLineage`, each version of the chain joined to its delta rows (the snapshot's own
 * version contributes none: the snapshot holds it whole).
 */
export async function readSnapshotChainRecursively(db: Db, collection: string, version: number): Promise<SnapshotChain | undefined> {
  const { rows } = await sql<ChainRow & { base: number | null }>`
    with recursive chain(version, parent, base) as (
      select version, parent, base from authority_versions where collection = ${collection} and version = ${version}
      union all
      select v.version, v.parent, v.base from authority_versions v
        join chain c on v.collection = ${collection} and v.version = c.parent
        where c.version <> c.base
    )
    select c.version, c.parent, c.base, e.entry_key, e.state from chain c
      left join authority_entries e on e.collection = ${collection} and e.version = c.version and c.version <> c.base
    order by c.version`.execute(db);
  // A parent is always older than its child, so by number the lineage runs base … version.
  const base = rows.at(-1)?.base;
  return base == null ? undefined : chainOf(rows, base, version);
}

async function readSnapshot(db: Db, collection: string, version: number): Promise<Snapshot | undefined> {
  const row = await db
    .selectFrom('authority_snapshots')
    .select('entries')
    .where('collection', '=', collection)
    .where('version', '=', version)
    .executeTakeFirst();
  return row && decodeSnapshot(row.entries);
}

/**
 * A snapshot's text: the keys as one JSON array, then each state as JSON on a line of its own
 * (JSON.stringify never writes a line break). Reading it parses the keys and splits the lines;
 * a state is parsed only when its entry is built. Not compressed: inflating cost more of a cold
 * resolve than the bytes saved are worth.
 */
export function encodeSnapshot(entries: readonly StoredEntry[]): string {
  return `${JSON.stringify(entries.map((entry) => entry.key))}\n${entries.map((entry) => JSON.stringify(entry.state)).join('\n')}`;
}

export function decodeSnapshot(text: string): Snapshot {
  const newline = text.indexOf('\n');
  if (newline < 0) {
    // Written before states had lines of their own: one JSON array `[[key, …], [state, …]]`.
    const [keys, states] = JSON.parse(text) as [string[], unknown[]];
    return { keys, state: (at) => states[at] };
  }
  const keys = decodeKeys(text.slice(0, newline));
  // Split into lines only when a state is first asked for: the entries a request for what changed
  // since an earlier version builds usually come from deltas, and never need the snapshot's states.
  let lines: string[] | undefined;
  const linesOf = (): string[] => {
    if (lines === undefined) {
      lines = keys.length === 0 ? [] : text.slice(newline + 1).split('\n');
      if (lines.length !== keys.length) throw new Error(`A snapshot holds ${keys.length} keys but ${lines.length} states; the store is damaged.`);
    }
    return lines;
  };
  return { keys, state: (at) => JSON.parse(linesOf()[at]!) as unknown };
}

/**
 * A snapshot's keys from their line, `JSON.stringify` of an array of strings. Where the line holds
 * no backslash, no key in it was escaped, so every `"` is a key's opening or closing quote and the
 * keys are exactly the pieces between `","`: split there, which is 3-5 times cheaper than
 * `JSON.parse` on a cold authority (V8's JSON parser looks each short string up in its string
 * table, and a fresh process has none of the keys in it yet: 1.65 of a 5 ms cold resolve at 10,000
 * keys). A line with a backslash (a key with a quote, a backslash, a control character, a lone
 * surrogate) is parsed as JSON.
 */
export function decodeKeys(line: string): string[] {
  if (line.includes('\\') || !line.startsWith('["') || !line.endsWith('"]')) return JSON.parse(line) as string[];
  return line.slice(2, -2).split('","');
}

async function insertSnapshot(db: Db, collection: string, version: number, entries: readonly StoredEntry[]): Promise<void> {
  await db
    .insertInto('authority_snapshots')
    .values({ collection, version, entries: encodeSnapshot(entries) })
    .execute();
}

async function readLatestActivation(db: Db, collection: string): Promise<Activation | undefined> {
  const row = await db.selectFrom('authority_activations').selectAll().where('collection', '=', collection).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row && toActivation(row);
}

async function insertVersion(
  db: Db,
  collection: string,
  version: number,
  parent: number | null,
  changed: readonly StoredEntry[],
  lineage: { base: number; since: number },
): Promise<void> {
  await db
    .insertInto('authority_versions')
    .values({ collection, version, parent, created_at: Date.now(), base: lineage.base, since_base: lineage.since })
    .execute();
  for (let start = 0; start < changed.length; start += 500) {
    await db
      .insertInto('authority_entries')
      .values(
        changed.slice(start, start + 500).map((entry) => ({
          collection,
          version,
          entry_key: entry.key,
          state: JSON.stringify(entry.state),
        })),
      )
      .execute();
  }
}

async function readPublishers(db: Db, collection: string, versions: readonly number[]): Promise<Activation[]> {
  const out: Activation[] = [];
  const seen = new Set<number>();
  for (let start = 0; start < versions.length; start += 5000) {
    const rows = await db
      .selectFrom('authority_activations')
      .selectAll()
      .where('collection', '=', collection)
      .where('version', 'in', versions.slice(start, start + 5000))
      .where('kind', '!=', 'rollback')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      if (seen.has(row.version)) continue;
      seen.add(row.version);
      out.push(toActivation(row));
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

async function insertActivation(db: Db, activation: NewActivation): Promise<Activation> {
  const { value, entry, retracts, says, ...rest } = activation;
  const row = await db
    .insertInto('authority_activations')
    .values({
      ...rest,
      says: says ?? null,
      entry: entry ?? null,
      value: value === undefined ? null : JSON.stringify(value),
      retracts: retracts ?? null,
      at: Date.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toActivation(row);
}
