// The worst input of each kind the agents still accept (the largest email, the widest sheet, the
// heaviest legal pattern): how long it takes, the process's peak RSS, and how /healthz answers
// while it is being read. Each case runs in a process of its own, so its peak RSS is its own.
// `node --import tsx test/bench/worst-input.ts` prints the table; `pnpm bench` runs it too.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { emailAgent } from '@learnables/email-agent';
import { manifestAgent } from '@learnables/manifest-agent';
import { largeEmail } from '@learnables/testing';
import type { LoopStack } from '../support/loop-stack.ts';
import { fixture, startLoop } from '../support/loop-stack.ts';
import { longCellWorkbook, sparseWideWorkbook, workbookOf } from '../../agents/manifest/src/hostile-workbooks.test-support.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface Case {
  readonly name: string;
  readonly input: string;
  /**
   * Build the input (before /healthz is polled: the poller, the agent and the builder share one
   * event loop, and building a 92 MB workbook is not the agent's stall) and say how to send it.
   */
  prepare(): (stack: LoopStack) => Promise<string>;
  /** What is sent before /healthz is watched (the tasks a preview reads). */
  setup?(stack: LoopStack): Promise<void>;
}

/** A message:send body of one file part, as a client would send it. */
const bodyOf = (bytes: Buffer, mediaType: string, filename: string): string =>
  JSON.stringify({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw: bytes.toString('base64'), mediaType, filename }] } });

/** Send `bytes` as one file part; built now, sent when the returned function is called. */
const sending = (bytes: Buffer, mediaType: string, filename: string): ((stack: LoopStack) => Promise<string>) => {
  const body = bodyOf(bytes, mediaType, filename);
  return (stack) => post(stack, body);
};

const post = async (stack: LoopStack, body: string): Promise<string> => {
  const response = await fetch(`${stack.agent.url}/a2a/rest/message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token' },
    body,
  });
  const answer = (await response.json()) as { task?: { status?: { state?: string } } };
  return `${response.status} ${answer.task?.status?.state ?? JSON.stringify(answer).slice(0, 80)}`;
};

/** 256 headings (the widest accepted) and 5,000 rows, every cell filled. */
function widestSheet(): Buffer {
  const header = Array.from({ length: 256 }, (_, at) => [at + 1, at === 0 ? 'Waybill' : `Heading ${at + 1}`] as const);
  const rows = Array.from({ length: 5_000 }, (_, row) => Array.from({ length: 256 }, (_, at) => [at + 1, `r${row}c${at}`] as const));
  return Buffer.from(workbookOf([header, ...rows]));
}

const CASES: readonly Case[] = [
  {
    name: 'largest email',
    input: '37 MB message: a 25 MiB attachment in base64, a 0.9 MB CSV, a text part',
    prepare: () =>
      sending(
        largeEmail({
          csvRows: 40_000,
          from: 'Brightwell Foods <orders@brightwell-foods.example>',
          subject: 'Scans and forecast',
          text: 'Scans and forecast attached.',
        }),
        'message/rfc822',
        'largest.eml',
      ),
  },
  {
    name: 'widest sheet',
    input: '256 headings × 5,000 filled rows (.xlsx)',
    prepare: () => sending(widestSheet(), XLSX, 'widest.xlsx'),
  },
  {
    name: 'sparse wide sheet',
    input: '6,000 rows, each with a cell in column XFD (.xlsx)',
    prepare: () => sending(Buffer.from(sparseWideWorkbook(6_000)), XLSX, 'sparse.xlsx'),
  },
  {
    name: 'long-cell sheet',
    input:
      "1,400 rows of two 32,767-character cells (Excel's longest), 92 MB unpacked in a 201 kB .xlsx: read in a thread, 33 rows (2 million characters) kept",
    prepare: () => sending(Buffer.from(longCellWorkbook(1_400, 32_767)), XLSX, 'long-cells.xlsx'),
  },
  {
    name: 'compressed sheet bomb',
    input: '2 rows of two 3.5-million-character cells, 14 MB unpacked in a 20 kB .xlsx (issue 34): refused in a sentence',
    prepare: () => sending(Buffer.from(longCellWorkbook(2, 3_500_000)), XLSX, 'bomb.xlsx'),
  },
  {
    name: 'four compressed sheet bombs',
    input: 'the same 20 kB .xlsx four times at once',
    prepare() {
      const bomb = Buffer.from(longCellWorkbook(2, 3_500_000));
      const bodies = Array.from({ length: 4 }, (_, at) => bodyOf(bomb, XLSX, `bomb-${at}.xlsx`));
      return async (stack) => [...new Set(await Promise.all(bodies.map((body) => post(stack, body))))].join(', ');
    },
  },
  {
    name: 'heaviest legal pattern',
    input: '20 lessons of the heaviest accepted kind (`\\pL{3}` + a word), then one email',
    prepare: () => async (stack) => {
      for (let at = 0; at < 20; at++) {
        await stack.authority.client.postLesson({
          collection: 'customers',
          entry: 'northgate',
          value: { pattern: `zq${at}x\\pL{3}`, where: 'body' },
          taughtBy: 'bench',
          reason: 'the heaviest pattern a lesson may hold',
        });
      }
      return post(stack, bodyOf(fixture('email/northgate-parry-pallet-query.eml'), 'message/rfc822', 'parry.eml'));
    },
  },
  {
    name: 'preview over heavy sheets',
    input:
      'one preview, then three at once, after 16 CSV sheets of 256 headings × 550 rows (1.46 MB journaled each) and one of 3,500 rows (cut to 749 rows, 2.0 MB journaled)',
    async setup(stack) {
      const csv = (rows: number) =>
        Buffer.from(
          [
            ['Waybill', 'Weight (kg)', 'Pieces', ...Array.from({ length: 253 }, (_, at) => `Heading ${at + 4}`)].join(','),
            ...Array.from({ length: rows }, (_, row) => ['176-12345675', '12.5', '3', ...Array.from({ length: 253 }, (_, at) => `r${row}c${at}`)].join(',')),
          ].join('\n'),
        );
      await post(stack, bodyOf(csv(3_500), 'text/csv', 'heaviest.csv'));
      const sheet = csv(550);
      for (let at = 0; at < 16; at++) await post(stack, bodyOf(sheet, 'text/csv', `heavy-${at}.csv`));
    },
    prepare: () => async (stack) => {
      const one = await previewSheets(stack);
      const three = await Promise.all([previewSheets(stack), previewSheets(stack), previewSheets(stack)]);
      return `tried ${one}; three at once: ${three.join(', ')}`;
    },
  },
];

/** A preview of a lesson on the manifest agent, over JSON-RPC with the console's token: its status, tried of recent, or its refusal. */
const previewSheets = async (stack: LoopStack): Promise<string> => {
  const response = await fetch(`${stack.agent.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'learnables/preview',
      params: { lesson: { collection: 'mappings', entry: 'weight', value: { column: 'Heading 7' }, taughtBy: 'bench', reason: 'a preview over heavy sheets' } },
    }),
  });
  const body = (await response.json()) as {
    result?: { tried?: number; recent?: number; budget?: string; tooLarge?: number };
    error?: { data?: { error?: string } };
  };
  const result = body.result;
  return result
    ? `${result.tried}/${result.recent}${result.tooLarge ? `, ${result.tooLarge} too large` : ''}${result.budget ? ` (${result.budget})` : ''}`
    : (body.error?.data?.error ?? 'failed');
};

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** One case, in this process: the stack, /healthz every 10 ms while the input is read. */
async function runCase(name: string): Promise<void> {
  const chosen = CASES.find((one) => one.name === name);
  if (chosen === undefined) throw new Error(`no case "${name}"`);
  const run = chosen.prepare();
  const stack = name.includes('sheet') ? await startLoop(manifestAgent) : await startLoop(emailAgent);
  await chosen.setup?.(stack);
  const latencies: number[] = [];
  let polling = true;
  let failed = 0;
  const poll = (async () => {
    while (polling) {
      const started = performance.now();
      // A keep-alive connection the server closed while its loop was busy fails; count it, and ask again.
      await fetch(`${stack.agent.url}/healthz`).then(
        (answer) => answer.arrayBuffer(),
        () => failed++,
      );
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const started = performance.now();
  const outcome = await run(stack);
  const seconds = (performance.now() - started) / 1000;
  polling = false;
  await poll;
  await stack.close();
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(
    JSON.stringify({
      seconds,
      peak,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      failed,
      samples: latencies.length,
      outcome,
    }),
  );
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only !== undefined) return runCase(only);
  console.log(
    `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}. Each case in a fresh process (agent, authority and the /healthz poller together); /healthz polled every 10 ms while the input is sent and read.\n`,
  );
  console.log('| input | what | answer | time | peak RSS | /healthz p50 | /healthz p99 | /healthz max |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|');
  for (const one of CASES) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), one.name], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.status !== 0 || !line.startsWith('{')) {
      console.log(`| ${one.name} | ${one.input} | failed (exit ${run.status}): ${(run.stderr || line).trim().split('\n').at(-1) ?? ''} | | | | | |`);
      continue;
    }
    const r = JSON.parse(line) as { seconds: number; peak: number; p50: number; p99: number; max: number; failed: number; outcome: string };
    console.log(
      `| ${one.name} | ${one.input} | ${r.outcome} | ${r.seconds.toFixed(1)} s | ${Math.round(r.peak)} MB | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(0)} ms | ${r.max.toFixed(0)} ms${r.failed > 0 ? ` (${r.failed} dropped)` : ''} |`,
    );
  }
}

await main();
