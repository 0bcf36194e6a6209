// The guide's promise, run on every CI run: from a copy of this repository, `pnpm new-agent` writes
// an agent whose lesson value is a number; after `pnpm install` it typechecks, its own tests pass,
// docker-compose.yml and the vocabulary scans take it in, and, started by the stack's own entry
// points (authority + `pnpm agent <name>`), it passes the conformance kit with nothing skipped but "none of these". The
// only existing files that change are the registry line's file and what the commands regenerate.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';

const root = fileURLToPath(new URL('../', import.meta.url));
const PNPM = ['-y', 'pnpm@10.34.9'];

/** Runs a command in the copy; rejects with its output when it fails. */
function run(command: string, args: string[], cwd: string, timeout = 300_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 20 * 1024 * 1024, env: process.env }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`));
      else resolve(stdout + stderr);
    });
  });
}

/** Every file of the copy but installed ones, with a hash of its content. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      if (name === 'node_modules' || name === '.git' || name === 'data') continue;
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return files;
}

/** Starts one of the copy's stack entry points on port 0 and waits for the URL it prints. */
function startEntry(cwd: string, args: string[], env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start within 90 s:\n${output}`)), 90_000);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child });
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} stopped (${code}):\n${output}`));
    });
  });
}

describe('pnpm new-agent, from a copy of the repository to a running agent that passes the conformance kit', () => {
  let dir: ScratchDir;
  let before: Map<string, string>;
  let scaffolded: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = scratchDir('new-agent-');
    // The files a clone has (tracked, plus new ones not ignored): what a forker starts from.
    const listed = await run('git', ['ls-files', '-co', '--exclude-standard', '-z'], root);
    for (const file of listed.split('\0').filter((f) => f !== '')) {
      try {
        cpSync(join(root, file), join(dir.path, file), { recursive: false });
      } catch {
        // deleted in the work tree but not yet committed: a clone would not have it either
      }
    }
    // The store is warm (this suite's own install), so the copy installs without the network.
    await run('npx', [...PNPM, 'install', '--offline', '--frozen-lockfile'], dir.path);
    before = snapshot(dir.path);
    scaffolded = await run(process.execPath, ['--import', 'tsx', 'stack/src/new-agent/new-agent-main.ts', 'carrier', '--entry', 'carrier', '--field', 'maxWeight', '--no-install'], dir.path);
    // Adding a package resolves its dependencies again, which needs the registry's metadata: a fresh
    // machine (whose installs were all frozen) has none cached, so this one may ask the registry, as a
    // forker's own install does ('--offline' failed there with ERR_PNPM_NO_OFFLINE_META).
    await run('npx', [...PNPM, 'install', '--prefer-offline', '--no-frozen-lockfile'], dir.path);
    await run('npx', [...PNPM, 'compose'], dir.path);
  }, 600_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : undefined)));
    dir?.remove();
  });

  it('adds one package and changes only the registry, the stack\'s dependency list and what commands regenerate', () => {
    const after = snapshot(dir.path);
    const added = [...after.keys()].filter((path) => !before.has(path));
    const changed = [...after.keys()].filter((path) => before.has(path) && before.get(path) !== after.get(path)).sort();
    expect(added.every((path) => path.startsWith('agents/carrier/')), added.join(', ')).toBe(true);
    expect(added).toEqual(expect.arrayContaining(['agents/carrier/package.json', 'agents/carrier/seeds/carrier-limits.json', 'agents/carrier/src/carrier-agent.ts']));
    expect(changed).toEqual(['docker-compose.yml', 'pnpm-lock.yaml', 'stack/package.json', 'stack/src/agents.ts']);
    expect(scaffolded).toContain('wrote stack/src/agents.ts');
    expect(readFileSync(join(dir.path, 'stack/src/agents.ts'), 'utf8')).toContain("registerAgent({ name: 'carrier', agent: carrierAgent, seeds: carrierSeeds, port: 4205");
    expect(readFileSync(join(dir.path, 'docker-compose.yml'), 'utf8')).toContain('"stack/dist/agent-main.js", "carrier"');
  });

  it('typechecks, with the stack that registers it', async () => {
    writeFileSync(join(dir.path, 'tsconfig.new-agent.json'), JSON.stringify({ extends: './tsconfig.base.json', include: ['agents/carrier/src/**/*.ts', 'stack/src/**/*.ts'] }));
    await run(process.execPath, [join(dir.path, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.new-agent.json', '--noEmit'], dir.path);
  }, 300_000);

  it('passes its own tests, and the registry-wide ones: compose is current, its words stay out of shared code', async () => {
    const output = await run(process.execPath, [join(dir.path, 'node_modules/vitest/vitest.mjs'), 'run', 'agents/carrier', 'stack/src/compose.test.ts', 'test/vocabulary-free.test.ts'], dir.path);
    // Without colours: the summary line is read as text.
    expect(output.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Test Files\s+4 passed \(4\)/);
  }, 300_000);

  it('starts in the stack and passes every check of the conformance kit from its own card examples', async () => {
    const authority = await startEntry(dir.path, ['stack/src/authority-main.ts'], { AUTHORITY_PORT: '0', AUTHORITY_STORE: `sqlite:${dir.path}/authority.db`, AUTHORITY_TOKENS: 'desk=t0ken' });
    children.push(authority.child);
    const agent = await startEntry(dir.path, ['stack/src/agent-main.ts', 'carrier'], {
      AUTHORITY_URL: authority.url,
      AUTHORITY_TOKEN: 't0ken',
      AGENT_TOKENS: 'desk=t0ken',
      CARRIER_AGENT_PORT: '0',
      CARRIER_AGENT_STORE: `sqlite:${dir.path}/carrier.db`,
    });
    children.push(agent.child);
    const kit = join(dir.path, 'shared/conformance/bin/learnables-check.mjs');
    const report = JSON.parse(await run(process.execPath, [kit, agent.url, '--token', 't0ken', '--authority', authority.url, '--authority-token', 't0ken', '--json', '--quiet'], dir.path)) as {
      counts: { pass: number; fail: number; skip: number };
      checks: { id: string; status: string; reason: string }[];
    };
    // Its questions are yes or no, so it says admitsNone: false, and that one check is skipped, saying so.
    expect(report.checks.filter((check) => check.status !== 'PASS').map((check) => `${check.status} ${check.id}: ${check.reason}`)).toEqual([
      'SKIP none.writes-nothing: The declaration does not say admitsNone: true, so its questions are not answered "none of these" (§2.8); nothing to check.',
    ]);
    expect(report.counts.pass).toBeGreaterThanOrEqual(35);
  }, 300_000);
});
