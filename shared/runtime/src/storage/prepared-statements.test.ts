import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { scratchDir } from '@learnables/testing';
import { openRuntimeDatabase } from './open-database.ts';

// SQLite statements are prepared once and reused; these tests hold the reuse to reading exactly
// what fresh statements read, after one was iterated and after the schema changes.
describe('the SQLite runtime database, reusing prepared statements', () => {
  const dir = scratchDir('prepared-');
  afterEach(() => dir.remove());

  it('reads the same rows as fresh statements, after a streamed read and after a schema change', async () => {
    const database = await openRuntimeDatabase(`sqlite:${dir.path}/agent.db`);
    try {
      const { db } = database;
      await sql`create table t (n integer)`.execute(db);
      for (let n = 1; n <= 5; n += 1) await sql`insert into t (n) values (${n})`.execute(db);
      const all = () => sql<{ n: number }>`select n from t order by n`.execute(db).then((r) => r.rows.map((row) => row.n));
      expect(await all()).toEqual([1, 2, 3, 4, 5]);
      expect(await all()).toEqual([1, 2, 3, 4, 5]);
      const seen: number[] = [];
      for await (const row of db.selectFrom('t' as never).select('n' as never).orderBy('n' as never).stream() as AsyncIterable<{ n: number }>) {
        seen.push(row.n);
      }
      expect(seen).toEqual([1, 2, 3, 4, 5]);
      expect(await all()).toEqual([1, 2, 3, 4, 5]);
      await sql`alter table t add column m integer default 7`.execute(db);
      const wide = () => sql<{ n: number; m: number }>`select * from t where n = 1`.execute(db).then((r) => r.rows);
      expect(await wide()).toEqual([{ n: 1, m: 7 }]);
      await sql`alter table t add column o integer default 8`.execute(db);
      expect(await wide()).toEqual([{ n: 1, m: 7, o: 8 }]);
    } finally {
      await database.close();
    }
  });
});
