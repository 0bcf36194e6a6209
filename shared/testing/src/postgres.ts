import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DEFAULT_TEST_PG_URL } from './test-postgres-server.ts';

/**
 * The server the PostgreSQL tests use; every test makes its own database on it. The global setup
 * (global-setup.ts) sets LEARNABLES_TEST_PG_URL to a server that answers, its own if need be.
 */
export const TEST_PG_URL = process.env.LEARNABLES_TEST_PG_URL ?? DEFAULT_TEST_PG_URL;

export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** Create a database of our own for one test file; `drop` removes it and anything left connected. */
export async function scratchPostgres(prefix = 'learnables_test'): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`The PostgreSQL tests need a server at ${TEST_PG_URL} (set LEARNABLES_TEST_PG_URL to use another): ${(error as Error).message}`);
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
