import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REBUILD, nativeModuleProblem } from './native-modules.ts';

const checkNode = fileURLToPath(new URL('./check-node.ts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

/** `node --import tsx check-node.ts` on the given Node binary: its exit code and what it wrote. */
function runCheck(node: string): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      node,
      ['--conditions=@learnables/source', '--import', 'tsx', checkNode],
      { cwd: root, env: { ...process.env, LEARNABLES_NODE_WARNED: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const node24 = { version: 'v24.22.3', abi: '137', execPath: '/opt/node-24/bin/node' };

describe('a native module built for another Node', () => {
  it("is one sentence naming both Nodes, the rebuild, and the nodedir cause (Node's own message)", () => {
    const error = Object.assign(
      new Error(
        "The module '/app/node_modules/.pnpm/re2@1.27.1/node_modules/re2/build/Release/re2.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 137. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const sentence = nativeModuleProblem('re2', error, node24)!;
    expect(sentence).toContain('re2 was built for Node 20 (NODE_MODULE_VERSION 115), and this is Node v24.22.3 (NODE_MODULE_VERSION 137)');
    expect(sentence).toContain(`\`${REBUILD}\``);
    expect(sentence).toContain('`npm_config_nodedir=/opt/node-24 pnpm rebuild -r re2 better-sqlite3`');
    expect(sentence).not.toContain('\n');
  });

  it('says so for an addon that does not load at all (a real dlopen failure), and leaves other errors alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'native-'));
    try {
      writeFileSync(join(dir, 'broken.node'), 'not a shared object');
      let failure: unknown;
      try {
        createRequire(import.meta.url)(join(dir, 'broken.node'));
      } catch (error) {
        failure = error;
      }
      expect((failure as { code?: string }).code).toBe('ERR_DLOPEN_FAILED');
      expect(nativeModuleProblem('better-sqlite3', failure, node24)).toMatch(
        /^better-sqlite3 has no working build for Node v24\.22\.3 \(NODE_MODULE_VERSION 137\): run `pnpm rebuild -r re2 better-sqlite3`/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(nativeModuleProblem('re2', new TypeError('x is not a function'), node24)).toBeUndefined();
  });

  it('passes on the Node the modules were built for', async () => {
    const ran = await runCheck(process.execPath);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
  }, 30_000);

  // CI runs this file on Node 22 with LEARNABLES_OTHER_NODE set to Node 24 (.ci/run): the modules
  // built for one, started on the other, as an install with the wrong `nodedir` leaves them.
  it.runIf(process.env.LEARNABLES_OTHER_NODE)(
    'stops a service started on another Node in one sentence, not a stack trace',
    async () => {
      const ran = await runCheck(process.env.LEARNABLES_OTHER_NODE!);
      expect(ran.code).toBe(1);
      const lines = ran.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^(re2|better-sqlite3) was built for Node \d+ \(NODE_MODULE_VERSION \d+\), and this is Node v\d+/);
      expect(lines[0]).toContain(REBUILD);
    },
    30_000,
  );
});
