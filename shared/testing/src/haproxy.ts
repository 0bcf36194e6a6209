// The load balancer the replica tests put in front of two agent replicas: Debian's haproxy, found
// or installed the same way as the browser.
import { answersVersion, findProgram } from './find-program.ts';
import type { FoundProgram, ProgramSearch } from './find-program.ts';

export const USUAL_HAPROXY_PATHS: readonly string[] = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy', '/usr/local/bin/haproxy', '/opt/homebrew/bin/haproxy'];

export function findHaproxy(overrides: Partial<ProgramSearch> = {}): Promise<FoundProgram> {
  return findProgram({
    name: 'HAProxy',
    settingName: 'HAPROXY_PATH',
    setting: process.env.HAPROXY_PATH,
    paths: USUAL_HAPROXY_PATHS,
    // `haproxy -v` prints its version; `--version` is not an option it knows.
    works: (path) => answersVersion(path, '-v'),
    debian: { package: 'haproxy', path: '/usr/sbin/haproxy', why: 'for the replica tests (a load balancer in front of two agents)' },
    ...overrides,
  });
}

export function haproxyPath(): string {
  const path = process.env.HAPROXY_PATH;
  if (!path) throw new Error('HAPROXY_PATH is not set: run the tests through vitest (its global setup finds HAProxy) or set it.');
  return path;
}
