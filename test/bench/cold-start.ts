// Cold start and idle memory of each service, built JavaScript against tsx (issue 36): the time from
// spawning the process to its first `/healthz` 200, and the resident memory of its whole process tree
// (tsx's CLI is a parent node process that runs the service in a child) 5 s after that, idle. The two
// ways alternate run by run, so both meet the same load on this shared machine; the table gives the
// median of each and their ratio. Needs `pnpm build` first (the script runs it).
// `node --import tsx test/bench/cold-start.ts` prints the table; `pnpm bench` runs it too.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setUser } from '../../stack/src/console-accounts.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = Number(process.env.COLD_START_RUNS ?? 4);
const IDLE_MS = 3_000;

interface Service {
  readonly name: string;
  /** The entry under stack/src (tsx) and stack/dist (built), and its arguments. */
  readonly entry: string;
  readonly args: readonly string[];
  readonly port: number;
  readonly env: (port: number) => NodeJS.ProcessEnv;
}

const AUTHORITY_PORT = 4750;
const agent = (name: string, port: number): Service => ({
  name: `${name} agent`,
  entry: 'agent-main',
  args: [name],
  port,
  env: (p) => ({
    [`${name.toUpperCase()}_AGENT_PORT`]: String(p),
    [`${name.toUpperCase()}_AGENT_STORE`]: `sqlite:${join(scratch, `${name}-${p}-${Math.random()}.db`)}`,
  }),
});
const services: readonly Service[] = [
  {
    name: 'authority',
    entry: 'authority-main',
    args: [],
    port: 4751,
    env: (p) => ({ AUTHORITY_PORT: String(p), AUTHORITY_STORE: `sqlite:${join(scratch, `authority-${Math.random()}.db`)}` }),
  },
  agent('email', 4752),
  agent('manifest', 4753),
  agent('threshold', 4754),
  agent('handling', 4755),
  { name: 'console', entry: 'console-main', args: [], port: 4756, env: (p) => ({ CONSOLE_PORT: String(p) }) },
];

const scratch = mkdtempSync(join(tmpdir(), 'learnables-cold-start-'));
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

const built = spawnSync('npx', ['-y', 'pnpm@10.34.9', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (built.status !== 0) throw new Error('pnpm build failed; the built services cannot be measured.');

await setUser(join(scratch, 'console-users'), 'operator', 'cold-start-benchmark');
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  LOG_LEVEL: 'warn',
  LEARNABLES_NODE_WARNED: '1',
  AUTHORITY_URL: `http://127.0.0.1:${AUTHORITY_PORT}`,
  CONSOLE_USERS_FILE: join(scratch, 'console-users'),
  CONSOLE_SESSION_SECRET: 'cold-start-benchmark-'.repeat(3),
};

function spawnService(service: Service, way: 'built' | 'tsx', port: number): ChildProcess {
  const command =
    way === 'built'
      ? [process.execPath, join(root, 'stack/dist', `${service.entry}.js`)]
      : [join(root, 'node_modules/.bin/tsx'), '--conditions=@learnables/source', join(root, 'stack/src', `${service.entry}.ts`)];
  const started = spawn(command[0]!, [...command.slice(1), ...service.args], {
    cwd: root,
    env: { ...baseEnv, ...service.env(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.stderr!.resume();
  children.add(started);
  started.once('exit', () => children.delete(started));
  return started;
}

async function healthy(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (answer.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nothing answered /healthz 200 on port ${port} within 60 s`);
}

/** Resident memory of a process and every descendant, in MB (from /proc). */
function treeRssMb(pid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, parent] of parents) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  let kb = 0;
  for (const member of tree) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${member}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

async function stop(started: ChildProcess): Promise<void> {
  if (started.exitCode !== null || started.signalCode !== null) return;
  const exited = new Promise((resolve) => started.once('exit', resolve));
  started.kill('SIGTERM');
  const timer = setTimeout(() => started.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function measure(service: Service, way: 'built' | 'tsx'): Promise<{ startMs: number; rssMb: number }> {
  const from = performance.now();
  const started = spawnService(service, way, service.port);
  await healthy(service.port, Date.now() + 60_000);
  const startMs = performance.now() - from;
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const rssMb = treeRssMb(started.pid!);
  await stop(started);
  return { startMs, rssMb };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

// The agents and the console read the authority at start: one, built, serves them all.
const authority = spawnService(services[0]!, 'built', AUTHORITY_PORT);
await healthy(AUTHORITY_PORT, Date.now() + 60_000);

const rows: string[] = [];
for (const service of services) {
  const runs = { built: [] as { startMs: number; rssMb: number }[], tsx: [] as { startMs: number; rssMb: number }[] };
  for (let i = 0; i < RUNS; i += 1) {
    // Alternate which goes first, so neither always meets a warmer page cache.
    for (const way of i % 2 ? (['tsx', 'built'] as const) : (['built', 'tsx'] as const)) runs[way].push(await measure(service, way));
  }
  const start = { built: median(runs.built.map((r) => r.startMs)), tsx: median(runs.tsx.map((r) => r.startMs)) };
  const rss = { built: median(runs.built.map((r) => r.rssMb)), tsx: median(runs.tsx.map((r) => r.rssMb)) };
  rows.push(
    `| ${service.name} | ${(start.tsx / 1000).toFixed(2)} s | **${(start.built / 1000).toFixed(2)} s** | ${(start.built / start.tsx).toFixed(2)}× | ${rss.tsx.toFixed(0)} MB | **${rss.built.toFixed(0)} MB** | ${(rss.built / rss.tsx).toFixed(2)}× |`,
  );
  console.error(`${service.name}: ${rows.at(-1)}`);
}
await stop(authority);

console.log(`
Each service started ${RUNS} times each way, alternating, on its own SQLite file, logging at warn; the agents and the
console against one running authority. Start: spawn to the first \`/healthz\` 200 (median). RSS: the process tree's
resident memory ${IDLE_MS / 1000} s after that, idle (median; tsx's CLI runs the service in a child process, so its
tree is two Node processes, as \`pnpm start\` ran them before). Goal (issue 36): start ≤ 1.5 s, idle RSS ≤ 120 MB.

| service | start, tsx | start, built | built/tsx | RSS, tsx | RSS, built | built/tsx |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`);
process.exit(0);
