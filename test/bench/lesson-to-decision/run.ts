// Benchmark: lesson → next decision at 1,000 / 10,000 / 50,000 marks, and whether other requests
// wait on a compile. The authority runs in its own process, the email agent in this one, and a
// prober in a third asks the agent's /healthz every 5 ms throughout. For each lesson (a new
// reference mark for one customer) the time runs from the authority's acknowledgement to the
// agent completing a message that only the new mark decides (its state COMPLETED, its winner that
// customer). Lessons come one after the other, as fast as they are decided: a burst, the hardest
// case for the agent (each version is served by a patch while the shards are compiled behind). /healthz latency is reported idle,
// during the first (whole) compile of the seed, and during the lessons.
//   node --import tsx test/bench/lesson-to-decision/run.ts
// (BENCH_MARKS: sizes, default 1000,10000,50000; BENCH_LESSONS: lessons a size, default 60;
// BENCH_PRINT=1: every lesson's latency, in order, on stderr)
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { AuthorityClient } from '@learnables/authority';
import { emailAgent, referencePattern } from '@learnables/email-agent';
import { LEARNABLES_URI } from '@learnables/protocol';
import { startLearnableAgent } from '@learnables/runtime';
import { scratchDir } from '@learnables/testing';
import { address } from './customers.ts';
import { benchClient, child, firstLine, healthProbe, now } from '../bench-processes.ts';
import { silentLogger } from '@learnables/authority';

const loadBefore = loadavg()
  .map((l) => l.toFixed(1))
  .join(', ');
const SIZES = (process.env.BENCH_MARKS ?? '1000,10000,50000').split(',').map(Number);
// 60 by default: with 20, the p99 was the second-slowest lesson of the run and hid the burst in
// which the background compile of the stale shards overlaps the lessons.
const LESSONS = Number(process.env.BENCH_LESSONS ?? 60);

const percentile = (samples: readonly number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const ms = (value: number) => (Number.isNaN(value) ? '—' : value.toFixed(1));

const email = (from: string, subject: string) =>
  `From: Someone <${from}>\r\nTo: intake@warehouse.example\r\nSubject: ${subject}\r\nDate: Tue, 1 Dec 2026 09:00:00 +0000\r\nMessage-ID: <${randomUUID()}@bench>\r\n\r\nPlease book in the consignment.\r\n`;

async function send(client: Client, text: string): Promise<Task> {
  const result = await client.sendMessage(
    SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text, mediaType: 'message/rfc822' }] } }),
  );
  return result as Task;
}

const winnerOf = (task: Task): string | undefined =>
  (task.status?.message?.metadata?.[LEARNABLES_URI] as { findings?: { customer?: { winner?: string } } } | undefined)?.findings?.customer?.winner;

const rows: string[] = [];
for (const marks of SIZES) {
  const dir = scratchDir('bench-l2d-');
  const authorityProcess = child(new URL('./serve-authority.ts', import.meta.url), [`sqlite:${dir.path}/authority.db`, String(marks)]);
  const [, port] = await firstLine(authorityProcess, /ready (\d+)/);
  const authorityUrl = `http://127.0.0.1:${port}`;
  const agent = await startLearnableAgent(emailAgent, {
    store: `sqlite:${dir.path}/agent.db`,
    authority: { url: authorityUrl, token: 'bench' },
    users: { bench: 'bench' },
    logger: silentLogger(),
  });
  const client = await benchClient(agent.url, 'bench');
  const teacher = new AuthorityClient({ url: authorityUrl, token: 'bench' });

  const probe = healthProbe(`${agent.url}/healthz`);
  const { during } = probe;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const idleFrom = now();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idle = during(idleFrom, now());

  // The first message compiles the whole seed (every shard).
  const firstFrom = now();
  const first = await send(client, email(address(1), 'hello'));
  const firstMs = now() - firstFrom;
  if (winnerOf(first) !== 'customer-1') throw new Error(`the first message went to ${winnerOf(first)}, not customer-1`);
  const firstCompile = during(firstFrom, now());

  const run = Math.random().toString(36).slice(2, 7).toUpperCase();
  const latencies: number[] = [];
  const lessonsFrom = now();
  for (let i = 0; i < LESSONS; i += 1) {
    const customer = (i * 7919) % (marks / 2);
    const ref = `NEW-${run}-${i}`;
    await teacher.postLesson({
      collection: 'customers',
      entry: `customer-${customer}`,
      value: { pattern: referencePattern(ref), where: 'subject' },
      taughtBy: 'bench',
      reason: 'bench',
    });
    const acknowledged = now();
    const task = await send(client, email(`stranger${i}@nowhere.example`, `Pre-alert ${ref}`));
    latencies.push(now() - acknowledged);
    if (task.status?.state !== TaskState.TASK_STATE_COMPLETED)
      throw new Error(`at ${marks} marks, lesson ${i}: the message ended ${task.status?.state}, not completed`);
    if (winnerOf(task) !== `customer-${customer}`)
      throw new Error(`at ${marks} marks, lesson ${i}: the message went to ${winnerOf(task) ?? 'nobody'}, not customer-${customer}`);
  }
  if (process.env.BENCH_PRINT) console.error(`${marks} marks, each lesson's ms: ${latencies.map((l) => l.toFixed(0)).join(' ')}`);
  const lessons = during(lessonsFrom, now());

  rows.push(
    `| ${marks.toLocaleString('en')} | ${ms(percentile(latencies, 50))} | ${ms(percentile(latencies, 99))} | ${ms(firstMs)} | ${ms(percentile(idle, 50))} / ${ms(percentile(idle, 99))} | ${ms(percentile(firstCompile, 50))} / ${ms(percentile(firstCompile, 99))} (${firstCompile.length}) | ${ms(percentile(lessons, 50))} / ${ms(percentile(lessons, 99))} (${lessons.length}) |`,
  );
  console.error(`${marks} marks done`);
  probe.stop();
  await agent.close();
  authorityProcess.kill();
  await new Promise((resolve) => authorityProcess.once('exit', resolve));
  dir.remove();
}

const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(', ');
console.log(
  `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}; load average ${loadBefore} before, ${load} after. ${LESSONS} lessons per size; authority, agent and /healthz prober in three processes.\n`,
);
console.log(
  '| marks | lesson ack → decided p50 ms | p99 ms | first message (whole compile) ms | /healthz idle p50 / p99 ms | /healthz during the whole compile p50 / p99 (samples) | /healthz during the lessons p50 / p99 (samples) |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
process.exit(0);
