import type { Task } from '@a2a-js/sdk';
import { Task as TaskCodec, taskStateToJSON } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { resolveUserScope } from '@a2a-js/sdk/server';
import type { CompiledQuery, Kysely } from 'kysely';
import { compiledOnce } from './compiled-once.ts';
import type { RuntimeDatabase } from './open-database.ts';
import type { LedgerEntry, RestingState, TaskLedger } from './task-ledger.ts';
import { OPEN_VALUES, SETTLE_DATED_VALUES, SETTLE_VALUES, openRow, settleRow, settleValues } from './task-ledger.ts';
import type { RuntimeTables } from './tables.ts';

/** The columns of the SDK's task row, as its store names them. */
const TASK_VALUES = [
  'tenant',
  'owner',
  'id',
  'context_id',
  'status_last_updated',
  'status_state',
  'status',
  'artifacts',
  'history',
  'metadata',
  'protocol_version',
] as const;
type TaskValues = Readonly<Record<(typeof TASK_VALUES)[number], unknown>>;

/** What the SDK's store writes in `protocol_version` (its payload format). */
const PAYLOAD_FORMAT = '1.0';

const encode = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/**
 * The SDK's row for a task in its scope, exactly as its `DatabaseTaskStore` (1.3, `toTaskRow`)
 * writes it — held to that by `task-writes.test.ts`, which saves generated tasks both ways and
 * compares the rows. The SDK's store is still what reads tasks (and lists them); the runtime writes
 * a task's opening and resting rows itself so that the ledger's row goes in the same transaction,
 * with statements compiled once.
 */
export function taskRow(scope: { tenant: string; owner: string }, task: Task): TaskValues {
  if (typeof scope.tenant !== 'string' || typeof scope.owner !== 'string' || typeof task.id !== 'string')
    throw new Error('A task needs a tenant, an owner and an id to be stored.');
  const payload = TaskCodec.toJSON(task) as { status?: unknown; artifacts?: unknown; history?: unknown; metadata?: unknown };
  const updated = task.status?.timestamp ? Date.parse(task.status.timestamp) : 0;
  return {
    tenant: scope.tenant,
    owner: scope.owner,
    id: task.id,
    context_id: task.contextId || '',
    status_last_updated: Number.isNaN(updated) ? 0 : updated,
    status_state: task.status ? taskStateToJSON(task.status.state) : null,
    status: encode(payload.status),
    artifacts: encode(payload.artifacts),
    history: encode(payload.history),
    metadata: encode(payload.metadata),
    protocol_version: PAYLOAD_FORMAT,
  };
}

type Placeholder<Name extends string> = (name: Name) => never;

/** The SDK store's save: insert the row, or replace all but its key. */
const upsertTask = (db: Kysely<RuntimeTables>, value: Placeholder<(typeof TASK_VALUES)[number]>) => {
  const row = Object.fromEntries(TASK_VALUES.map((column) => [column, value(column)])) as unknown as RuntimeTables['tasks'];
  const { tenant: _tenant, owner: _owner, id: _id, ...replaceable } = row;
  return db
    .insertInto('tasks')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant', 'owner', 'id']).doUpdateSet(replaceable));
};

type Statement<Names extends readonly string[]> = (values: Readonly<Record<Names[number], unknown>>) => CompiledQuery;

/**
 * A task's rows written with its ledger row in one transaction: its opening (the ledger's running
 * row and the task with its message) and its resting state (the task and where the ledger says it
 * came to rest). One commit where there were two, and the rest is never recorded without the save.
 * On SQLite a transaction of the two statements; on PostgreSQL one statement, the ledger's write as
 * a common table expression of the task's (one round trip, one commit waiting for the disk).
 */
export class TaskWrites {
  private readonly save1: Statement<typeof TASK_VALUES>;
  /** PostgreSQL: the task's statement with the ledger's as its common table expression. */
  private readonly withLedger?: {
    readonly open: Statement<readonly [...typeof TASK_VALUES, ...typeof OPEN_VALUES]>;
    readonly settle: Statement<readonly [...typeof TASK_VALUES, ...typeof SETTLE_VALUES]>;
    readonly settleDated: Statement<readonly [...typeof TASK_VALUES, ...typeof SETTLE_DATED_VALUES]>;
  };

  constructor(
    private readonly database: Pick<RuntimeDatabase, 'engine' | 'db' | 'run'>,
    private readonly ledger: TaskLedger,
  ) {
    const db = database.db;
    this.save1 = compiledOnce(TASK_VALUES, (value) => upsertTask(db, value));
    if (database.engine === 'postgres') {
      this.withLedger = {
        open: compiledOnce([...TASK_VALUES, ...OPEN_VALUES], (value) => upsertTask(db.with('ledger', () => openRow(db, value)) as never, value)),
        settle: compiledOnce([...TASK_VALUES, ...SETTLE_VALUES], (value) =>
          upsertTask(db.with('ledger', () => settleRow(db, value as never, false)) as never, value),
        ),
        settleDated: compiledOnce([...TASK_VALUES, ...SETTLE_DATED_VALUES], (value) =>
          upsertTask(db.with('ledger', () => settleRow(db, value, true)) as never, value),
        ),
      };
    }
  }

  /**
   * A new task: the ledger's running row and the task's first save, together.
   *
   * `seenOnlyAtRest`: nobody hears of the task before its resting save (a plain send, answered
   * when the task rests). Its opening is then the ledger's row alone, holding the task as it opened
   * (`opening`) for a restart to resume from, and the SDK's table gets the task's row once, at rest
   * (an insert where there were an insert and an update: the row and its three indexes written
   * once, not twice, a message; the resting save clears `opening`). Until then another process
   * reading the task (GetTask on a shared database) does not find it, as nobody was told its id.
   * It is written as a step is (`RuntimeDatabase.steps`: on PostgreSQL its commit does not wait
   * for the disk): the resting save waits, and so makes this durable with it; a process killed
   * meanwhile loses nothing (the server has it).
   */
  async open(
    task: Task,
    context: ServerCallContext,
    entry: Omit<LedgerEntry, 'tenant' | 'owner'> & { messageAt: number },
    seenOnlyAtRest = false,
  ): Promise<void> {
    const scope = scopeOf(context);
    if (seenOnlyAtRest) {
      await this.database.run([this.ledger.openStatement({ ...entry, ...scope, opening: JSON.stringify(TaskCodec.toJSON(task)) })], 'steps');
      this.ledger.touched();
      return;
    }
    const row = taskRow(scope, task);
    if (this.withLedger) await this.database.run([this.withLedger.open({ ...row, ...this.ledger.openValues({ ...entry, ...scope }) })]);
    else await this.database.run([this.ledger.openStatement({ ...entry, ...scope }), this.save1(row)]);
    this.ledger.touched();
  }

  /** A save; when the task comes to rest in it, with the ledger's rest in the same transaction. */
  async save(task: Task, context: ServerCallContext, rest?: { state: RestingState; messageAt: number | undefined }): Promise<void> {
    const row = taskRow(scopeOf(context), task);
    if (rest === undefined) await this.database.run([this.save1(row)]);
    else if (this.withLedger) {
      const settle = settleValues(task.id, rest.state, rest.messageAt);
      await this.database.run([
        settle.dated ? this.withLedger.settleDated({ ...row, ...settle.values }) : this.withLedger.settle({ ...row, ...settle.values }),
      ]);
    } else await this.database.run([this.ledger.settleStatement(task.id, rest.state, rest.messageAt), this.save1(row)]);
    if (rest !== undefined) this.ledger.touched();
  }
}

/** Who owns a task, as the SDK's task store scopes it: the caller's tenant and owner. */
export const scopeOf = (context: ServerCallContext): { tenant: string; owner: string } => ({ tenant: context.tenant ?? '', owner: resolveUserScope(context) });
