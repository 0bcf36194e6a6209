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
import { context, generatedTask, save } from './storage.test-support.ts';

// LedgerTaskStore writes a task's passing states (submitted, working) once, when the task starts
// passing, and keeps the later ones in memory, where it reads them from. These hold it to the store
// itself, on both engines: after any sequence of saves, every read gives what the SDK's database
// store alone gives when it is handed every save; and the database holds, for each task, what that
// store would hold after the last resting save or the first save of the passing run since.

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

  it("reads, after every save of generated tasks, exactly what the store alone reads, and the database holds each run's first passing save", async () => {
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
        const ledger = new TaskLedger(database, 'agent');
        const store = new LedgerTaskStore(database, ledger);
        const passing = new Set<string>();
        for (const step of saves) {
          const id = ids[step.task]!;
          const task = generatedTask(id, step.save, 1_800_000_000_000 + run);
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
    const ledger = new TaskLedger(database, 'agent');
    const store = new LedgerTaskStore(database, ledger);
    const who = context();
    const task = Task.fromJSON({ id: 'copy-1', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' }, history: [] });
    await store.save(task, who);
    await store.save({ ...task, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' } }, who);
    const loaded = await store.load('copy-1', who);
    loaded!.status!.state = TaskState.TASK_STATE_FAILED;
    loaded!.history.push({
      messageId: 'm',
      taskId: 'copy-1',
      contextId: 'c',
      role: Role.ROLE_AGENT,
      parts: [],
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
    });
    expect((await store.load('copy-1', who))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await store.load('copy-1', who))?.history).toEqual([]);
  });
});

describe('LedgerTaskStore copies of a task', () => {
  it("equal what the codec reads back, bytes as Buffers, for generated tasks, and keep a data part's own __proto__ key as a key", async () => {
    const dir = scratchDir('ledger-copy-');
    const database = await openRuntimeDatabase(`sqlite:${dir.path}/agent.db`);
    const store = new LedgerTaskStore(database, new TaskLedger(database, 'agent'));
    await fc.assert(
      fc.asyncProperty(save('x'), fc.uuid(), async (described, id) => {
        const task = generatedTask(id, { ...described, state: TaskState.TASK_STATE_WORKING }, 1_800_000_000_000);
        await store.save(task, context());
        await store.save(task, context());
        const loaded = await store.load(id, context());
        expect(loaded).toEqual(Task.fromJSON(Task.toJSON(task)));
        for (const message of loaded!.history)
          for (const part of message.parts) if (part.content?.$case === 'raw') expect(Buffer.isBuffer(part.content.value)).toBe(true);
      }),
      { numRuns: 100 },
    );
    const hostile = Task.fromJSON({
      id: 'proto-1',
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING' },
      history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ data: JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') }] }],
    });
    await store.save(hostile, context());
    await store.save(hostile, context());
    const data = (await store.load('proto-1', context()))!.history[0]!.parts[0]!.content;
    expect(data?.$case === 'data' && Object.getPrototypeOf(data.value)).toBe(Object.prototype);
    expect(data?.$case === 'data' && Object.keys(data.value)).toEqual(['__proto__', 'a']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    await database.close();
    dir.remove();
  });
});
