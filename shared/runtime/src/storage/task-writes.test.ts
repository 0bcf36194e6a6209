import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Task as TaskCodec } from '@a2a-js/sdk';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import type { Kysely } from 'kysely';
import { context, generatedTask, pairedDatabases, save } from './storage.test-support.ts';
import { TaskLedger } from './task-ledger.ts';
import type { RestingState } from './task-ledger.ts';
import { TaskWrites } from './task-writes.ts';
import type { RuntimeTables } from './tables.ts';

// TaskWrites writes the SDK store's task rows itself, with the ledger's row in the same
// transaction. For any sequence of openings and saves of generated tasks, the tables must hold
// exactly what the SDK's own store and the ledger's own writes leave, on both engines. A task
// opened as seen only at rest (`openAtRest`) has no row in the SDK's table until it is saved, as
// if the SDK had not saved it yet; its ledger row keeps the task until it rests.

const operation = fc.record({
  task: fc.constantFrom(0, 1),
  kind: fc.constantFrom('open', 'openAtRest', 'save', 'rest'),
  save: save('x'),
  rest: fc.constantFrom<RestingState>('asking', 'done', 'failed'),
  messageAt: fc.option(fc.nat(), { nil: undefined }),
});

describe.each(['sqlite', 'postgres'] as const)('TaskWrites against the SDK store and the ledger (%s)', (engine) => {
  const databases = pairedDatabases(engine, 'writes');

  it('leaves the task rows and the ledger exactly as the SDK store and the ledger alone do', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        run += 1;
        const writes = new TaskWrites(databases.ours, new TaskLedger(databases.ours, 'agent'));
        const sdk = new DatabaseTaskStore(databases.theirs.db as never);
        const ledger = new TaskLedger(databases.theirs, 'agent');
        const opened = new Set<string>();
        for (const op of operations) {
          const id = `w${run}-${op.task}`;
          const task = generatedTask(id, op.save, 1_800_000_000_000 + run);
          const who = context(op.save.owner);
          if (op.kind === 'open') {
            await writes.open(task, who, { taskId: id, messageAt: 1_700_000_000_000 + run });
            await ledger.open({ taskId: id, tenant: '', owner: op.save.owner ?? 'unknown', messageAt: 1_700_000_000_000 + run });
            await sdk.save(task, who);
            opened.add(id);
          } else if (op.kind === 'openAtRest') {
            await writes.open(task, who, { taskId: id, messageAt: 1_700_000_000_000 + run }, true);
            await ledger.open({ taskId: id, tenant: '', owner: op.save.owner ?? 'unknown', messageAt: 1_700_000_000_000 + run });
            // The ledger row keeps the task as it opened (a second open of a task changes nothing).
            if (!opened.has(id)) {
              const kept = await databases.ours.db.selectFrom('learnables_tasks').select('opening').where('task_id', '=', id).executeTakeFirstOrThrow();
              expect(TaskCodec.fromJSON(JSON.parse(kept.opening!))).toEqual(TaskCodec.fromJSON(TaskCodec.toJSON(task)));
            }
            opened.add(id);
          } else if (op.kind === 'save') {
            await writes.save(task, who);
            await sdk.save(task, who);
          } else {
            await writes.save(task, who, { state: op.rest, messageAt: op.messageAt });
            await sdk.save(task, who);
            await ledger.settle(id, op.rest, op.messageAt);
          }
        }
        const rows = async (db: Kysely<RuntimeTables>) => ({
          tasks: (await db.selectFrom('tasks').selectAll().where('id', 'like', `w${run}-%`).orderBy('owner').orderBy('id').execute()).map((row) => ({
            ...row,
            status_last_updated: Number(row.status_last_updated),
          })),
          ledger: (
            await db
              .selectFrom('learnables_tasks')
              .select(['task_id', 'agent', 'tenant', 'owner', 'message_at', 'asked', 'state'])
              .where('task_id', 'like', `w${run}-%`)
              .orderBy('task_id')
              .execute()
          ).map((row) => ({
            ...row,
            message_at: Number(row.message_at),
            asked: Number(row.asked),
          })),
        });
        expect(await rows(databases.ours.db)).toEqual(await rows(databases.theirs.db));
        // Once at rest, no task keeps its opening in the ledger.
        const rested = await databases.ours.db
          .selectFrom('learnables_tasks')
          .select('opening')
          .where('task_id', 'like', `w${run}-%`)
          .where('state', '!=', 'running')
          .execute();
        expect(rested.map((row) => row.opening)).toEqual(rested.map(() => null));
      }),
      { numRuns: 60 },
    );
  });
});
