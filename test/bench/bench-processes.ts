// What the benchmarks that run an agent over HTTP share: helper processes started with tsx (and
// killed when the benchmark ends), the line a helper prints when it is ready, an SDK client with
// the benchmark's token, and a prober (lesson-to-decision/probe.ts) timing GET /healthz from its
// own process, so the event loop measured is the agent's.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((c) => c.kill()));

/** `node --import tsx <script> <args>`, its stdout piped; `script` is a file URL or path. */
export function child(script: URL | string, args: readonly string[]): ChildProcess {
  const path = script instanceof URL ? fileURLToPath(script) : script;
  const started = spawn(process.execPath, ['--import', 'tsx', path, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(started);
  started.once('exit', () => children.delete(started));
  return started;
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
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: withToken })] })).createFromUrl(url);
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
