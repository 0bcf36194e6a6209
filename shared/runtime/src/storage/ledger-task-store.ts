import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { Task as TaskCodec, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { resolveUserScope } from '@a2a-js/sdk/server';
import type { RestingState, TaskLedger } from './task-ledger.ts';

const RESTING: ReadonlyMap<TaskState, RestingState> = new Map([
  [TaskState.TASK_STATE_INPUT_REQUIRED, 'asking'],
  [TaskState.TASK_STATE_COMPLETED, 'done'],
  [TaskState.TASK_STATE_FAILED, 'failed'],
]);

/** States a task passes through on its way to rest; a client is never answered with one. */
const PASSING: ReadonlySet<TaskState> = new Set([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]);

/** Where the SDK's database task store files a task: its tenant, its owner, its id. */
const keyOf = (taskId: string, context: ServerCallContext) => JSON.stringify([context.tenant ?? '', resolveUserScope(context), taskId]);

/**
 * The SDK's task store, telling the ledger when a task's resting state is saved: only then does
 * the ledger stop counting the task as running. The SDK saves each event of a task in order, after
 * the executor has moved on, so the executor alone cannot know when the store holds its outcome.
 *
 * A task on its way to rest (submitted or working, saved by this process) is also kept here as the
 * store would give it back, and read from here: the SDK reads a task again before applying each of
 * its events (five reads a message, each a round trip to PostgreSQL), and nothing but this process
 * writes a task it is running. A save identical to the last is not written again (the SDK saves
 * the task event the executor has just saved). Once at rest the task is read from the store again.
 *
 * With `passing` (the same store over `RuntimeDatabase.steps`), a task already stored once is saved
 * there while it is submitted or working: those saves need not wait for the disk, because the save
 * of its resting state, which does, makes them durable with it (see `RuntimeDatabase.steps`). A
 * task's first save, and every save of any other state, goes to `inner`.
 */
export class LedgerTaskStore implements TaskStore {
  /** Tasks on their way to rest, saved by this process: the JSON the store holds for each. */
  private readonly inFlight = new Map<string, string>();

  constructor(
    private readonly inner: TaskStore,
    private readonly ledger: TaskLedger,
    private readonly passing: TaskStore = inner,
  ) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const state = task.status?.state;
    const key = keyOf(task.id, context);
    const known = this.inFlight.get(key);
    const passing = state !== undefined && PASSING.has(state);
    if (passing) {
      // What the store would give back: its columns are this task's protobuf JSON, as text.
      const json = JSON.stringify(TaskCodec.toJSON(task));
      if (json !== known) await (known !== undefined ? this.passing : this.inner).save(task, context);
      this.inFlight.set(key, json);
    } else {
      await this.inner.save(task, context);
      this.inFlight.delete(key);
    }
    await this.ledger.stored(task.id, state !== undefined ? RESTING.get(state) : undefined);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const known = this.inFlight.get(keyOf(taskId, context));
    return known !== undefined ? TaskCodec.fromJSON(JSON.parse(known)) : this.inner.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }
}
