// `pnpm start`: the authority, every agent of the registry (src/agents.ts) and the console on the
// embedded default (SQLite files under data/, created and seeded on first start). Ctrl-C stops everything.
import './check-node.ts';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { portFrom, repoRoot } from './config.ts';
import { consoleAccounts } from './console-accounts.ts';
import { AUTHORITY_PORT, CONSOLE_PORT, agents, localAgentUrls } from './registry.ts';
import { prettyLine, wantsPretty } from './service-logger.ts';

interface Service {
  readonly name: string;
  readonly entry: string;
  readonly args: readonly string[];
  /** Its /readyz: the next service starts once this one can do its work (the agents need the authority's answers). */
  readonly health: string;
  readonly show: string;
}

const authorityPort = portFrom(process.env.AUTHORITY_PORT, AUTHORITY_PORT, 'AUTHORITY_PORT');
const consolePort = portFrom(process.env.CONSOLE_PORT, CONSOLE_PORT, 'CONSOLE_PORT');
const local = (port: number, path = '') => `http://127.0.0.1:${port}${path}`;
// Each agent's URL, from its port: handed to the console (and to anything else started here) as <PREFIX>_URL.
const agentUrls = localAgentUrls(process.env, portFrom);
const urlOf = (name: string) => agentUrls.get(name)!;

// Built (`pnpm start`: node stack/dist/start.js) each service is the `.js` beside this file and runs
// on plain node; from the source (`pnpm dev`: tsx) the `.ts`, with the same loader and conditions
// as this process (its execArgv).
const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const entryPath = (entry: string) => fileURLToPath(new URL(`./${entry}${extension}`, import.meta.url));

const services: Service[] = [
  { name: 'authority', entry: 'authority-main', args: [], health: local(authorityPort, '/readyz'), show: local(authorityPort) },
  ...agents.map((entry) => ({
    name: `${entry.name} agent`,
    entry: 'agent-main',
    args: [entry.name],
    health: `${urlOf(entry.name)}/readyz`,
    show: `${urlOf(entry.name)}/.well-known/agent-card.json`,
  })),
  { name: 'console', entry: 'console-main', args: [], health: local(consolePort, '/readyz'), show: local(consolePort) },
].filter((service) => existsSync(entryPath(service.entry)));

const env = {
  ...process.env,
  AUTHORITY_URL: process.env.AUTHORITY_URL ?? local(authorityPort),
  ...Object.fromEntries(agents.map((entry) => [`${entry.envPrefix}_URL`, urlOf(entry.name)])),
};

// Each service writes JSON lines (LOG_LEVEL, docs/operations.md); a person at a terminal reads them
// pretty, each with its service's name in front. Piped on (to a file, to a collector), they stay JSON.
const pretty = wantsPretty(process.stdout);
const shown = (line: string): string => {
  if (!pretty || !line.startsWith('{')) return `${line}\n`;
  try {
    return prettyLine(line);
  } catch {
    return `${line}\n`;
  }
};

const children: ChildProcess[] = [];
let stopping = false;

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  const deadline = setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(code);
  }, 5000);
  deadline.unref();
  void Promise.all(
    children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : undefined)),
  ).then(() => process.exit(code));
}

async function healthy(url: string, child: ChildProcess, name: string): Promise<void> {
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} stopped before it was ready (see its output above).`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} was not ready at ${url} within 90 seconds (its output above says why).`);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

try {
  // data/ holds customer mail, manifests, the history and the console's secrets: its owner's only
  // (each database file is 0600 too: privateSqliteFile). One left readable by an older version is closed.
  const data = join(repoRoot, 'data');
  mkdirSync(data, { recursive: true, mode: 0o700 });
  chmodSync(data, 0o700);
  // The console's first user is made here, before the console starts, so its password can be said below.
  const { firstUser } = await consoleAccounts();
  for (const service of services) {
    const child = spawn(process.execPath, [...process.execArgv, entryPath(service.entry), ...service.args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    // Line by line (a JSON line may arrive in two chunks), each with the service's name in front.
    const relay = (from: NodeJS.ReadableStream, to: NodeJS.WriteStream) =>
      createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => {
        if (line.trim() !== '') to.write(`[${service.name}] ${shown(line)}`);
      });
    relay(child.stdout!, process.stdout);
    relay(child.stderr!, process.stderr);
    child.once('exit', (code, signal) => {
      if (!stopping) {
        console.error(`[${service.name}] stopped (${code ?? signal}); stopping the rest.`);
        stop(1);
      }
    });
    // The agents ask the authority for versions as they start, so each waits for the one before.
    await healthy(service.health, child, service.name);
  }
  console.log('\nlearnables is running:');
  for (const service of services) console.log(`  ${service.name.padEnd(Math.max(15, ...services.map((s) => s.name.length)))} ${service.show}`);
  if (firstUser) {
    console.log(`\nSign in to the console as ${firstUser.name}, password ${firstUser.password}`);
    console.log(`(made on first start; change it with: npx -y pnpm@10.34.9 console-user add ${firstUser.name})`);
  } else if (!process.env.CONSOLE_USERS_FILE) {
    console.log('\nSign in to the console with an account of data/console-users (add one: npx -y pnpm@10.34.9 console-user add <name>).');
  }
  console.log('\nData lives in data/ (delete it to start over). Press Ctrl-C to stop.\n');
} catch (error) {
  console.error((error as Error).message);
  stop(1);
}
