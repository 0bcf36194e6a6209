// Benchmark: what a task's writes cost on PostgreSQL, run as named prepared statements (what the
// runtime does) against the same compiled statements run unnamed through kysely (what it did before
// 2026-12-02), in one run, interleaved rounds. A task's writes are its opening (the task with the
// ledger's row), its pin and parse, its reading and its rest (the task with the ledger's), through
// TaskWrites and the Journal as an agent writes them, 8 tasks at a time. Measured: the CPU of this
// process (the agent's side: pg, the statements' values, the kernel's socket work) and of the
// server's backends (from /proc), per task, and tasks a second.
// Run: node --import tsx shared/runtime/bench/postgres-writes.ts (LEARNABLES_TEST_PG_URL: the
// PostgreSQL server to make a scratch database on, default the local one; BENCH_TASKS: tasks a round,
// default 3,000; BENCH_ROUNDS: rounds a side, default 3). Then a question's writes with large values
// compressed by lz4 (what the runtime has PostgreSQL use) against pglz (PostgreSQL's default).
import { cpus, loadavg } from 'node:os';
import { Role, Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';
import { sql } from 'kysely';
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { LEARNABLES_URI } from '@learnables/protocol';
import { scratchPostgres } from '@learnables/testing';
import { backendsOf, cpuMeter, cpuMs } from '../../../test/bench/bench-processes.ts';
import { openRuntimeDatabase, throughKysely } from '../src/storage/open-database.ts';
import type { RuntimeDatabase } from '../src/storage/open-database.ts';
import { Journal } from '../src/storage/journal.ts';
import { TaskLedger } from '../src/storage/task-ledger.ts';
import { TaskWrites } from '../src/storage/task-writes.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IN_FLIGHT = 8;

const scratch = await scratchPostgres('bench_pg_writes');
const database = await openRuntimeDatabase(scratch.url);

/** The same database, its statements run as before: unnamed, through kysely (parsed and planned on every run). */
const unnamed: RuntimeDatabase = {
  ...database,
  run: (queries: readonly CompiledQuery[], on: 'db' | 'steps' = 'db') => throughKysely(on === 'steps' ? database.steps : database.db, queries),
};

const context = new ServerCallContext({ user: new UnauthenticatedUser() });
// An email of the fixtures' size (about 900 bytes) as the task's message, a parse and a question of the email agent's size.
const raw = new TextEncoder().encode('x'.repeat(900));
const taskOf = (id: string, state: TaskState): Task =>
  Task.fromJSON(
    Task.toJSON({
      id,
      contextId: 'c',
      status: { state, message: undefined, timestamp: new Date().toISOString() },
      history: [
        {
          messageId: `${id}-m`,
          taskId: id,
          contextId: 'c',
          role: Role.ROLE_USER,
          parts: [{ content: { $case: 'raw', value: raw }, metadata: {}, filename: 'm.eml', mediaType: 'message/rfc822' }],
          metadata: {},
          extensions: [],
          referenceTaskIds: [],
        },
      ],
      artifacts: [],
      metadata: {},
    } as unknown as Task),
  );
const parsed = { from: 'billing@origin.example', subject: 's'.repeat(80), text: 't'.repeat(600) };
const question = { settled: false, question: { collection: 'customers', entries: [{ key: 'northgate', label: 'Northgate Motors Ltd' }] } };

/** A task's four writes on `db`: its opening, its pin and parse, its reading (`reading`) and its rest (`resting`). */
function writerOn(db: RuntimeDatabase, reading: unknown = question, resting: (id: string) => Task = (id) => taskOf(id, TaskState.TASK_STATE_INPUT_REQUIRED)) {
  const writes = new TaskWrites(db, new TaskLedger(db, 'bench'));
  const journal = new Journal(db);
  return async (id: string) => {
    await writes.open(taskOf(id, TaskState.TASK_STATE_SUBMITTED), context, { taskId: id, messageAt: Date.now() });
    await journal.recordAll(id, [
      { step: 'pin', result: { customers: 2 } },
      { step: 'parse', result: parsed },
    ]);
    await journal.record(id, 'read', reading);
    await writes.save(resting(id), context, { state: 'asking', messageAt: Date.now() });
  };
}
const sides = { prepared: writerOn(database), unnamed: writerOn(unnamed) };

const meter = cpuMeter({ server: () => backendsOf(scratch.url) }, 'agent');

interface Round {
  readonly perSecond: number;
  readonly agentMs: number;
  readonly serverMs: number;
}
let serial = 0;
/** `tasks` tasks written by `write`, IN_FLIGHT at a time, measured by `measuring` (a `cpuMeter`'s). */
async function timed(write: (id: string) => Promise<void>, measuring: typeof meter, label: string, tasks: number): Promise<Round> {
  const measured = measuring();
  const started = performance.now();
  let left = tasks;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) {
        serial += 1;
        await write(`${label}-${serial}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = measured(tasks);
  return { perSecond: tasks / seconds, agentMs: used.agent!, serverMs: used.server! };
}
const round = (side: keyof typeof sides, tasks: number) => timed(sides[side], meter, side, tasks);
const medianOf = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  for (const side of ['prepared', 'unnamed'] as const) await round(side, 1000);
  const rounds: { prepared: Round; unnamed: Round }[] = [];
  for (let r = 0; r < ROUNDS; r += 1) rounds.push({ unnamed: await round('unnamed', TASKS), prepared: await round('prepared', TASKS) });
  const median = (of: (r: (typeof rounds)[number]) => number) => medianOf(rounds.map(of));
  const fixed = (n: number, digits = 2) => n.toFixed(digits);
  console.log(
    `\n### A task's four writes on PostgreSQL: prepared statements against unnamed ones (${TASKS.toLocaleString('en')} tasks a round, ${IN_FLIGHT} at a time, ${ROUNDS} interleaved rounds)\n`,
  );
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; the local PostgreSQL server over loopback. Load average at the end ${loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}.\n`,
  );
  console.log('| round | unnamed: tasks/s | agent CPU ms a task | server CPU ms a task | prepared: tasks/s | agent CPU ms a task | server CPU ms a task |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [i, r] of rounds.entries()) {
    console.log(
      `| ${i + 1} | ${Math.round(r.unnamed.perSecond)} | ${fixed(r.unnamed.agentMs)} | ${fixed(r.unnamed.serverMs)} | ${Math.round(r.prepared.perSecond)} | ${fixed(r.prepared.agentMs)} | ${fixed(r.prepared.serverMs)} |`,
    );
  }
  console.log(
    `\nPrepared / unnamed, medians of the rounds' ratios: CPU a task, agent **${fixed(median((r) => r.prepared.agentMs / r.unnamed.agentMs))}×**, server **${fixed(median((r) => r.prepared.serverMs / r.unnamed.serverMs))}×**; tasks a second ${fixed(median((r) => r.prepared.perSecond / r.unnamed.perSecond))}×.`,
  );

  // A question at rest as the email agent writes it: its teach block lists every customer an answer
  // may name (500 here, about 23 kB), in the task's status, its history and the journal's read step.
  // PostgreSQL compresses such values; the runtime has it use lz4 (open-database.ts), against its
  // default, pglz: the same writes on a second database whose large columns are set to pglz.
  const teach = {
    collection: 'customers',
    question: 'Which customer is this for?',
    entries: Array.from({ length: 500 }, (_, i) => ({ key: `customer-${i}`, label: `Customer ${i} Ltd` })),
    version: 7,
  };
  const asking = { settled: false, question: teach };
  const restingTask = (id: string): Task => {
    const task = taskOf(id, TaskState.TASK_STATE_INPUT_REQUIRED);
    const message = {
      messageId: `${id}-q`,
      taskId: id,
      contextId: 'c',
      role: Role.ROLE_AGENT,
      parts: [{ content: { $case: 'text', value: teach.question }, metadata: {}, filename: '', mediaType: 'text/plain' }],
      metadata: { [LEARNABLES_URI]: teach },
      extensions: [],
      referenceTaskIds: [],
    };
    return Task.fromJSON(Task.toJSON({ ...task, status: { ...task.status!, message }, history: [...task.history, message] } as unknown as Task));
  };
  const pglzScratch = await scratchPostgres('bench_pg_pglz');
  const pglz = await openRuntimeDatabase(pglzScratch.url);
  try {
    const { rows: columns } = await sql<{
      table_name: string;
      column_name: string;
    }>`select table_name, column_name from information_schema.columns where table_schema = current_schema() and data_type in ('text', 'json', 'jsonb', 'bytea')`.execute(
      pglz.db,
    );
    for (const { table_name, column_name } of columns)
      await sql`alter table ${sql.id(table_name)} alter column ${sql.id(column_name)} set compression pglz`.execute(pglz.db);
    const questions = { lz4: writerOn(database, asking, restingTask), pglz: writerOn(pglz, asking, restingTask) };
    const pglzMeter = cpuMeter({ server: () => backendsOf(pglzScratch.url) }, 'agent');
    const questionRound = (side: keyof typeof questions, tasks: number) => timed(questions[side], side === 'lz4' ? meter : pglzMeter, `${side}-q`, tasks);
    for (const side of ['lz4', 'pglz'] as const) await questionRound(side, 500);
    const compared: { lz4: Round; pglz: Round }[] = [];
    for (let r = 0; r < ROUNDS; r += 1) compared.push({ pglz: await questionRound('pglz', TASKS), lz4: await questionRound('lz4', TASKS) });
    const middle = (of: (r: (typeof compared)[number]) => number) => medianOf(compared.map(of));
    console.log(
      `\n### A question's writes (a teach block of 500 customers, about 23 kB) on PostgreSQL: large values compressed with lz4 against pglz (${TASKS.toLocaleString('en')} tasks a round, ${IN_FLIGHT} at a time, ${ROUNDS} interleaved rounds)\n`,
    );
    console.log('| round | pglz: tasks/s | agent CPU ms a task | server CPU ms a task | lz4: tasks/s | agent CPU ms a task | server CPU ms a task |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [i, r] of compared.entries()) {
      console.log(
        `| ${i + 1} | ${Math.round(r.pglz.perSecond)} | ${r.pglz.agentMs.toFixed(2)} | ${r.pglz.serverMs.toFixed(2)} | ${Math.round(r.lz4.perSecond)} | ${r.lz4.agentMs.toFixed(2)} | ${r.lz4.serverMs.toFixed(2)} |`,
      );
    }
    console.log(
      `\nlz4 / pglz, medians of the rounds' ratios: server CPU a task **${middle((r) => r.lz4.serverMs / r.pglz.serverMs).toFixed(2)}×**, agent CPU ${middle((r) => r.lz4.agentMs / r.pglz.agentMs).toFixed(2)}×; tasks a second ${middle((r) => r.lz4.perSecond / r.pglz.perSecond).toFixed(2)}×.`,
    );
    // The compression alone: one teach block a statement on one connection, whose backend's CPU is
    // read from /proc (the tasks' rounds above carry their other writes and eight connections' noise).
    const block = JSON.stringify(asking);
    const perValue = async (compression: 'lz4' | 'pglz') => {
      const client = new pg.Client({ connectionString: scratch.url, options: `-c default_toast_compression=${compression}` });
      await client.connect();
      try {
        await client.query('create temporary table block (body text)');
        const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        const before = cpuMs(pid);
        for (let i = 0; i < 2000; i += 1) await client.query({ name: 'insert-block', text: 'insert into block (body) values ($1)', values: [`${block}${i}`] });
        return (cpuMs(pid) - before) / 2000;
      } finally {
        await client.end();
      }
    };
    const values: { lz4: number; pglz: number }[] = [];
    for (let r = 0; r < ROUNDS; r += 1) values.push({ pglz: await perValue('pglz'), lz4: await perValue('lz4') });
    console.log(
      `\nOne teach block (${block.length.toLocaleString('en')} characters) a statement, 2,000 a round on one connection: server CPU a value, pglz ${values.map((v) => v.pglz.toFixed(3)).join(', ')} ms, lz4 ${values.map((v) => v.lz4.toFixed(3)).join(', ')} ms; lz4 / pglz, median **${medianOf(values.map((v) => v.lz4 / v.pglz)).toFixed(2)}×**.`,
    );
  } finally {
    await pglz.close();
    await pglzScratch.drop();
  }
} finally {
  await database.close();
  await scratch.drop();
}
