// What the storage tests share: generated tasks (parts of every kind, histories, artifacts,
// metadata, owners, in every state, as the SDK's codec would hand them to a task store), and two
// databases of one engine, to compare a way of writing with the way it replaces.
import fc from 'fast-check';
import { afterAll, beforeAll } from 'vitest';
import { scratchDir, scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase, ScratchDir } from '@learnables/testing';
import type { RuntimeDatabase } from './open-database.ts';
import { openRuntimeDatabase } from './open-database.ts';
import { Role, Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';

export const context = (owner?: string) =>
  new ServerCallContext(owner ? { user: { isAuthenticated: true, userName: owner } } : { user: new UnauthenticatedUser() });
export const STATES = [
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
];

const part = fc.oneof(
  fc.string({ maxLength: 40 }).map((value) => ({ content: { $case: 'text' as const, value }, metadata: {}, filename: '', mediaType: 'text/plain' })),
  fc
    .uint8Array({ maxLength: 64 })
    .map((value) => ({ content: { $case: 'raw' as const, value }, metadata: {}, filename: 'm.eml', mediaType: 'message/rfc822' })),
  fc
    .dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean()))
    .map((value) => ({ content: { $case: 'data' as const, value }, metadata: {}, filename: '', mediaType: 'application/json' })),
);
const message = (taskId: string) =>
  fc
    .record({ parts: fc.array(part, { minLength: 1, maxLength: 3 }), role: fc.constantFrom(Role.ROLE_USER, Role.ROLE_AGENT), id: fc.uuid() })
    .map(({ parts, role, id }) => ({ messageId: id, taskId, contextId: 'c', role, parts, metadata: {}, extensions: [], referenceTaskIds: [] }));
export const save = (taskId: string) =>
  fc.record({
    state: fc.constantFrom(...STATES),
    history: fc.array(message(taskId), { maxLength: 3 }),
    artifacts: fc.array(fc.record({ artifactId: fc.constantFrom('result', 'other'), parts: fc.array(part, { maxLength: 2 }) }), { maxLength: 2 }),
    metadata: fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 })), { nil: undefined }),
    owner: fc.constantFrom(undefined, 'alice'),
    repeat: fc.boolean(),
  });

/** The task a generated save describes, as the SDK's codec gives it. */
export function generatedTask(id: string, described: ReturnType<typeof save> extends fc.Arbitrary<infer T> ? T : never, at: number): Task {
  return Task.fromJSON(
    Task.toJSON({
      id,
      contextId: 'c',
      status: { state: described.state, message: undefined, timestamp: new Date(at).toISOString() },
      history: described.history.map((m) => ({ ...m, taskId: id })),
      artifacts: described.artifacts.map((a) => ({ ...a, name: '', description: '', metadata: {}, extensions: [] })),
      metadata: described.metadata ?? {},
    } as Task),
  );
}

/** Two runtime databases of one engine, opened before the suite's tests and removed after them. */
export function pairedDatabases(engine: 'sqlite' | 'postgres', name: string): { readonly ours: RuntimeDatabase; readonly theirs: RuntimeDatabase } {
  const pair = {} as { ours: RuntimeDatabase; theirs: RuntimeDatabase };
  let dir: ScratchDir;
  let scratch: ScratchDatabase[] = [];
  beforeAll(async () => {
    dir = scratchDir(`${name}-`);
    if (engine === 'postgres') scratch = [await scratchPostgres(`${name}_ours`), await scratchPostgres(`${name}_theirs`)];
    pair.ours = await openRuntimeDatabase(scratch[0]?.url ?? `sqlite:${dir.path}/ours.db`);
    pair.theirs = await openRuntimeDatabase(scratch[1]?.url ?? `sqlite:${dir.path}/theirs.db`);
  });
  afterAll(async () => {
    await pair.ours.close();
    await pair.theirs.close();
    for (const database of scratch) await database.drop();
    dir.remove();
  });
  return pair;
}
