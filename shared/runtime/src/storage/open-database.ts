import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
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
   * task's steps and the states it passes through on the way to its resting state. On PostgreSQL its
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
  close(): Promise<void>;
}

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
    db = new Kysely<RuntimeTables>({ dialect: new PostgresDialect({ pool: pool({ max: 6 }) }) });
    steps = new Kysely<RuntimeTables>({ dialect: new PostgresDialect({ pool: pool({ max: 6, options: '-c synchronous_commit=off' }) }) });
  } else {
    engine = 'sqlite';
    const file = resolve(url.replace(/^(sqlite|file):(\/\/)?/, ''));
    mkdirSync(dirname(file), { recursive: true });
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    // In WAL mode, NORMAL survives a killed process (what the journal is for); only an OS crash
    // or power loss can drop the last commits.
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    await upgradeSdkTables(`sqlite:${file}`);
    db = new Kysely<RuntimeTables>({ dialect: new SqliteDialect({ database: reusingStatements(database) }) });
  }
  const { error } = await new Migrator({
    db,
    provider: runtimeMigrations,
    migrationTableName: 'learnables_migrations',
    migrationLockTableName: 'learnables_migrations_lock',
  }).migrateToLatest();
  if (error) throw new Error(`The agent could not prepare its tables: ${String(error)}`, { cause: error });
  const both = steps ?? db;
  return {
    engine,
    db,
    steps: both,
    close: async () => {
      if (steps) await steps.destroy();
      await db.destroy();
    },
  };
}

/** How many distinct statements are kept prepared; the runtime and the SDK's store use a few dozen. */
const PREPARED_STATEMENTS = 256;

/**
 * The database as kysely's SQLite dialect sees it, but preparing each distinct statement once:
 * kysely prepares every query afresh, and preparing was a large share of a task's cost (every
 * task runs the same few statements). A statement still being iterated (a streamed query) is
 * not handed out twice; SQLite re-prepares a kept statement by itself after a schema change.
 */
function reusingStatements(database: Database.Database): SqliteDatabase {
  const prepared = new Map<string, Database.Statement>();
  return {
    prepare(sql: string) {
      const known = prepared.get(sql);
      if (known !== undefined && !known.busy) return known as unknown as SqliteStatement;
      const statement = database.prepare(sql);
      if (known === undefined) {
        if (prepared.size >= PREPARED_STATEMENTS) prepared.clear();
        prepared.set(sql, statement);
      }
      return statement as unknown as SqliteStatement;
    },
    close: () => database.close(),
  };
}
