// vitest's global setup for the whole repository (vitest.config.ts): before any test file runs it
// finds what the tests drive — a PostgreSQL server, a browser and a load balancer — starting or
// installing what is missing, and hands each to the test workers through the environment they
// inherit (LEARNABLES_TEST_PG_URL, CHROMIUM_PATH, HAPROXY_PATH). This is what lets the README's test
// command pass as written on a fresh machine.
import { findChromium } from './chromium.ts';
import { HAPROXY_MISSING, findHaproxy } from './haproxy.ts';
import { DEFAULT_TEST_PG_URL, testPostgresServer } from './test-postgres-server.ts';
import type { TestPostgresServer } from './test-postgres-server.ts';

const log = (line: string) => console.log(`[test setup] ${line}`);
let postgres: TestPostgresServer | undefined;

export async function setup(): Promise<void> {
  const starting = testPostgresServer(process.env.LEARNABLES_TEST_PG_URL ?? DEFAULT_TEST_PG_URL, log);
  starting.then((server) => (postgres = server)).catch(() => undefined);
  const chromium = await findChromium({ log });
  // After Chromium, not beside it: both may need apt-get, which takes one lock.
  await findHaproxy({ log }).then(
    (haproxy) => {
      process.env.HAPROXY_PATH = haproxy.path;
      if (haproxy.source !== 'usual path' && haproxy.source !== 'setting') log(`HAProxy: ${haproxy.path} (${haproxy.source}).`);
    },
    // Only the load-balancer tests need it: they fail with this sentence (never skip), the rest run.
    (error: Error) => {
      process.env[HAPROXY_MISSING] = error.message;
      log(`${error.message} The tests that run HAProxy will fail with this sentence.`);
    },
  );
  const server = await starting;
  process.env.LEARNABLES_TEST_PG_URL = server.url;
  process.env.CHROMIUM_PATH = chromium.path;
  if (chromium.source !== 'usual path' && chromium.source !== 'setting') log(`Chromium: ${chromium.path} (${chromium.source}).`);
}

export async function teardown(): Promise<void> {
  await postgres?.stop();
}
