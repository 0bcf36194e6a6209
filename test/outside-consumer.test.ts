// What an adopter from another company gets: every public package packed as it would be published
// (pnpm pack: workspace versions filled in, publishConfig's exports), installed with plain npm in a
// fresh project under the OS temp folder, and used from plain node (no tsx) and from TypeScript with
// moduleResolution NodeNext and bundler. The checker runs from its installed bin against the installed
// fake agent, and the runtime README's example agent, compiled against the installed declarations,
// starts and passes the checker. One pack and one install serve every case.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@learnables/testing';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The packages published for outside use, by folder. Every other workspace package is private. */
const PUBLIC = ['protocol', 'learnable', 'tracing', 'authority', 'runtime', 'conformance', 'fake-agent'];
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

interface Ran {
  readonly code: number;
  readonly out: string;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeout = 240_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd, env: { ...cleanEnv(), ...env }, timeout, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

/** The environment without this workspace's source condition: the consumer is plain node. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  env.NODE_OPTIONS = (env.NODE_OPTIONS ?? '').replace(/--conditions=@learnables\/source/g, '').trim();
  for (const key of Object.keys(env)) if (key.startsWith('npm_') || key.startsWith('PNPM_') || key === 'VITEST' || key.startsWith('VITEST_')) delete env[key];
  // node-gyp compiles better-sqlite3 for the node that runs npm, with that node's own headers.
  env.npm_config_nodedir = join(process.execPath, '..', '..');
  return env;
}

/** pnpm, as the test command was started with it (npx -y pnpm@… or a pnpm on PATH). */
function pnpm(): { command: string; prefix: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath !== undefined && /pnpm/.test(execPath)) return { command: process.execPath, prefix: [execPath] };
  return { command: 'npx', prefix: ['-y', 'pnpm@10.34.9'] };
}

function startProcess(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(command, [...args], { cwd, env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function until<T>(what: string, output: () => string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await probe().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} within 60 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The runtime README's example agent, exactly as the README shows it. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'shared/runtime/README.md'), 'utf8');
  const match = /<!-- outside-consumer-example[^>]*-->\n```ts\n([\s\S]*?)```/.exec(readme);
  if (match === null) throw new Error('shared/runtime/README.md has no outside-consumer-example block.');
  return match[1]!;
}

const CONSUMER_TS = `import { LEARNABLES_URI, TeachBlockSchema, fieldsToRender } from '@learnables/protocol';
import type { TeachBlock } from '@learnables/protocol';
import { Learnable, UnlearnableValue, lessonValue, lessonField } from '@learnables/learnable';
import { Authority, AuthorityClient, openStore } from '@learnables/authority';
import { startLearnableAgent, InputRefused } from '@learnables/runtime';
import type { LearnableAgent } from '@learnables/runtime';
import { checkAgent, validate, formatReport } from '@learnables/conformance';
import type { Report } from '@learnables/conformance';
import { startFakeAgent } from '@learnables/fake-agent';
import type { RunningFakeAgent } from '@learnables/fake-agent';

const uri: string = LEARNABLES_URI;
const block: TeachBlock = TeachBlockSchema.parse({ collection: 'c', question: 'q?', entries: [], version: 1 });
const lesson = lessonValue({ word: lessonField.text({ missing: 'a word' }) }, { unknownKey: (key) => key });
export const used = [uri, block, fieldsToRender, Learnable, UnlearnableValue, lesson, Authority, AuthorityClient, openStore, startLearnableAgent, InputRefused, checkAgent, validate, formatReport, startFakeAgent];
export type Used = [LearnableAgent<{ text: string }, { ok: boolean }>, Report, RunningFakeAgent];
`;

describe('outside consumer: the packed packages installed with npm', () => {
  let dir: string;
  let project: string;
  let installSeconds = 0;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'learnables-consumer-'));
    const tarballs = join(dir, 'tarballs');
    project = join(dir, 'project');
    mkdirSync(tarballs);
    const sqliteFolder = dirname(createRequire(join(ROOT, 'shared/authority/package.json')).resolve('better-sqlite3/package.json'));
    const sqlite = { folder: sqliteFolder, version: (JSON.parse(readFileSync(join(sqliteFolder, 'package.json'), 'utf8')) as { version: string }).version };
    mkdirSync(project);
    // The public packages' dist/ (tsc -b builds what changed, in dependency order).
    const built = await run(process.execPath, [TSC, '-b', ...PUBLIC.map((name) => `shared/${name}/tsconfig.build.json`)], ROOT);
    expect(built.code, built.out).toBe(0);
    const { command, prefix } = pnpm();
    for (const name of PUBLIC) {
      const packed = await run(command, [...prefix, 'pack', '--pack-destination', tarballs], join(ROOT, 'shared', name));
      expect(packed.code, packed.out).toBe(0);
    }
    const files = readdirSync(tarballs);
    const specs = Object.fromEntries(
      PUBLIC.map((name) => {
        const file = files.find((f) => f.startsWith(`learnables-${name}-`));
        if (file === undefined) throw new Error(`no tarball for ${name} in ${files.join(', ')}`);
        return [`@learnables/${name}`, `file:../tarballs/${file}`];
      }),
    );
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'learnables-consumer',
        private: true,
        type: 'module',
        dependencies: { ...specs, express: '^5.1.0', zod: '^4.1.0' },
        // The workspace's own better-sqlite3 version, whose compiled binding is reused below.
        overrides: { ...Object.fromEntries(Object.keys(specs).map((name) => [name, `$${name}`])), 'better-sqlite3': sqlite.version },
        devDependencies: { '@types/node': '^22.0.0', '@types/express': '^5.0.3' },
      }),
    );
    const started = Date.now();
    // No install scripts: the only one in the tree is better-sqlite3's compile (two minutes or more
    // on two cores, proving nothing about these packages). Its binding, compiled for this node by the
    // workspace's own install (same version), is copied in instead; an adopter's npm compiles it.
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], project, {}, 540_000);
    installSeconds = (Date.now() - started) / 1000;
    expect(installed.code, installed.out).toBe(0);
    cpSync(join(sqlite.folder, 'build'), join(project, 'node_modules/better-sqlite3/build'), { recursive: true });
    console.log(`outside consumer: npm install of the ${PUBLIC.length} tarballs took ${installSeconds.toFixed(1)} s`);
  }, 600_000);

  afterAll(async () => {
    for (const child of running) await stop(child);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs no development tool and no test: no tsx, esbuild, vitest or TypeScript source', () => {
    for (const tool of ['tsx', 'esbuild', 'vitest', 'typescript', '@learnables/testing'])
      expect(existsSync(join(project, 'node_modules', tool)), tool).toBe(false);
    for (const name of PUBLIC) {
      const folder = join(project, 'node_modules/@learnables', name);
      const listed = readdirSync(folder, { recursive: true }).map(String);
      expect(
        listed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.d.mts')),
        name,
      ).toEqual([]);
      expect(
        listed.filter((f) => /\.test(-support)?\./.test(f)),
        name,
      ).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        exports: Record<string, unknown>;
        dependencies?: Record<string, string>;
      };
      expect(JSON.stringify(manifest.exports), name).not.toContain('@learnables/source');
      expect(
        Object.values(manifest.dependencies ?? {}).filter((v) => v.startsWith('workspace:')),
        name,
      ).toEqual([]);
    }
    // The checker is protocol and a JSON Schema validator, with jose and the SDK's card canonicalization to verify a
    // signed card (the SDK depends on jose alone; its server parts are optional peers): nothing of the runtime, no database.
    const checker = JSON.parse(readFileSync(join(project, 'node_modules/@learnables/conformance/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(checker.dependencies).sort()).toEqual(['@a2a-js/sdk', '@learnables/protocol', 'ajv', 'jose']);
  });

  it('imports every package, and the JSON Schemas, from plain node', async () => {
    const script = `
      const names = ${JSON.stringify(PUBLIC.map((name) => `@learnables/${name}`))};
      for (const name of names) {
        const exported = Object.keys(await import(name));
        if (exported.length === 0) throw new Error(name + ' exports nothing');
      }
      const { default: schema } = await import('@learnables/protocol/schemas/teach-block.json', { with: { type: 'json' } });
      const { TeachBlockSchema } = await import('@learnables/protocol');
      TeachBlockSchema.parse({ collection: 'c', question: 'q?', entries: [], version: 1 });
      console.log('imported', names.length, schema.$schema);`;
    const ran = await run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(ran.code, ran.out).toBe(0);
    expect(ran.out).toContain(`imported ${PUBLIC.length} https://json-schema.org/draft/2020-12/schema`);
  }, 60_000);

  it.each([
    ['NodeNext', { module: 'NodeNext', moduleResolution: 'NodeNext' }],
    ['bundler', { module: 'ESNext', moduleResolution: 'bundler' }],
  ])(
    'typechecks a TypeScript file importing every package with moduleResolution %s (libraries checked too)',
    async (name, options) => {
      writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
      writeFileSync(
        join(project, `tsconfig.${name}.json`),
        JSON.stringify({
          compilerOptions: { ...options, target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
          files: ['consumer.ts'],
        }),
      );
      const checked = await run(process.execPath, [TSC, '-p', `tsconfig.${name}.json`], project);
      expect(checked.code, checked.out).toBe(0);
    },
    180_000,
  );

  it('runs npx learnables-check from the installed package against the installed fake agent: every check passes', async () => {
    const fake = startProcess('npx', ['--no', '--', 'learnables-fake-agent', '--json'], project);
    running.push(fake.child);
    const started = await until('the fake agent did not print where it is', fake.output, async () => {
      const line = fake
        .output()
        .split('\n')
        .find((l) => l.startsWith('{'));
      return line === undefined ? undefined : (JSON.parse(line) as { url: string; authorityUrl: string; token: string });
    });
    const checked = await run(
      'npx',
      [
        '--no',
        '--',
        'learnables-check',
        started.url,
        '--token',
        started.token,
        '--authority',
        started.authorityUrl,
        '--authority-token',
        started.token,
        '--quiet',
      ],
      project,
    );
    expect(checked.code, checked.out).toBe(0);
    expect(checked.out).toMatch(/PASS/);
    expect(checked.out).not.toMatch(/FAIL/);
  }, 180_000);

  it("starts the runtime README's example agent, compiled against the installed declarations, and it passes learnables-check", async () => {
    writeFileSync(join(project, 'desk-agent.ts'), readmeExample());
    writeFileSync(
      join(project, 'tsconfig.agent.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, outDir: 'built', types: ['node'] },
        files: ['desk-agent.ts'],
      }),
    );
    const compiled = await run(process.execPath, [TSC, '-p', 'tsconfig.agent.json'], project);
    expect(compiled.code, compiled.out).toBe(0);
    const port = await freePort();
    const data = join(dir, 'agent-data');
    mkdirSync(data);
    const agent = startProcess(process.execPath, ['built/desk-agent.js'], project, { PORT: String(port), DATA_DIR: data });
    running.push(agent.child);
    const url = `http://127.0.0.1:${port}`;
    await until('the example agent did not answer /healthz', agent.output, async () => ((await fetch(`${url}/healthz`)).ok ? true : undefined));
    const card = (await (await fetch(`${url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as { name: string };
    expect(card.name).toBe('Desk agent');
    const checked = await run('npx', ['--no', '--', 'learnables-check', url, '--text', 'Where is my parcel?', '--token', 'operator-token', '--quiet'], project);
    expect(checked.code, `${checked.out}\n--- agent ---\n${agent.output()}`).toBe(0);
  }, 240_000);
});
