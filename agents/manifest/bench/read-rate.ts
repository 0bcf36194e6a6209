/**
 * How fast the agent reads a 100,000-row manifest, against the library under it doing nothing
 * else: rows/s and peak RSS of
 *  - .xlsx: exceljs's own streaming reader (same options, every row of every sheet, nothing done
 *    with them) against the agent's `readSheet`, and the path a real message takes (the runtime's
 *    InputReader handing the file to a parse thread, the agent's `parseManifest` there);
 *  - CSV: csv-parse alone (the agent's options, fed the same bytes, nothing done with the records)
 *    against `readSheet` and the message's path.
 * Same run, same files; each reading in a process of its own, so its peak RSS is its own. The
 * ratio is ours / the library's rows/s (goal ≥ 0.8×).
 *
 *   node --import tsx agents/manifest/bench/read-rate.ts   (from the repository root)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, platform, arch, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { InputReader } from '../../../shared/runtime/src/parsing/input-reader.ts';
import { csvOptions } from '../src/csv-records.ts';
import { parseManifest } from '../src/parse-parts.ts';
import { readSheet } from '../src/read-sheet.ts';
import { writeManifest, writeManifestCsv } from './manifest-file.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Rows of the file each reader reads once before the timed reading, as a running agent has read others before. */
const WARM_ROWS = 2_000;
const READERS = ['library', 'readSheet', 'message'] as const;
type Reader = (typeof READERS)[number];

interface Measured {
  readonly rows: number;
  readonly ms: number;
  /** CPU time of the reading (user + system, every thread of the process): less shaken by a busy machine than the wall clock. */
  readonly cpuMs: number;
  /** Peak resident set of the whole process, as the OS saw it. */
  readonly maxRssKb: number;
}

/** exceljs's streaming reader with the options `readXlsx` uses, fed the same 64 kB pieces; every row counted, nothing kept. */
async function exceljsAlone(bytes: Buffer): Promise<number> {
  function* pieces(): Generator<Buffer> {
    for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
  }
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(pieces(), { objectMode: false }), {
    sharedStrings: 'cache',
    worksheets: 'emit',
    styles: 'cache',
    hyperlinks: 'ignore',
  });
  let rows = 0;
  for await (const worksheet of reader) for await (const _row of worksheet) rows++;
  return rows;
}

/** csv-parse with the options `csvRecords` uses, fed the same bytes; every record counted, nothing kept. */
async function csvParseAlone(bytes: Buffer): Promise<number> {
  const csv = parse(csvOptions(','));
  let rows = 0;
  csv.on('data', () => rows++);
  const done = new Promise<void>((resolve, reject) => csv.on('end', resolve).on('error', reject));
  csv.end(bytes);
  await done;
  return rows;
}

/** The runtime's reader with one parse thread, as an agent started with defaults reads a file this large. */
async function asMessage(bytes: Buffer, filename: string, warm: Buffer): Promise<{ rows: number; ms: number; cpuMs: number }> {
  const reader = new InputReader(
    {
      parse: (parts) => parseManifest(parts),
      parseModule: { url: new URL('../src/parse-parts.ts', import.meta.url), name: 'parseManifest' },
    },
    { threads: 1 },
  );
  try {
    // The thread loads its loader and the agent's module, and reads a small file of the same kind,
    // before the timed message: not counted.
    await reader.parse([{ kind: 'file', bytes: new Uint8Array(warm), filename }]);
    const start = performance.now();
    const cpu = process.cpuUsage();
    const input = (await reader.parse([{ kind: 'file', bytes: new Uint8Array(bytes), filename }])) as { rowCount: number };
    return { rows: input.rowCount + 1, ms: performance.now() - start, cpuMs: cpuMs(cpu) };
  } finally {
    await reader.close();
  }
}

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function read(reader: Exclude<Reader, 'message'>, bytes: Buffer, filename: string): Promise<number> {
  if (reader === 'library') return filename.endsWith('.xlsx') ? exceljsAlone(bytes) : csvParseAlone(bytes);
  return (await readSheet(bytes, filename)).rowCount + 1;
}

async function measure(reader: Reader, path: string, warmPath: string): Promise<Measured> {
  const bytes = readFileSync(path);
  const warm = readFileSync(warmPath);
  if (reader === 'message') return { ...(await asMessage(bytes, basename(path), warm)), maxRssKb: process.resourceUsage().maxRSS };
  // Every reader reads a small file of the same kind first (compiled and warmed, as in an agent
  // that has read files before); then the timed reading.
  await read(reader, warm, basename(path));
  const start = performance.now();
  const cpu = process.cpuUsage();
  const rows = await read(reader, bytes, basename(path));
  return { rows, ms: performance.now() - start, cpuMs: cpuMs(cpu), maxRssKb: process.resourceUsage().maxRSS };
}

function inChild(reader: Reader, path: string, warmPath: string): Measured {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', reader, path, warmPath], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`${reader} on ${basename(path)} failed:\n${child.stderr}`);
  const measured = JSON.parse(child.stdout) as Measured;
  // Every reader counts the header row too.
  if (measured.rows !== ROWS + 1) throw new Error(`${reader} read ${measured.rows} rows of ${basename(path)}, not ${ROWS + 1}`);
  return measured;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MB`;
const rate = (ms: number): number => Math.round(ROWS / (ms / 1000));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'manifest-rate-'));
  const started = performance.now();
  try {
    const cpu = cpus();
    const files = { xlsx: join(dir, `manifest-${ROWS}.xlsx`), CSV: join(dir, `manifest-${ROWS}.csv`) };
    const warm = { xlsx: join(dir, 'warm.xlsx'), CSV: join(dir, 'warm.csv') };
    await writeManifest(files.xlsx, ROWS);
    writeManifestCsv(files.CSV, ROWS);
    await writeManifest(warm.xlsx, WARM_ROWS);
    writeManifestCsv(warm.CSV, WARM_ROWS);
    const lines = [
      `Machine: ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
        `Node ${process.version}, ${platform()} ${arch()}. Load average at the start: ${loadavg()[0]!.toFixed(2)}.`,
      '',
      `| file | reader | rows/s (median of ${RUNS}) | vs the library alone | rows per CPU-second (median) | vs the library alone | peak RSS |`,
      '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ];
    for (const format of ['xlsx', 'CSV'] as const) {
      const path = files[format];
      const runs = new Map<Reader, Measured[]>(READERS.map((reader) => [reader, []]));
      // Interleaved, so a burst of load on the machine falls on every reader alike.
      for (let run = 0; run < RUNS; run++) for (const reader of READERS) runs.get(reader)!.push(inChild(reader, path, warm[format]));
      const library = rate(median(runs.get('library')!.map((m) => m.ms)));
      const libraryCpu = rate(median(runs.get('library')!.map((m) => m.cpuMs)));
      const names: Record<Reader, string> = {
        library: format === 'xlsx' ? "exceljs's streaming reader alone" : 'csv-parse alone',
        readSheet: "the agent's `readSheet`",
        message: "a message's path: InputReader → parse thread → `parseManifest`",
      };
      for (const reader of READERS) {
        const measured = runs.get(reader)!;
        const rows = rate(median(measured.map((m) => m.ms)));
        const rowsCpu = rate(median(measured.map((m) => m.cpuMs)));
        lines.push(
          `| ${format}, ${ROWS.toLocaleString('en-US')} rows, ${(statSync(path).size / 1e6).toFixed(1)} MB | ${names[reader]} | ${rows.toLocaleString('en-US')} ` +
            `| ${reader === 'library' ? '1×' : `${(rows / library).toFixed(2)}×`} | ${rowsCpu.toLocaleString('en-US')} ` +
            `| ${reader === 'library' ? '1×' : `${(rowsCpu / libraryCpu).toFixed(2)}×`} | ${mb(Math.max(...measured.map((m) => m.maxRssKb)))} |`,
        );
        process.stderr.write(`${lines.at(-1) ?? ''}\n`);
      }
    }
    lines.push(
      '',
      'Peak RSS is the highest of the runs, the whole process (Node, tsx and the libraries loaded count too). The message path ' +
        "times one message after the thread has loaded the agent's module; every reader has read a 2,000-row file of the same kind first, untimed (as a running agent has read others). Its RSS includes the thread, " +
        'and its thread runs at nice +10 (so that /healthz and other requests come first): on a busy machine its wall clock suffers for it, by design. ' +
        "CPU time counts every thread of the process, the garbage collector's included.",
      `Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s; load average at the end: ${loadavg()[0]!.toFixed(2)}.`,
    );
    console.log(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [, , flag, reader, path, warmPath] = process.argv;
if (flag === '--child' && path !== undefined && warmPath !== undefined && READERS.includes(reader as Reader)) {
  process.stdout.write(JSON.stringify(await measure(reader as Reader, path, warmPath)));
} else {
  await main();
}
