// The load balancer test/balancer.test.ts puts in front of two agent replicas, and that checks
// haproxy.cfg: Debian's haproxy, found or installed the same way as the browser.
import { answersVersion, findProgram } from './find-program.ts';
import type { FoundProgram, ProgramSearch } from './find-program.ts';

export const USUAL_HAPROXY_PATHS: readonly string[] = [
  '/usr/sbin/haproxy',
  '/usr/bin/haproxy',
  '/usr/local/sbin/haproxy',
  '/usr/local/bin/haproxy',
  '/opt/homebrew/bin/haproxy',
];

export function findHaproxy(overrides: Partial<ProgramSearch> = {}): Promise<FoundProgram> {
  return findProgram({
    name: 'HAProxy',
    settingName: 'HAPROXY_PATH',
    setting: process.env.HAPROXY_PATH,
    paths: USUAL_HAPROXY_PATHS,
    // `haproxy -v` prints its version; `--version` is not an option it knows.
    works: (path) => answersVersion(path, '-v'),
    debian: { package: 'haproxy', path: '/usr/sbin/haproxy', why: 'for the load-balancer tests (HAProxy in front of two agent replicas)' },
    ...overrides,
  });
}

/** The environment variable the global setup leaves the reason in when HAProxy could not be provided. */
export const HAPROXY_MISSING = 'LEARNABLES_HAPROXY_MISSING';

/** The HAProxy the global setup found; a test that needs one fails here, with the setup's sentence, when there is none. */
export function haproxyPath(): string {
  const missing = process.env[HAPROXY_MISSING];
  if (missing) throw new Error(missing);
  const path = process.env.HAPROXY_PATH;
  if (!path) throw new Error('HAPROXY_PATH is not set: run the tests through vitest (its global setup finds HAProxy) or set it.');
  return path;
}
