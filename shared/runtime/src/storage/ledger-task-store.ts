import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { RestingState, TaskLedger } from './task-ledger.ts';

const RESTING: ReadonlyMap<TaskState, RestingState> = new Map([
  [TaskState.TASK_STATE_INPUT_REQUIRED, 'asking'],
  [TaskState.TASK_STATE_COMPLETED, 'done'],
  [TaskState.TASK_STATE_FAILED, 'failed'],
]);

/**
 * The SDK's task store, telling the ledger when a task's resting state is saved: only then does
 * the ledger stop counting the task as running. The SDK saves each event of a task in order, after
 * the executor has moved on, so the executor alone cannot know when the store holds its outcome.
 */
export class LedgerTaskStore implements TaskStore {
  constructor(
    private readonly inner: TaskStore,
    private readonly ledger: TaskLedger,
  ) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.inner.save(task, context);
    await this.ledger.stored(task.id, task.status ? RESTING.get(task.status.state) : undefined);
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }
}
