/**
 * How much memory reading a large manifest takes: the agent's streaming `readSheet` against
 * loading the whole workbook (`new ExcelJS.Workbook().xlsx.load(buffer)`), at 25k, 50k and 100k
 * rows. Each reading runs in a process of its own, so its peak RSS is its own.
 *
 *   npx tsx agents/manifest/bench/stream-memory.ts        (from the repository root)
 *   pnpm --filter @learnables/manifest-agent bench
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, platform, arch, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { readSheet } from '../src/read-sheet.ts';
import { writeManifest } from './manifest-file.ts';

const SIZES = [25_000, 50_000, 100_000];
const READERS = ['baseline', 'stream', 'load'] as const;
type Reader = (typeof READERS)[number];

interface Measured {
  readonly rows: number;
  readonly ms: number;
  /** Peak resident set of the whole process, as the OS saw it. */
  readonly maxRssKb: number;
  /** Peak of heap plus external memory still reachable, sampled after forced collections; 0 when not sampled. */
  readonly liveBytes: number;
}

/**
 * Runs in the child: one reading, then its numbers on stdout. With `--expose-gc` it also samples
 * what is still reachable every 50 ms, which separates memory in use from garbage V8 has not
 * collected yet (peak RSS counts both); that run is not timed.
 */
async function measure(reader: Reader, path: string): Promise<Measured> {
  const bytes = readFileSync(path);
  const gc: unknown = Reflect.get(globalThis, 'gc');
  let liveBytes = 0;
  const sample = (): void => {
    if (typeof gc !== 'function') return;
    gc();
    const { heapUsed, external } = process.memoryUsage();
    liveBytes = Math.max(liveBytes, heapUsed + external);
  };
  const sampler = setInterval(sample, 50);
  const start = performance.now();
  let rows = 0;
  if (reader === 'stream') {
    rows = (await readSheet(bytes, basename(path))).rowCount;
  } else if (reader === 'load') {
    const workbook = new ExcelJS.Workbook();
    // exceljs declares its own `Buffer` as an ArrayBuffer; what it reads is a Node Buffer.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    rows = (workbook.worksheets[0]?.actualRowCount ?? 1) - 1;
    sample();
  }
  const ms = performance.now() - start;
  clearInterval(sampler);
  return { rows, ms, maxRssKb: process.resourceUsage().maxRSS, liveBytes };
}

function inChild(reader: Reader, path: string, live: boolean): Measured {
  const flags = [...process.execArgv, ...(live ? ['--expose-gc'] : [])];
  const child = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url), '--child', reader, path], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`${reader} on ${basename(path)} failed:\n${child.stderr}`);
  const measured = JSON.parse(child.stdout) as Measured;
  if (reader !== 'baseline' && measured.rows !== Number(basename(path).match(/\d+/)?.[0])) {
    throw new Error(`${reader} read ${measured.rows} rows of ${basename(path)}`);
  }
  return measured;
}

const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MB`;
const rate = (rows: number, ms: number): string => Math.round(rows / (ms / 1000)).toLocaleString('en-US');
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'manifest-bench-'));
  const started = performance.now();
  try {
    const cpu = cpus();
    const lines = [
      `Machine: ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
        `Node ${process.version}, ${platform()} ${arch()}.`,
      '',
      '| rows | .xlsx | streaming `readSheet`: time | rows/s | peak RSS | live peak | whole `xlsx.load`: time | rows/s | peak RSS | live peak |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ];
    const baselines: string[] = [];
    for (const rows of SIZES) {
      const path = join(dir, `manifest-${rows}.xlsx`);
      await writeManifest(path, rows);
      const size = `${(statSync(path).size / 1e6).toFixed(1)} MB`;
      baselines.push(mb(inChild('baseline', path, false).maxRssKb));
      const stream = inChild('stream', path, false);
      const streamLive = inChild('stream', path, true);
      const load = inChild('load', path, false);
      const loadLive = inChild('load', path, true);
      lines.push(
        `| ${rows.toLocaleString('en-US')} | ${size} | ${seconds(stream.ms)} | ${rate(rows, stream.ms)} | ${mb(stream.maxRssKb)} | ${mb(streamLive.liveBytes / 1024)} ` +
          `| ${seconds(load.ms)} | ${rate(rows, load.ms)} | ${mb(load.maxRssKb)} | ${mb(loadLive.liveBytes / 1024)} |`,
      );
      process.stderr.write(`${lines.at(-1) ?? ''}\n`);
    }
    lines.push(
      '',
      `Baseline (Node, tsx and exceljs loaded, the file read, nothing parsed): ${baselines.join(' / ')} peak RSS.`,
      `Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s.`,
    );
    console.log(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [, , flag, reader, path] = process.argv;
if (flag === '--child' && path !== undefined && READERS.includes(reader as Reader)) {
  process.stdout.write(JSON.stringify(await measure(reader as Reader, path)));
} else {
  await main();
}
