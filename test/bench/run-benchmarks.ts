// `pnpm bench`: every benchmark of the project in one run, each a ratio or percentile measured in
// that run, written as one results table with the machine into BENCHMARKS.md. Not part of `pnpm test`.
// `pnpm bench --only <script>` (e.g. `--only test/bench/scenario.ts`) runs that benchmark alone and
// replaces only its own section of BENCHMARKS.md, saying when and where it ran; the rest is kept.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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

const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
if (onlyAt >= 0 && !only) {
  console.error('--only needs the script of one benchmark, e.g. --only test/bench/scenario.ts');
  process.exit(2);
}

const database = await scratchDatabase();
const benchmarks: Benchmark[] = [
  { title: 'Classification vs marks count: RE2 Set vs a loop of per-mark matches', script: 'agents/email/bench/classify.ts' },
  {
    title: 'Lesson → effect latency, and version storage / resolve time',
    script: 'shared/authority/bench/run-all.ts',
    ...(database && { env: { BENCH_PG_URL: database.url } }),
  },
  { title: 'Lesson → next decision, and /healthz while the email agent compiles', script: 'test/bench/lesson-to-decision/run.ts' },
  { title: 'Runtime overhead vs a bare SDK agent', script: 'shared/runtime/bench/overhead.ts' },
  { title: "A task's writes on PostgreSQL: prepared statements vs unnamed ones", script: 'shared/runtime/bench/postgres-writes.ts' },
  { title: 'Email messages per second: two replicas on PostgreSQL, and one agent on SQLite against mailparser alone', script: 'test/bench/replicas.ts' },
  { title: 'Preview of one lesson over 5,000 recent email tasks with 10,000 marks, vs a reread of one task', script: 'test/bench/preview.ts' },
  { title: 'Manifest streaming memory', script: 'agents/manifest/bench/stream-memory.ts' },
  { title: 'Manifest reading rate at 100k rows vs exceljs and csv-parse alone', script: 'agents/manifest/bench/read-rate.ts' },
  { title: 'Cold start and idle memory of each service: built JavaScript against tsx', script: 'test/bench/cold-start.ts' },
  { title: 'Worst accepted input of each kind: time, peak RSS, /healthz while it is read', script: 'test/bench/worst-input.ts' },
  { title: 'The six-week scenario: questions per 100 messages, and decisions made without asking that were wrong', script: 'test/bench/scenario.ts' },
  { title: 'Handling agent: what lessons buy, what the model costs', script: 'test/bench/handling/run.ts' },
];
const chosen = only === undefined ? benchmarks : benchmarks.filter((benchmark) => benchmark.script === only);
if (!chosen.length) {
  console.error(`No benchmark runs ${only}; the scripts are: ${benchmarks.map((benchmark) => benchmark.script).join(', ')}.`);
  await database?.drop();
  process.exit(2);
}

const sections: string[] = [];
for (const benchmark of chosen) {
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
if (only !== undefined) {
  if (sections[0]!.includes('**Failed**')) {
    console.error(`\n${only} failed; BENCHMARKS.md is unchanged.`);
    process.exit(1);
  }
  // One section, in its place (or at the end when new), marked as run on its own.
  const path = `${root}BENCHMARKS.md`;
  const [title, ...body] = sections[0]!.split('\n');
  const section = [title, '', `Run alone by \`pnpm bench --only ${only}\` on ${new Date().toISOString().slice(0, 10)} (${machine}).`, ...body].join('\n');
  const current = readFileSync(path, 'utf8');
  const at = current.indexOf(`${title}\n`);
  const end = at < 0 ? -1 : current.indexOf('\n## ', at + 1);
  writeFileSync(path, at < 0 ? `${current.trimEnd()}\n\n${section}` : `${current.slice(0, at)}${section}${end < 0 ? '' : `\n${current.slice(end + 1)}`}`);
  console.log(`\nreplaced the section "${title!.slice(3)}" of ${path}`);
  process.exit(0);
}
writeFileSync(
  `${root}BENCHMARKS.md`,
  `# Benchmarks\n\nProduced by \`pnpm bench\` on ${new Date().toISOString().slice(0, 10)}.\n\nMachine: ${machine}. PostgreSQL: ${database ? 'a scratch database on the local server (loopback)' : 'not available, skipped'}.\nThese are shared 2-core machines: compare ratios measured in one run, not absolute numbers across runs.\n\n${sections.join('\n')}`,
);
console.log(`\nwrote ${root}BENCHMARKS.md`);
