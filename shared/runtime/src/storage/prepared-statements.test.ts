import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { scratchDir, scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase } from '@learnables/testing';
import { openRuntimeDatabase } from './open-database.ts';
import type { RuntimeDatabase } from './open-database.ts';

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
      for await (const row of db
        .selectFrom('t' as never)
        .select('n' as never)
        .orderBy('n' as never)
        .stream() as AsyncIterable<{ n: number }>) {
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

// On PostgreSQL the runtime's statements run as named prepared statements, each connection
// preparing one once. These tests hold that to what unnamed statements do: the rows, a change of
// the table's shape, several statements all or none, and each of the two pools.
describe('the PostgreSQL runtime database, running prepared statements', () => {
  let scratch: ScratchDatabase;
  let database: RuntimeDatabase;
  beforeAll(async () => {
    scratch = await scratchPostgres('prepared');
    database = await openRuntimeDatabase(scratch.url);
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });
  const rows = async (query: string, parameters: unknown[] = [], on: 'db' | 'steps' = 'db') =>
    (await database.run([CompiledQuery.raw(query, parameters)], on))[0]!.rows;

  it('compresses large values with lz4 where the server has it (else its default, pglz), on both pools and through kysely (a teach block of every entry is some 23 kB)', async () => {
    // The server the tests run on decides: the local one has lz4; the embedded one a fresh machine
    // falls back to may not, and must then still work, with pglz.
    const [{ lz4 }] = (await rows(`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`)) as [
      { lz4: boolean | null },
    ];
    const expected = lz4 === true ? 'lz4' : 'pglz';
    await sql`create table big (id integer primary key, body text)`.execute(database.db);
    const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ key: `customer-${i}`, label: `Customer ${i}` })));
    await rows('insert into big (id, body) values ($1, $2)', [1, body], 'db');
    await rows('insert into big (id, body) values ($1, $2)', [2, body], 'steps');
    await sql`insert into big (id, body) values (${3}, ${body})`.execute(database.db);
    const stored = await rows('select id, pg_column_compression(body) as compression, body = $1 as same from big order by id', [body]);
    expect(stored).toEqual([1, 2, 3].map((id) => ({ id, compression: expected, same: true })));
  });

  it('prepares each statement once per connection, on both pools, and reads what it wrote', async () => {
    await sql`create table p (n integer primary key)`.execute(database.db);
    for (const on of ['db', 'steps'] as const) {
      for (let n = 1; n <= 3; n += 1) await rows('insert into p (n) values ($1) on conflict do nothing', [n + (on === 'steps' ? 10 : 0)], on);
      // Run through the same pool, on the connection just released: it lists that session's statements, itself among them.
      const names = (await rows('select name, statement from pg_prepared_statements', [], on)) as { name: string; statement: string }[];
      expect(names.find((row) => row.statement.startsWith('insert into p'))?.name).toMatch(/^learnables_[0-9a-f]{32}$/);
      expect(names.filter((row) => row.statement.startsWith('insert into p'))).toHaveLength(1);
    }
    expect(await rows('select n from p order by n')).toEqual([1, 2, 3, 11, 12, 13].map((n) => ({ n })));
  });

  it('reads the table as it is after its shape changed under a prepared statement', async () => {
    await sql`create table s (n integer)`.execute(database.db);
    await rows('insert into s (n) values (1)');
    const wide = () => rows('select * from s where n = $1', [1]);
    expect(await wide()).toEqual([{ n: 1 }]);
    expect(await wide()).toEqual([{ n: 1 }]);
    await sql`alter table s add column m integer default 7`.execute(database.db);
    expect(await wide()).toEqual([{ n: 1, m: 7 }]);
    expect(await wide()).toEqual([{ n: 1, m: 7 }]);
  });

  it('writes several statements all or none, and goes on after a failed one', async () => {
    await sql`create table a (n integer primary key)`.execute(database.db);
    const insert = (n: number) => CompiledQuery.raw('insert into a (n) values ($1)', [n]);
    await expect(database.run([insert(1), insert(1)])).rejects.toThrow(/duplicate key/);
    expect(await rows('select n from a')).toEqual([]);
    await database.run([insert(1), insert(2)]);
    expect(await rows('select n from a order by n')).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
