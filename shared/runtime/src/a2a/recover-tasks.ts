import type { Task } from '@a2a-js/sdk';
import { Task as TaskCodec } from '@a2a-js/sdk';
import type { TaskStore } from '@a2a-js/sdk/server';
import { ServerCallContext } from '@a2a-js/sdk/server';
import type { ExecutorDeps } from './learnables-executor.ts';
import { settleTask } from './learnables-executor.ts';
import { restedTask } from './outcome.ts';
import { ANONYMOUS_OWNER } from '../storage/task-ledger.ts';

/** A call context that sees the tasks of one owner in one tenant, as the task store scopes them. */
export function contextFor(tenant: string, owner: string): ServerCallContext {
  return new ServerCallContext({
    ...(tenant !== '' && { tenant }),
    ...(owner !== ANONYMOUS_OWNER && { user: { isAuthenticated: true, userName: owner } }),
  });
}

/**
 * Resume every task that was running when the process stopped. Each is advanced from its
 * history through the journal — finished steps are read back, not run again — and its resting
 * state is saved to the task store, where clients find it with GetTask. A task nobody heard of
 * before it rested has no row in the task store until then: it is resumed from the task its ledger
 * row kept as it opened (`TaskWrites.open`).
 */
export async function recoverTasks<Input, Result>(deps: ExecutorDeps<Input, Result>, taskStore: TaskStore): Promise<string[]> {
  const recovered: string[] = [];
  for (const entry of await deps.ledger.unfinished()) {
    const context = contextFor(entry.tenant, entry.owner);
    const task = (await taskStore.load(entry.taskId, context)) ?? (entry.opening !== undefined ? opened(entry.opening, entry.taskId) : undefined);
    if (!task) {
      await deps.ledger.settle(entry.taskId, 'failed');
      continue;
    }
    const outcome = await settleTask(deps, task.id, task.contextId, task.history);
    await taskStore.save(restedTask(task, outcome, new Date().toISOString()), context);
    recovered.push(task.id);
  }
  return recovered;
}

/** The task its ledger row kept as it opened, as the task store would read it back; none if that is not the task. */
function opened(json: string, taskId: string): Task | undefined {
  try {
    const task = TaskCodec.fromJSON(JSON.parse(json));
    return task.id === taskId ? task : undefined;
  } catch {
    return undefined;
  }
}
