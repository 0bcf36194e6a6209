// `pnpm bench`: every benchmark of the project in one run, each a ratio or percentile measured in
// that run, written as one results table with the machine into BENCHMARKS.md. Not part of `pnpm test`.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase } from '@learnables/testing';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Benchmark {
  readonly title: string;
  readonly script: string;
  readonly env?: Record<string, string>;
}

async function scratchDatabase(): Promise<ScratchDatabase | undefined> {
  try {
    return await scratchPostgres('learnables_bench');
  } catch (error) {
    console.warn(`PostgreSQL benchmarks skipped: ${(error as Error).message}`);
    return undefined;
  }
}

const database = await scratchDatabase();
const benchmarks: Benchmark[] = [
  { title: 'Classification vs marks count: RE2 Set vs a loop of per-mark matches', script: 'agents/email/bench/classify.ts' },
  { title: 'Lesson → effect latency, and version storage / resolve time', script: 'shared/authority/bench/run-all.ts', ...(database && { env: { BENCH_PG_URL: database.url } }) },
  { title: 'Lesson → next decision, and /healthz while the email agent compiles', script: 'test/bench/lesson-to-decision/run.ts' },
  { title: 'Runtime overhead vs a bare SDK agent', script: 'shared/runtime/bench/overhead.ts' },
  { title: 'Preview of one lesson over 5,000 recent email tasks with 10,000 marks, vs a reread of one task', script: 'test/bench/preview.ts' },
  { title: 'Manifest streaming memory', script: 'agents/manifest/bench/stream-memory.ts' },
  { title: 'Worst accepted input of each kind: time, peak RSS, /healthz while it is read', script: 'test/bench/worst-input.ts' },
];

const sections: string[] = [];
for (const benchmark of benchmarks) {
  console.log(`\n▶ ${benchmark.title} (${benchmark.script})`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', benchmark.script], {
    cwd: root,
    env: { ...process.env, ...benchmark.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(run.stdout);
  const seconds = Math.round((Date.now() - started) / 1000);
  sections.push(
    run.status === 0
      ? `## ${benchmark.title}\n\n\`node --import tsx ${benchmark.script}\` (${seconds} s)\n${run.stdout.trim()}\n`
      : `## ${benchmark.title}\n\n**Failed** (exit ${run.status}); see the command's output.\n`,
  );
}
await database?.drop();

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
writeFileSync(
  `${root}BENCHMARKS.md`,
  `# Benchmarks\n\nProduced by \`pnpm bench\` on ${new Date().toISOString().slice(0, 10)}.\n\nMachine: ${machine}. PostgreSQL: ${database ? 'a scratch database on the local server (loopback)' : 'not available, skipped'}.\nThese are shared 2-core machines: compare ratios measured in one run, not absolute numbers across runs.\n\n${sections.join('\n')}`,
);
console.log(`\nwrote ${root}BENCHMARKS.md`);
