// Benchmark: a lesson accepted by the authority → a subscribed client in another process sees
// the new active version. Run: pnpm --filter @learnables/authority bench
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthorityClient } from '../src/index.ts';
import { percentile, report } from './report.ts';

async function serve(storeUrl: string) {
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./serve.ts', import.meta.url)), storeUrl, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\d+)/.exec(output);
      if (ready) resolve(Number(ready[1]));
    });
    server.once('exit', (code) => reject(new Error(`bench authority exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, server };
}

/**
 * Post lessons to one authority process and time until a subscriber sees each activation — on
 * the same process, or (replicas: 2, PostgreSQL) on a second authority process sharing the store.
 */
export async function lessonToEffect(storeUrl: string, lessons = 300, replicas: 1 | 2 = 1): Promise<Record<string, string | number>> {
  const writer = await serve(storeUrl);
  const watched = replicas === 2 ? await serve(storeUrl) : writer;
  const server = {
    kill: (signal: NodeJS.Signals) => {
      for (const s of [writer, watched]) s.server.kill(signal);
    },
  };
  try {
    const client = new AuthorityClient({ url: writer.url, token: 'bench' });
    const watcher = new AuthorityClient({ url: watched.url });
    const seen = new Map<number, number>();
    const stop = new AbortController();
    await new Promise<void>((resolve) => {
      void watcher.watch({
        signal: stop.signal,
        onActive: () => resolve(),
        onActivation: (activation) => seen.set(activation.version, performance.now()),
      });
    });
    // Words new to this run: a lesson already known publishes nothing, and there would be no event to see.
    const run = Math.random().toString(36).slice(2, 8);
    const sent: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < lessons; i += 1) {
      const started = performance.now();
      const outcome = await client.postLesson({ collection: 'lists', entry: 'alpha', value: { word: `${run}-${i}` }, taughtBy: 'bench', reason: 'bench' });
      answered.push(performance.now() - started);
      const deadline = performance.now() + 10_000;
      while (!seen.has(outcome.version)) {
        if (performance.now() > deadline) throw new Error(`the subscriber never saw version ${outcome.version}`);
        await new Promise((r) => setTimeout(r, 0));
      }
      sent.push(seen.get(outcome.version)! - started);
    }
    stop.abort();
    return {
      store: `${storeUrl.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}${replicas === 2 ? ', two replicas' : ''}`,
      lessons,
      'accepted p50 ms': percentile(answered, 50),
      'accepted p99 ms': percentile(answered, 99),
      'seen by subscriber p50 ms': percentile(sent, 50),
      'seen by subscriber p99 ms': percentile(sent, 99),
    };
  } finally {
    server.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-authority-'));
  const rows = [await lessonToEffect(`sqlite:${dir}/a.db`)];
  if (process.env.BENCH_PG_URL) rows.push(await lessonToEffect(process.env.BENCH_PG_URL));
  report('lesson accepted → subscriber sees the new active version', rows);
  rmSync(dir, { recursive: true, force: true });
}
