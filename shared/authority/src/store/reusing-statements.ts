import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct statements are kept prepared; the runtime, the SDK's store and the authority use a few dozen each. */
const PREPARED_STATEMENTS = 256;

/**
 * The database as kysely's SQLite dialect sees it, but preparing each distinct statement once:
 * kysely prepares every query afresh, and preparing was a large share of an agent's cost for a
 * task (every task runs the same few statements) and of the authority's answer about the active
 * version (0.2 of about 1 ms; an agent asks for it some 50 times a second). A statement still being
 * iterated (a streamed query) is not handed out twice; SQLite re-prepares a kept statement by
 * itself after a schema change. Used by the agents' runtime and the authority alike.
 */
export function reusingStatements(database: Database.Database): SqliteDatabase {
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
