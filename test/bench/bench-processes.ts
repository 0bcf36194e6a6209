// What the benchmarks that run an agent over HTTP share: helper processes started with tsx (and
// killed when the benchmark ends), the line a helper prints when it is ready, stopping one so that
// it can write its CPU profile, the CPU time a process has used (and each part's per message, a
// PostgreSQL database's backends among them), an SDK client with the benchmark's
// token, a load generator's POST (node:http, kept-alive connections), and a prober (lesson-to-decision/probe.ts) timing GET /healthz from its own process, so the
// event loop measured is the agent's.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill();
});

/**
 * `node --import tsx <nodeArgs> <script> <args>`, its stdout piped; `script` is a file URL or path.
 * `nodeArgs` are node's own options (e.g. `--cpu-prof`); `env` its environment (default this process's).
 */
export function child(script: URL | string, args: readonly string[], nodeArgs: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const path = script instanceof URL ? fileURLToPath(script) : script;
  const started = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, path, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
  children.add(started);
  started.once('exit', () => children.delete(started));
  return started;
}

/**
 * SIGTERM, then wait for the exit: a helper that exits on its own from its SIGTERM handler gets
 * to write what node writes at exit (a `--cpu-prof` profile; one killed by the signal writes none).
 * SIGKILL after `graceMs`, so a helper that hangs cannot hold the benchmark.
 */
export async function stopChild(started: ChildProcess, graceMs = 10_000): Promise<void> {
  if (started.exitCode !== null || started.signalCode !== null) return;
  const exited = new Promise((resolve) => started.once('exit', resolve));
  started.kill('SIGTERM');
  const timer = setTimeout(() => started.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

const TICK_MS = 10; // USER_HZ 100 on Linux
/** CPU time a process has used so far, all its threads, in ms (user + system, from /proc); 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The first match of `pattern` in what `process` prints; rejects if it exits first. */
export function firstLine(process: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    process.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = pattern.exec(output);
      if (found) resolve(found);
    });
    process.once('exit', (code) => reject(new Error(`${process.spawnargs.join(' ')} exited with ${code}`)));
  });
}

/** The SDK's JSON-RPC client for `url`, sending `Authorization: Bearer <token>`. */
export async function benchClient(url: string, token: string): Promise<Client> {
  const withToken: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: withToken })] }),
  ).createFromUrl(url);
}

/** Now, on the clock the prober prints (ms since the epoch). */
export const now = (): number => performance.timeOrigin + performance.now();

/** GET `url` every `everyMs` from a process of its own; `during(from, to)` gives the times (ms) of the answers sent then. */
export function healthProbe(url: string, everyMs = 5): { readonly during: (from: number, to: number) => number[]; readonly stop: () => void } {
  const probe = child(new URL('./lesson-to-decision/probe.ts', import.meta.url), [url, String(everyMs)]);
  const probes: [number, number][] = [];
  let buffered = '';
  probe.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [at, took] = line.split(' ');
      if (took !== 'error') probes.push([Number(at), Number(took)]);
    }
  });
  return { during: (from, to) => probes.filter(([at]) => at >= from && at <= to).map(([, took]) => took), stop: () => probe.kill() };
}

/** The server processes of a PostgreSQL database's connections right now (its backends). */
export function backendsOf(url: string): number[] {
  const name = new URL(url).pathname.slice(1);
  const out = spawnSync('psql', [url, '-Atc', `select pid from pg_stat_activity where datname = '${name.replace(/'/g, "''")}'`], { encoding: 'utf8' });
  return out.stdout.split('\n').filter(Boolean).map(Number);
}

/** CPU ms per message (or task) of each part of a benchmark, by name. */
export type CpuShares = Record<string, number>;

/**
 * CPU ms per message of each part, over one round: what bounds throughput on a shared 2-core
 * machine; this process's own under `self`. A part's processes are listed at the round's start and
 * again at its end: one that appeared meanwhile (a connection a pool opened) counts all its CPU, one
 * gone by the end (psql's own backend, a connection closed) counts none, rather than a negative
 * difference.
 */
export function cpuMeter(parts: Record<string, () => number[]>, self = 'load generator'): () => (messages: number) => CpuShares {
  return () => {
    const before = Object.fromEntries(Object.entries(parts).map(([name, of]) => [name, new Map(of().map((pid) => [pid, cpuMs(pid)]))]));
    const own = process.cpuUsage();
    return (messages) => {
      const shares: CpuShares = {};
      for (const [name, of] of Object.entries(parts)) {
        let ms = 0;
        for (const pid of of()) ms += cpuMs(pid) - (before[name]!.get(pid) ?? 0);
        shares[name] = ms / messages;
      }
      const used = process.cpuUsage(own);
      shares[self] = (used.user + used.system) / 1000 / messages;
      return shares;
    };
  };
}

const keptAlive = new http.Agent({ keepAlive: true });

/**
 * `messages` sends, `concurrency` at a time, each starting as one ends (a closed loop, as clients
 * waiting for their answers send): the load of the runtime's benchmarks.
 */
export async function closedLoop(concurrency: number, messages: number, sendOne: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < messages) {
        next += 1;
        await sendOne();
      }
    }),
  );
}

/**
 * POST a JSON body and read the JSON answer, over node:http with kept-alive connections: the load
 * generators' request. `fetch` (undici) cost the generator about 1 ms of CPU a message on the 2-core
 * benchmark machine (replicas.ts, 2026-12-02), a seventh of all the CPU a message took there, spent
 * by the harness rather than by what it measures; this costs a third of that. The agents see the
 * same requests either way (headers, body, one connection per message in flight).
 */
export function postJson(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent: keptAlive, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (error) {
            reject(error);
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
