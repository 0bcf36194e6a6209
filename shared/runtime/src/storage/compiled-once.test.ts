import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { scratchDir } from '@learnables/testing';
import { compiledOnce } from './compiled-once.ts';
import { pairedDatabases } from './storage.test-support.ts';
import { Journal } from './journal.ts';
import { openRuntimeDatabase } from './open-database.ts';
import { ANONYMOUS_OWNER, TaskLedger } from './task-ledger.ts';
import type { RestingState } from './task-ledger.ts';
import type { RuntimeTables } from './tables.ts';

// The ledger's and the journal's statements are compiled once and run with new values. Whatever
// they are run with, they must leave the tables exactly as the statements kysely builds afresh for
// each call left them (the code before, kept here as the reference), on both engines.

/** The ledger's and the journal's writes as they were, built by kysely on every call. */
const reference = {
  open: (db: Kysely<RuntimeTables>, agent: string, entry: { taskId: string; tenant: string; owner: string; messageAt: number }, now: number) =>
    db
      .insertInto('learnables_tasks')
      .values({
        task_id: entry.taskId,
        agent,
        tenant: entry.tenant,
        owner: entry.owner,
        message_at: entry.messageAt,
        asked: 0,
        state: 'running',
        created_at: now,
      })
      .onConflict((oc) => oc.column('task_id').doNothing())
      .execute(),
  resume: (db: Kysely<RuntimeTables>, taskId: string) => db.updateTable('learnables_tasks').set({ state: 'running' }).where('task_id', '=', taskId).execute(),
  settle: (db: Kysely<RuntimeTables>, taskId: string, state: RestingState, messageAt?: number) =>
    db
      .updateTable('learnables_tasks')
      .set((eb) => ({
        state,
        ...(state === 'asking' && { asked: 1 }),
        ...(messageAt !== undefined && { message_at: eb.case().when('owner', '=', ANONYMOUS_OWNER).then(eb.ref('message_at')).else(messageAt).end() }),
      }))
      .where('task_id', '=', taskId)
      .execute(),
  record: (db: Kysely<RuntimeTables>, taskId: string, step: string, result: string, at: number) =>
    db
      .insertInto('learnables_journal')
      .values({ task_id: taskId, step, result, at })
      .onConflict((oc) => oc.columns(['task_id', 'step']).doNothing())
      .returning('step')
      .executeTakeFirst(),
};

const operation = fc.oneof(
  fc.record({
    kind: fc.constant('open' as const),
    task: fc.nat(3),
    owner: fc.constantFrom(ANONYMOUS_OWNER, 'alice'),
    tenant: fc.constantFrom('', 't'),
    messageAt: fc.nat(),
  }),
  fc.record({ kind: fc.constant('resume' as const), task: fc.nat(3) }),
  fc.record({
    kind: fc.constant('settle' as const),
    task: fc.nat(3),
    state: fc.constantFrom<RestingState>('asking', 'done', 'failed'),
    messageAt: fc.option(fc.nat(), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('record' as const), task: fc.nat(3), step: fc.constantFrom('parse', 'pin', 'read'), result: fc.json() }),
  fc.record({
    kind: fc.constant('recordAll' as const),
    task: fc.nat(3),
    steps: fc.uniqueArray(fc.record({ step: fc.constantFrom('parse', 'pin', 'read'), result: fc.json() }), {
      selector: (one) => one.step,
      minLength: 1,
      maxLength: 3,
    }),
  }),
);

describe.each(['sqlite', 'postgres'] as const)('statements compiled once (%s)', (engine) => {
  const databases = pairedDatabases(engine, 'compiled');

  it('leave the ledger and the journal as the statements built on each call left them, for any sequence of writes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        run += 1;
        const ledger = new TaskLedger(databases.ours, 'agent');
        const journal = new Journal(databases.ours, undefined);
        for (const op of operations) {
          const taskId = `r${run}-t${op.task}`;
          if (op.kind === 'open') {
            await ledger.open({ taskId, tenant: op.tenant, owner: op.owner, messageAt: op.messageAt });
            const created = (
              await databases.ours.db.selectFrom('learnables_tasks').select('created_at').where('task_id', '=', taskId).executeTakeFirstOrThrow()
            ).created_at;
            await reference.open(databases.theirs.db, 'agent', { taskId, tenant: op.tenant, owner: op.owner, messageAt: op.messageAt }, Number(created));
          } else if (op.kind === 'resume') {
            await ledger.resume(taskId);
            await reference.resume(databases.theirs.db, taskId);
          } else if (op.kind === 'settle') {
            await ledger.settle(taskId, op.state, op.messageAt);
            await reference.settle(databases.theirs.db, taskId, op.state, op.messageAt);
          } else if (op.kind === 'recordAll') {
            // Several steps in one commit: each row as recording it alone leaves it, each result
            // the one recorded first.
            const kept = await journal.recordAll(
              taskId,
              op.steps.map(({ step, result }) => ({ step, result: JSON.parse(result) as unknown })),
            );
            for (const [i, { step, result }] of op.steps.entries()) {
              const at = (
                await databases.ours.db
                  .selectFrom('learnables_journal')
                  .select('at')
                  .where('task_id', '=', taskId)
                  .where('step', '=', step)
                  .executeTakeFirstOrThrow()
              ).at;
              const inserted = await reference.record(databases.theirs.db, taskId, step, JSON.stringify(JSON.parse(result) ?? null), Number(at));
              const first = await databases.theirs.db
                .selectFrom('learnables_journal')
                .select('result')
                .where('task_id', '=', taskId)
                .where('step', '=', step)
                .executeTakeFirstOrThrow();
              expect(kept[i]).toEqual(inserted ? (JSON.parse(result) ?? null) : JSON.parse(first.result));
            }
          } else {
            const kept = await journal.record(taskId, op.step, JSON.parse(op.result) as unknown);
            const at = (
              await databases.ours.db
                .selectFrom('learnables_journal')
                .select('at')
                .where('task_id', '=', taskId)
                .where('step', '=', op.step)
                .executeTakeFirstOrThrow()
            ).at;
            const inserted = await reference.record(databases.theirs.db, taskId, op.step, JSON.stringify(JSON.parse(op.result) ?? null), Number(at));
            if (inserted) expect(kept).toEqual(JSON.parse(op.result) ?? null);
          }
        }
        const rows = async (db: Kysely<RuntimeTables>) => ({
          tasks: (await db.selectFrom('learnables_tasks').selectAll().where('task_id', 'like', `r${run}-%`).orderBy('task_id').execute()).map((row) => ({
            ...row,
            message_at: Number(row.message_at),
            created_at: Number(row.created_at),
            asked: Number(row.asked),
          })),
          journal: (
            await db.selectFrom('learnables_journal').selectAll().where('task_id', 'like', `r${run}-%`).orderBy('task_id').orderBy('step').execute()
          ).map((row) => ({ ...row, at: Number(row.at) })),
        });
        expect(await rows(databases.ours.db)).toEqual(await rows(databases.theirs.db));
      }),
      { numRuns: 80 },
    );
  });

  it('refuses, when it is made, a statement that leaves out one of its values', () => {
    expect(() =>
      compiledOnce(['task_id', 'state'], (value) =>
        databases.ours.db.updateTable('learnables_tasks').set({ state: 'done' }).where('task_id', '=', value('task_id')),
      ),
    ).toThrow(/does not use its values state/);
  });
});

describe.each(['sqlite', 'postgres'] as const)('steps that end together (%s)', (engine) => {
  const databases = pairedDatabases(engine, 'together');
  const rowsOf = async (taskId: string) =>
    (await databases.ours.db.selectFrom('learnables_journal').select(['step', 'result']).where('task_id', '=', taskId).orderBy('step').execute()).map(
      (row) => `${row.step}=${row.result}`,
    );

  it('are recorded all or none, each computed once, the known ones not again', async () => {
    const journal = new Journal(databases.ours, undefined);
    const computed: string[] = [];
    const step = <T>(name: string, value: T) => ({ name, compute: async () => (computed.push(name), value) });

    // One result over its bound: neither is recorded, and the refusal is the bound's.
    const tooLong = await journal.forTask('a', { fresh: true });
    await expect(
      tooLong.together<[number, string]>([
        step('pin', 7),
        { ...step('parse', 'x'.repeat(50)), bound: { characters: 10, refuse: () => new Error('too long to keep') } },
      ]),
    ).rejects.toThrow('too long to keep');
    expect(await rowsOf('a')).toEqual([]);

    // One fails at once, the other later: the call fails with the first, nothing is recorded, and
    // the later failure is not left unhandled (vitest fails a run on an unhandled rejection).
    const failing = await journal.forTask('b', { fresh: true });
    const later = { name: 'pin', compute: () => new Promise<number>((_, reject) => setTimeout(() => reject(new Error('authority down')), 20)) };
    const atOnce = {
      name: 'parse',
      compute: (): string => {
        throw new Error('unreadable');
      },
    };
    await expect(failing.together<[number, string]>([later, atOnce])).rejects.toThrow('unreadable');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await rowsOf('b')).toEqual([]);

    // Both recorded together; run again (a resume), nothing is computed and the same comes back.
    computed.length = 0;
    const first = await journal.forTask('c', { fresh: true });
    expect(await first.together<[number, string]>([step('pin', 7), step('parse', 'mango')])).toEqual([7, 'mango']);
    expect(await rowsOf('c')).toEqual(['parse="mango"', 'pin=7']);
    const resumed = await journal.forTask('c');
    expect(await resumed.together<[number, string]>([step('pin', 8), step('parse', 'other')])).toEqual([7, 'mango']);
    expect(computed).toEqual(['pin', 'parse']);

    // Only the one not recorded yet is computed (a journal from before they were recorded together).
    await journal.record('d', 'parse', 'kept');
    computed.length = 0;
    const partly = await journal.forTask('d');
    expect(await partly.together<[number, string]>([step('pin', 9), step('parse', 'again')])).toEqual([9, 'kept']);
    expect(computed).toEqual(['pin']);
  });

  it('with one made from them (togetherThen): records the steps and that one in one commit, made from what is recorded, and on a resume computes none again', async () => {
    const journal = new Journal(databases.ours, undefined);
    const computed: string[] = [];
    const step = <T>(name: string, value: T) => ({ name, compute: async () => (computed.push(name), value) });
    const read = { name: 'read', compute: ([pin, parse]: readonly [{ v: number }, string]) => (computed.push('read'), `${parse}@${pin.v}`) };

    const fresh = await journal.forTask('then-a', { fresh: true });
    // `then` is given the results as a replay gets them back (JSON): undefined members are gone.
    expect(await fresh.togetherThen<[{ v: number }, string], string>([step('pin', { v: 3, gone: undefined }), step('parse', 'mango')], read)).toEqual([
      [{ v: 3 }, 'mango'],
      'mango@3',
    ]);
    expect(await rowsOf('then-a')).toEqual(['parse="mango"', 'pin={"v":3}', 'read="mango@3"']);
    computed.length = 0;
    const resumed = await journal.forTask('then-a');
    expect(await resumed.togetherThen<[{ v: number }, string], string>([step('pin', { v: 4 }), step('parse', 'other')], read)).toEqual([
      [{ v: 3 }, 'mango'],
      'mango@3',
    ]);
    expect(computed).toEqual([]);

    // A step over its bound refuses the task before `then` runs, and nothing is recorded.
    computed.length = 0;
    const tooLong = await journal.forTask('then-b', { fresh: true });
    await expect(
      tooLong.togetherThen<[{ v: number }, string], string>(
        [step('pin', { v: 1 }), { ...step('parse', 'x'.repeat(50)), bound: { characters: 10, refuse: () => new Error('too long to keep') } }],
        read,
      ),
    ).rejects.toThrow('too long to keep');
    expect(computed).toEqual(['pin', 'parse']);
    expect(await rowsOf('then-b')).toEqual([]);

    // `then` failing leaves nothing recorded: a resume starts the task again.
    const failing = await journal.forTask('then-c', { fresh: true });
    const broken = {
      name: 'read',
      compute: (): string => {
        throw new Error('unreadable');
      },
    };
    await expect(failing.togetherThen<[{ v: number }, string], string>([step('pin', { v: 1 }), step('parse', 'p')], broken)).rejects.toThrow('unreadable');
    expect(await rowsOf('then-c')).toEqual([]);

    // A journal from before the reading was recorded with them: only the reading is computed, from what is recorded.
    await journal.recordAll('then-d', [
      { step: 'pin', result: { v: 7 } },
      { step: 'parse', result: 'kept' },
    ]);
    computed.length = 0;
    const older = await journal.forTask('then-d');
    expect(await older.togetherThen<[{ v: number }, string], string>([step('pin', { v: 9 }), step('parse', 'again')], read)).toEqual([
      [{ v: 7 }, 'kept'],
      'kept@7',
    ]);
    expect(computed).toEqual(['read']);
  });

  it('with one made from them: takes every result of another replica that recorded the same steps first, and refuses a reading that would not rest on the recorded ones', async () => {
    const journal = new Journal(databases.ours, undefined);
    const read = { name: 'read', compute: ([pin, parse]: readonly [number, string]) => `${parse}@${pin}` };
    const step = <T>(name: string, value: T) => ({ name, compute: () => value });

    // Both replicas started the task with nothing recorded; the other one committed first.
    const ours = await journal.forTask('then-e', { fresh: true });
    await journal.recordAll('then-e', [
      { step: 'pin', result: 1 },
      { step: 'parse', result: 'theirs' },
      { step: 'read', result: 'theirs@1' },
    ]);
    expect(await ours.togetherThen<[number, string], string>([step('pin', 2), step('parse', 'ours')], read)).toEqual([[1, 'theirs'], 'theirs@1']);

    // An older replica recorded the pin and the parse alone meanwhile: our reading would be written
    // beside a pin it was not made with, so the task is refused rather than decided on it.
    const racing = await journal.forTask('then-f', { fresh: true });
    await journal.recordAll('then-f', [
      { step: 'pin', result: 1 },
      { step: 'parse', result: 'theirs' },
    ]);
    await expect(racing.togetherThen<[number, string], string>([step('pin', 2), step('parse', 'ours')], read)).rejects.toThrow(/another replica/);
  });
});

describe('RuntimeDatabase.run on SQLite', () => {
  it('runs its statements together or not at all, and never inside a kysely transaction that is open on the connection', async () => {
    const dir = scratchDir('run-statements-');
    const database = await openRuntimeDatabase(`sqlite:${dir.path}/agent.db`);
    const insert = compiledOnce(['task_id', 'step'], (value) =>
      database.db.insertInto('learnables_journal').values({ task_id: value('task_id'), step: value('step'), result: '1', at: 1 }),
    );
    const steps = async () =>
      (await database.db.selectFrom('learnables_journal').select(['task_id', 'step']).orderBy('task_id').execute()).map((row) => `${row.task_id}/${row.step}`);

    // Together: the second fails (the same key twice), so neither is written.
    await expect(database.run([insert({ task_id: 'a', step: 'parse' }), insert({ task_id: 'a', step: 'parse' })])).rejects.toThrow(/UNIQUE/);
    expect(await steps()).toEqual([]);

    // A kysely transaction is open and waiting: a run made meanwhile waits for it and is not rolled back with it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = database.db
      .transaction()
      .execute(async (trx) => {
        await trx.executeQuery(insert({ task_id: 'theirs', step: 'parse' }));
        await held;
        throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ours = database.run([insert({ task_id: 'ours', step: 'parse' })]);
    release();
    expect(await rolledBack).toBe('rolled back');
    await ours;
    expect(await steps()).toEqual(['ours/parse']);
    await database.close();
    dir.remove();
  });
});
