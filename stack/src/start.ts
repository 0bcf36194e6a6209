// `pnpm start`: the authority, both agents and the console on the embedded default (SQLite files
// under data/, created and seeded from fixtures/ on first start). Ctrl-C stops everything.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { portFrom } from './config.ts';

interface Service {
  readonly name: string;
  readonly entry: string;
  readonly health: string;
  readonly show: string;
}

const authorityPort = portFrom(process.env.AUTHORITY_PORT, 4100, 'AUTHORITY_PORT');
const emailPort = portFrom(process.env.EMAIL_AGENT_PORT, 4201, 'EMAIL_AGENT_PORT');
const manifestPort = portFrom(process.env.MANIFEST_AGENT_PORT, 4202, 'MANIFEST_AGENT_PORT');
const thresholdPort = portFrom(process.env.THRESHOLD_AGENT_PORT, 4203, 'THRESHOLD_AGENT_PORT');
const consolePort = portFrom(process.env.CONSOLE_PORT, 4300, 'CONSOLE_PORT');
const local = (port: number, path = '') => `http://127.0.0.1:${port}${path}`;

const services: Service[] = [
  { name: 'authority', entry: 'authority-main.ts', health: local(authorityPort, '/healthz'), show: local(authorityPort) },
  { name: 'email agent', entry: 'email-agent-main.ts', health: local(emailPort, '/healthz'), show: local(emailPort, '/.well-known/agent-card.json') },
  { name: 'manifest agent', entry: 'manifest-agent-main.ts', health: local(manifestPort, '/healthz'), show: local(manifestPort, '/.well-known/agent-card.json') },
  { name: 'threshold agent', entry: 'threshold-agent-main.ts', health: local(thresholdPort, '/healthz'), show: local(thresholdPort, '/.well-known/agent-card.json') },
  { name: 'console', entry: 'console-main.ts', health: local(consolePort, '/healthz'), show: local(consolePort) },
].filter((service) => existsSync(fileURLToPath(new URL(`./${service.entry}`, import.meta.url))));

const env = {
  ...process.env,
  AUTHORITY_URL: process.env.AUTHORITY_URL ?? local(authorityPort),
  EMAIL_AGENT_URL: process.env.EMAIL_AGENT_URL ?? local(emailPort),
  MANIFEST_AGENT_URL: process.env.MANIFEST_AGENT_URL ?? local(manifestPort),
  THRESHOLD_AGENT_URL: process.env.THRESHOLD_AGENT_URL ?? local(thresholdPort),
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
  void Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : undefined))).then(() =>
    process.exit(code),
  );
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
  throw new Error(`${name} did not answer ${url} within 90 seconds.`);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

try {
  for (const service of services) {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`./${service.entry}`, import.meta.url))], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const prefix = (chunk: Buffer) =>
      chunk
        .toString()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => `[${service.name}] ${line}\n`)
        .join('');
    child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
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
  for (const service of services) console.log(`  ${service.name.padEnd(15)} ${service.show}`);
  console.log('\nData lives in data/ (delete it to start over). Press Ctrl-C to stop.\n');
} catch (error) {
  console.error((error as Error).message);
  stop(1);
}
