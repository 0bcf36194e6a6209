import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchPostgres, wordListKind } from '@learnables/testing';
import type { ScratchDatabase } from '@learnables/testing';
import { Authority } from '../authority.ts';
import { openStore } from './open-store.ts';

/**
 * Large values are compressed with lz4 where the server has it, not PostgreSQL's default pglz
 * (about three times the server's CPU a value): an authority's snapshots hold every entry of a version.
 */
describe('an authority on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await scratchPostgres('compression');
  });
  afterAll(async () => {
    await scratch?.drop();
  });

  it('stores its snapshots compressed with lz4 where the server has it, else with its default, pglz', async () => {
    const store = await openStore(scratch.url, { snapshotEvery: () => 1 });
    const authority = new Authority({ store, kinds: [wordListKind()], commitWaitMs: 0 });
    const lists = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`list-${i}`, { words: [`word-${i}`, `other-${i}`] }]));
    await authority.seed('lists', lists, 'lists.json');
    await authority.absorb({ collection: 'lists', entry: 'list-1', value: { word: 'kiwi' }, taughtBy: 'dana', reason: 'r' }, 'test');
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ compression: string | null; bytes: number }>(
        `select pg_column_compression(entries) as compression, length(entries) as bytes from authority_snapshots where collection = 'lists'`,
      );
      // The server the tests run on decides: the local one has lz4; the embedded one a fresh
      // machine falls back to may not, and the store must then still work, with pglz.
      const { rows: offered } = await client.query<{ lz4: boolean | null }>(
        `select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
      );
      const expected = offered[0]?.lz4 === true ? 'lz4' : 'pglz';
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toMatchObject({ compression: expected });
    } finally {
      await client.end();
      await authority.close();
    }
  });
});
