// The balancer docker-compose.yml runs: haproxy.cfg, checked by Debian's haproxy.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { haproxyPath, scratchDir } from '@learnables/testing';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `haproxy <args>`: its exit code and everything it printed. */
function haproxy(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile(haproxyPath(), args, { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
}

describe('haproxy.cfg (the balancer docker-compose.yml runs)', () => {
  it('is valid to HAProxy (haproxy -c)', async () => {
    const checked = await haproxy(['-c', '-f', join(root, 'haproxy.cfg')]);
    expect(checked.output).toMatch(/Configuration file is valid/);
    expect(checked.code).toBe(0);
  });

  it('and the check can fail: a broken copy is refused', async () => {
    const dir = scratchDir('haproxy-');
    const broken = join(dir.path, 'broken.cfg');
    writeFileSync(broken, readFileSync(join(root, 'haproxy.cfg'), 'utf8').replace('balance leastconn', 'balance fewestcats'));
    const checked = await haproxy(['-c', '-f', broken]);
    dir.remove();
    expect(checked.code).not.toBe(0);
    expect(checked.output).toMatch(/balance only supports/);
  });
});
