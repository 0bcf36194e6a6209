import { Buffer } from 'node:buffer';
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { Task as TaskCodec, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { resolveUserScope } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import type { RuntimeDatabase } from './open-database.ts';
import type { LedgerEntry, RestingState, TaskLedger } from './task-ledger.ts';
import { TaskWrites } from './task-writes.ts';

const RESTING: ReadonlyMap<TaskState, RestingState> = new Map([
  [TaskState.TASK_STATE_INPUT_REQUIRED, 'asking'],
  [TaskState.TASK_STATE_COMPLETED, 'done'],
  [TaskState.TASK_STATE_FAILED, 'failed'],
]);

/** States a task passes through on its way to rest; a client is never answered with one. */
const PASSING: ReadonlySet<TaskState> = new Set([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]);

/** Where the SDK's database task store files a task: its tenant, its owner, its id. */
const keyOf = (taskId: string, context: ServerCallContext) => JSON.stringify([context.tenant ?? '', resolveUserScope(context), taskId]);

/** The task store the runtime runs on: the SDK's, and a task's opening with its ledger row. */
export interface RuntimeTaskStore extends TaskStore {
  /**
   * A new task, saved with its ledger row (running) in one transaction, before any step runs; for
   * a task nobody hears of before it rests (`seenOnlyAtRest`), the ledger's row alone, holding the
   * task, and the task's own row at rest (see `TaskWrites.open`).
   */
  open(
    task: Task,
    context: ServerCallContext,
    entry: Omit<LedgerEntry, 'tenant' | 'owner'> & { messageAt: number },
    options?: { seenOnlyAtRest?: boolean },
  ): Promise<void>;
}

/**
 * A deep copy of a task as the store reads tasks back: plain objects and arrays copied, bytes as
 * Buffers (what the codec reads raw parts into). Written out rather than structuredClone, which
 * took about twice as long on the SDK's five reads of every task (a task is plain JSON-like data
 * and bytes; its JSON was bounded in depth when it arrived). A key named `__proto__` (a data
 * part's own) is copied as a key, never as the copy's prototype.
 */
function copied(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copied);
  if (value instanceof Uint8Array) return Buffer.from(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copied((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

const copyOf = (task: Task): Task => copied(task) as Task;

/**
 * A task as the store would read it back (its codec's defaults), never the SDK's own object, which
 * it edits in place after saving it.
 */
const asStored = (task: Task): Task => TaskCodec.fromJSON(TaskCodec.toJSON(task));

/**
 * The SDK's task store, telling the ledger when a task's resting state is saved: only then does
 * the ledger stop counting the task as running. The SDK saves each event of a task in order, after
 * the executor has moved on, so the executor alone cannot know when the store holds its outcome.
 *
 * A task on its way to rest (submitted or working) is written to the store once, when it starts
 * passing (a new task's first save, which holds its message; a follow-up's first working save),
 * and its later passing saves are kept here only: the SDK saves a task again for every event (the
 * task event, working, the artifact), and none of those states is ever what a client is answered
 * with. The SDK reads a task again before applying each event (four or five reads a message), so
 * it is read from here while it passes; once at rest it is written and read from the store again.
 * (A plain send's new task is published once, as it rests, and so saved once: LearnablesExecutor.)
 * A process killed meanwhile leaves the task stored as it was when it started passing, and its
 * ledger row running, so the next start resumes it from its journal (nothing a client saw is lost).
 *
 * Writes go through `TaskWrites` (the SDK store's rows, with the ledger's in the same transaction);
 * reads and lists through the SDK's own store.
 */
export class LedgerTaskStore implements RuntimeTaskStore {
  /** Tasks on their way to rest, saved by this process: each as the store would give it back. */
  private readonly inFlight = new Map<string, Task>();
  private readonly inner: TaskStore;
  private readonly writes: TaskWrites;

  constructor(
    database: Pick<RuntimeDatabase, 'engine' | 'db' | 'run'>,
    private readonly ledger: TaskLedger,
  ) {
    this.inner = new DatabaseTaskStore(database.db as never);
    this.writes = new TaskWrites(database, ledger);
  }

  async open(
    task: Task,
    context: ServerCallContext,
    entry: Omit<LedgerEntry, 'tenant' | 'owner'> & { messageAt: number },
    options: { seenOnlyAtRest?: boolean } = {},
  ): Promise<void> {
    await this.writes.open(task, context, entry, options.seenOnlyAtRest ?? false);
    this.inFlight.set(keyOf(task.id, context), asStored(task));
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const state = task.status?.state;
    const key = keyOf(task.id, context);
    if (state !== undefined && PASSING.has(state)) {
      const kept = asStored(task);
      if (!this.inFlight.has(key)) await this.writes.save(task, context);
      this.inFlight.set(key, kept);
      return;
    }
    // At rest: the save and the ledger's record of the rest it was waiting for, together.
    await this.writes.save(task, context, this.ledger.takeRest(task.id, state !== undefined ? RESTING.get(state) : undefined));
    this.inFlight.delete(key);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const known = this.inFlight.get(keyOf(taskId, context));
    return known !== undefined ? copyOf(known) : this.inner.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }
}
