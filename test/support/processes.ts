import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export { freePort } from '@learnables/testing';

export interface Service {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  /** What it wrote to each stream alone. */
  readonly stdout: () => string;
  readonly stderr: () => string;
  stop(): Promise<void>;
}

/**
 * Start one of the stack's services (`stack/src/<entry>`) as its own process and wait for its health
 * check. `nodeArgs` go to node after tsx is registered and before the entry (e.g. a test-only
 * preload written in TypeScript).
 */
export async function startService(entry: string, env: Record<string, string>, url: string, nodeArgs: readonly string[] = []): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, fileURLToPath(new URL(`../../stack/src/${entry}`, import.meta.url))], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${entry} stopped before it was ready:\n${output}`);
    if (Date.now() > until) throw new Error(`${entry} did not become healthy within 60 s:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
