import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { lz4Option, privateSqliteFile, reusingStatements } from '@learnables/authority';
import { runtimeMigrations } from './migrations.ts';
import type { RuntimeTables } from './tables.ts';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

export interface RuntimeDatabase {
  readonly engine: Engine;
  /** Typed for our own tables; the SDK's task store shares the same connection. */
  readonly db: Kysely<RuntimeTables>;
  /**
   * The same database, for writes that matter only once a later write through `db` is made: a
   * task's steps, the states it passes through on the way to its resting state, and the opening of
   * a task nobody hears of before it rests (`seenOnlyAtRest` in learnables-executor.ts). On PostgreSQL its
   * commits do not wait for the disk (`synchronous_commit = off`, a session setting of its own pool;
   * what it writes is seen by every connection at once, as always). The task's resting state — all
   * a client is answered with — is written through `db` and waits for the disk, and PostgreSQL
   * writes its log in order, so that wait makes every earlier step of the task durable with it.
   * A process killed meanwhile loses nothing (the server has every commit); only a crash of the
   * database server can lose steps not yet followed by a resting state, and the task is then
   * resumed or failed as if it had stopped before them. On SQLite the same database as `db`
   * (WAL with synchronous NORMAL: no commit waits for the disk).
   */
  readonly steps: Kysely<RuntimeTables>;
  /**
   * Run compiled statements (`compiledOnce`) through `db` (or `steps`), several of them atomically.
   * On SQLite they run synchronously on its one connection, in a transaction of better-sqlite3's
   * when several: kysely's path (a connection lock, a promise per statement, a transaction's begin
   * and commit as further round trips) cost more CPU than SQLite's own work for the runtime's small
   * writes. Only when a kysely transaction is open on the connection (none of the runtime's is) do
   * they wait their turn behind it through kysely, so they never join someone else's transaction.
   */
  run(queries: readonly CompiledQuery[], on?: 'db' | 'steps'): Promise<{ rows: unknown[] }[]>;
  close(): Promise<void>;
}

/** The name a statement is prepared under on each PostgreSQL connection: the same text, the same name. */
const statementNames = new Map<string, string>();
const nameOf = (sql: string): string => {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `learnables_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
    statementNames.set(sql, name);
  }
  return name;
};

/**
 * Run the runtime's compiled statements on PostgreSQL as named prepared statements, straight
 * through the pool (several in one transaction). Each connection parses and plans a statement
 * once, where an unnamed one is parsed, analysed and planned again on every run: a third of the
 * server's CPU for a task's writes, and up to a tenth of the agent's (bench/postgres-writes.ts). The
 * statements are the runtime's own few (compiledOnce), so each connection holds as few names.
 *
 * A prepared statement whose tables changed shape under it (a newer replica's migration, say) can
 * fail with "cached plan must not change result type": the connection is then closed, and the
 * statements run again once on a fresh one, which prepares them anew.
 */
async function prepared(pool: pg.Pool, queries: readonly CompiledQuery[], retried = false): Promise<{ rows: unknown[] }[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const run = async (query: CompiledQuery) => {
      const result = await client.query({ name: nameOf(query.sql), text: query.sql, values: query.parameters as unknown[] });
      return { rows: result.rows as unknown[] };
    };
    if (queries.length === 1) return [await run(queries[0]!)];
    await client.query('BEGIN');
    const results: { rows: unknown[] }[] = [];
    for (const query of queries) results.push(await run(query));
    await client.query('COMMIT');
    return results;
  } catch (error) {
    if (queries.length > 1) {
      await client.query('ROLLBACK').catch((failed: unknown) => {
        broken = failed instanceof Error ? failed : new Error(String(failed));
      });
    }
    const stale = stalePlan(error);
    if (stale) broken ??= error as Error;
    if (!stale || retried) throw error;
  } finally {
    // A connection in an unknown state, or holding a stale plan, is closed by the pool.
    client.release(broken);
  }
  return prepared(pool, queries, true);
}

/**
 * Run compiled statements through kysely, unnamed, several in a kysely transaction: the runtime's
 * way on SQLite when a kysely transaction holds the connection, and its way on PostgreSQL before
 * `prepared` (kept as the baseline of bench/postgres-writes.ts).
 */
export async function throughKysely(kysely: Kysely<RuntimeTables>, queries: readonly CompiledQuery[]): Promise<{ rows: unknown[] }[]> {
  if (queries.length === 1) return [await kysely.executeQuery(queries[0]!)];
  return kysely.transaction().execute(async (trx) => {
    const results: { rows: unknown[] }[] = [];
    for (const query of queries) results.push(await trx.executeQuery(query));
    return results;
  });
}

/** PostgreSQL's refusal to run a prepared statement whose result's shape has changed since it was prepared. */
const stalePlan = (error: unknown): boolean =>
  (error as { code?: unknown }).code === '0A000' && /cached plan must not change result type/.test(String((error as Error).message));

type SdkCliRun = (argv: string[], env: NodeJS.ProcessEnv, out: { log: (s: string) => void; error: (s: string) => void }) => Promise<number>;

/**
 * Create the SDK's task tables with its own migrations (what `a2a-db upgrade` runs). The SDK
 * exports no migration API, so this calls the CLI's entry in-process; the SDK is pinned to 1.3.x.
 */
async function upgradeSdkTables(url: string): Promise<void> {
  const sdkEntry = createRequire(import.meta.url).resolve('@a2a-js/sdk');
  const { run } = (await import(pathToFileURL(join(dirname(sdkEntry), 'cli', 'run.js')).href)) as { run: SdkCliRun };
  const errors: string[] = [];
  const code = await run(['upgrade', '--url', url], process.env, { log: () => undefined, error: (line) => errors.push(line) });
  if (code !== 0) throw new Error(`The task store's tables could not be created at ${url}: ${errors.join(' ')}`);
}

/**
 * Open the agent's database: `postgres://…` for replicas sharing one store, otherwise a SQLite
 * file (`sqlite:./data/agent.db` or a plain path) created with its folder on first use. It holds
 * the SDK's task store and, beside it, the journal and the task ledger.
 */
export async function openRuntimeDatabase(url: string): Promise<RuntimeDatabase> {
  let engine: Engine;
  let db: Kysely<RuntimeTables>;
  let steps: Kysely<RuntimeTables> | undefined;
  let direct: ((queries: readonly CompiledQuery[]) => { rows: unknown[] }[] | undefined) | undefined;
  let pools: { db: pg.Pool; steps: pg.Pool } | undefined;
  if (/^postgres(ql)?:\/\//.test(url)) {
    engine = 'postgres';
    await upgradeSdkTables(url);
    // Each commit waiting for the disk (about 4-5 ms here, ten times the statement) was what held
    // two replicas to ~80 messages/s: ten commits a message. Only the resting state waits now.
    const pool = (options: Partial<pg.PoolConfig>) => {
      const made = new pg.Pool({ connectionString: url, ...options });
      // An idle connection dropped by the server must not crash the agent; the pool replaces it.
      made.on('error', () => undefined);
      return made;
    };
    // Large values (a question's teach block, some 23 kB at 500 customers) compressed with lz4.
    const lz4 = await lz4Option(url);
    pools = { db: pool({ max: 6, ...(lz4 && { options: lz4 }) }), steps: pool({ max: 6, options: `-c synchronous_commit=off ${lz4}`.trim() }) };
    db = new Kysely<RuntimeTables>({ dialect: new PostgresDialect({ pool: pools.db }) });
    steps = new Kysely<RuntimeTables>({ dialect: new PostgresDialect({ pool: pools.steps }) });
  } else {
    engine = 'sqlite';
    const file = resolve(url.replace(/^(sqlite|file):(\/\/)?/, ''));
    // Owner only (0600 in a 0700 folder it makes): tasks keep customers' mail and manifests.
    privateSqliteFile(file);
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    // In WAL mode, NORMAL survives a killed process (what the journal is for); only an OS crash
    // or power loss can drop the last commits.
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    await upgradeSdkTables(`sqlite:${file}`);
    const reusing = reusingStatements(database);
    db = new Kysely<RuntimeTables>({ dialect: new SqliteDialect({ database: reusing }) });
    const one = (query: CompiledQuery) => {
      const statement = reusing.prepare(query.sql) as unknown as Database.Statement;
      if (statement.reader) return { rows: statement.all(query.parameters as unknown[]) };
      statement.run(query.parameters as unknown[]);
      return { rows: [] };
    };
    const several = database.transaction((queries: readonly CompiledQuery[]) => queries.map(one));
    direct = (queries) => (database.inTransaction ? undefined : queries.length === 1 ? [one(queries[0]!)] : several(queries));
  }
  const { error } = await new Migrator({
    db,
    provider: runtimeMigrations,
    migrationTableName: 'learnables_migrations',
    migrationLockTableName: 'learnables_migrations_lock',
  }).migrateToLatest();
  if (error) throw new Error(`The agent could not prepare its tables: ${String(error)}`, { cause: error });
  const both = steps ?? db;
  const through = async (queries: readonly CompiledQuery[], on: 'db' | 'steps') =>
    pools ? prepared(on === 'steps' ? pools.steps : pools.db, queries) : throughKysely(on === 'steps' ? both : db, queries);
  return {
    engine,
    db,
    steps: both,
    run: async (queries, on = 'db') => direct?.(queries) ?? through(queries, on),
    close: async () => {
      if (steps) await steps.destroy();
      await db.destroy();
    },
  };
}
