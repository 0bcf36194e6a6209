import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { lz4Option } from './postgres-compression.ts';
import { privateSqliteFile } from './private-file.ts';
import { reusingStatements } from './reusing-statements.ts';
import { SqlStore } from './sql-store.ts';
import type { AuthorityTables } from './tables.ts';

/**
 * Open the store a URL names: `postgres://…` (or `postgresql://…`) for the shared, scale-out
 * store; otherwise a SQLite file — `sqlite:./data/authority.db`, `file:…` or a plain path —
 * created with its folder on first use.
 */
export async function openStore(url: string, options: { snapshotEvery?: (size: number) => number } = {}): Promise<SqlStore> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    // Snapshots (every entry of a version) compressed with lz4 where the server has it.
    const lz4 = await lz4Option(url);
    const pool = new pg.Pool({ connectionString: url, max: 10, ...(lz4 && { options: lz4 }) });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on next use.
    pool.on('error', () => undefined);
    const db = new Kysely<AuthorityTables>({ dialect: new PostgresDialect({ pool }) });
    return SqlStore.open({
      ...options,
      engine: 'postgres',
      db,
      listener: async () => {
        const client = new pg.Client({ connectionString: url });
        client.on('error', () => undefined);
        await client.connect();
        return client;
      },
    });
  }
  const file = resolve(url.replace(/^(sqlite|file):(\/\/)?/, ''));
  // Owner only (0600 in a 0700 folder it makes): the history names who taught what.
  privateSqliteFile(file);
  const database = new Database(file);
  // WAL lets readers go on while a lesson is written; the timeout makes a second writer wait
  // for the lock instead of failing with SQLITE_BUSY.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  const db = new Kysely<AuthorityTables>({ dialect: new SqliteDialect({ database: reusingStatements(database) }) });
  return SqlStore.open({ ...options, engine: 'sqlite', db, file });
}
