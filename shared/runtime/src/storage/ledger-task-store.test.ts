import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import { sql } from 'kysely';
import { scratchDir, scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase, ScratchDir } from '@learnables/testing';
import { LedgerTaskStore } from './ledger-task-store.ts';
import type { RuntimeDatabase } from './open-database.ts';
import { openRuntimeDatabase } from './open-database.ts';
import { TaskLedger } from './task-ledger.ts';

// LedgerTaskStore writes a task's passing states (submitted, working) once, when the task starts
// passing, and keeps the later ones in memory, where it reads them from. These hold it to the store
// itself, on both engines: after any sequence of saves, every read gives what the SDK's database
// store alone gives when it is handed every save; and the database holds, for each task, what that
// store would hold after the last resting save or the first save of the passing run since.

const context = (owner?: string) => new ServerCallContext(owner ? { user: { isAuthenticated: true, userName: owner } } : { user: new UnauthenticatedUser() });
const STATES = [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED];

const part = fc.oneof(
  fc.string({ maxLength: 40 }).map((value) => ({ content: { $case: 'text' as const, value }, metadata: {}, filename: '', mediaType: 'text/plain' })),
  fc.uint8Array({ maxLength: 64 }).map((value) => ({ content: { $case: 'raw' as const, value }, metadata: {}, filename: 'm.eml', mediaType: 'message/rfc822' })),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean())).map((value) => ({ content: { $case: 'data' as const, value }, metadata: {}, filename: '', mediaType: 'application/json' })),
);
const message = (taskId: string) =>
  fc.record({ parts: fc.array(part, { minLength: 1, maxLength: 3 }), role: fc.constantFrom(Role.ROLE_USER, Role.ROLE_AGENT), id: fc.uuid() }).map(({ parts, role, id }) =>
    ({ messageId: id, taskId, contextId: 'c', role, parts, metadata: {}, extensions: [], referenceTaskIds: [] }),
  );
const save = (taskId: string) =>
  fc.record({
    state: fc.constantFrom(...STATES),
    history: fc.array(message(taskId), { maxLength: 3 }),
    artifacts: fc.array(fc.record({ artifactId: fc.constantFrom('result', 'other'), parts: fc.array(part, { maxLength: 2 }) }), { maxLength: 2 }),
    metadata: fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 })), { nil: undefined }),
    owner: fc.constantFrom(undefined, 'alice'),
    repeat: fc.boolean(),
  });

async function openBoth(url: string): Promise<RuntimeDatabase> {
  return openRuntimeDatabase(url);
}

describe.each(['sqlite', 'postgres'] as const)('LedgerTaskStore against the SDK database store alone (%s)', (engine) => {
  let dir: ScratchDir;
  let scratch: ScratchDatabase | undefined;
  let database: RuntimeDatabase;
  beforeAll(async () => {
    dir = scratchDir('ledger-store-');
    scratch = engine === 'postgres' ? await scratchPostgres('ledger_store') : undefined;
    database = await openBoth(scratch?.url ?? `sqlite:${dir.path}/agent.db`);
  });
  afterAll(async () => {
    await database.close();
    await scratch?.drop();
    dir.remove();
  });

  it('commits steps without waiting for the disk on PostgreSQL only, and everything else as before', async () => {
    const setting = async (db: RuntimeDatabase['db']) =>
      (await sql<{ setting: string; source: string }>`select setting, source from pg_settings where name = 'synchronous_commit'`.execute(db)).rows[0];
    if (engine === 'sqlite') expect(database.steps).toBe(database.db);
    else {
      // The main pool sets nothing and keeps the server's own setting (on, unless the server was
      // started without it, as the embedded test server of a machine with no PostgreSQL is, for
      // speed); only the steps pool asks, at connection, not to wait for the disk.
      expect((await setting(database.db))?.source).not.toBe('client');
      expect(await setting(database.steps)).toEqual({ setting: 'off', source: 'client' });
    }
  });

  it('reads, after every save of generated tasks, exactly what the store alone reads, and the database holds each run\'s first passing save', async () => {
    const plain = new DatabaseTaskStore(database.db as never);
    const reference = await openRuntimeDatabase(`sqlite:${dir.path}/reference.db`);
    const everySave = new DatabaseTaskStore(reference.db as never);
    const durable = await openRuntimeDatabase(`sqlite:${dir.path}/durable.db`);
    const whatLasts = new DatabaseTaskStore(durable.db as never);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ task: fc.constantFrom(0, 1), save: save('x') }), { minLength: 1, maxLength: 8 }), async (saves) => {
        run += 1;
        const ids = [`t${run}-a`, `t${run}-b`];
        const ledger = new TaskLedger(database.db, 'agent', database.steps);
        const store = new LedgerTaskStore(new DatabaseTaskStore(database.db as never), ledger);
        const passing = new Set<string>();
        for (const step of saves) {
          const id = ids[step.task]!;
          const task: Task = Task.fromJSON(
            Task.toJSON({
              id,
              contextId: 'c',
              status: { state: step.save.state, message: undefined, timestamp: new Date(1_800_000_000_000 + run).toISOString() },
              history: step.save.history.map((m) => ({ ...m, taskId: id })),
              artifacts: step.save.artifacts.map((a) => ({ ...a, name: '', description: '', metadata: {}, extensions: [] })),
              metadata: step.save.metadata ?? {},
            } as Task),
          );
          const who = context(step.save.owner);
          for (const _ of step.save.repeat ? [1, 2] : [1]) {
            await store.save(task, who);
            await everySave.save(task, who);
            // What must last: a resting save, and the first save of a run of passing ones.
            const key = `${step.save.owner ?? ''}/${id}`;
            const isPassing = step.save.state === TaskState.TASK_STATE_SUBMITTED || step.save.state === TaskState.TASK_STATE_WORKING;
            if (!isPassing || !passing.has(key)) await whatLasts.save(task, who);
            if (isPassing) passing.add(key);
            else passing.delete(key);
          }
          for (const other of [context(), context('alice'), context('bob')]) {
            for (const any of ids) {
              expect(await store.load(any, other)).toEqual(await everySave.load(any, other));
              expect(await plain.load(any, other)).toEqual(await whatLasts.load(any, other));
            }
          }
        }
      }),
      { numRuns: 60 },
    );
    await reference.close();
    await durable.close();
  });

  it('hands out a copy: the SDK editing a task it loaded or saved does not change what is kept', async () => {
    const ledger = new TaskLedger(database.db, 'agent', database.steps);
    const store = new LedgerTaskStore(new DatabaseTaskStore(database.db as never), ledger);
    const who = context();
    const task = Task.fromJSON({ id: 'copy-1', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' }, history: [] });
    await store.save(task, who);
    await store.save({ ...task, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' } }, who);
    const loaded = await store.load('copy-1', who);
    loaded!.status!.state = TaskState.TASK_STATE_FAILED;
    loaded!.history.push({ messageId: 'm', taskId: 'copy-1', contextId: 'c', role: Role.ROLE_AGENT, parts: [], metadata: {}, extensions: [], referenceTaskIds: [] });
    expect((await store.load('copy-1', who))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await store.load('copy-1', who))?.history).toEqual([]);
  });
});
