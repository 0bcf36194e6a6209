import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentCard, Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, PushNotificationSender } from '@a2a-js/sdk/server';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';

// patches/@a2a-js__sdk@1.3.0.patch: the SDK built a push notification's payload for every event
// of every task (a read of the task from the store for a task event, a structuredClone of the
// whole task for each) before asking whether one could be sent; the patch builds it only when the
// card has push notifications on and a sender is configured, the condition the SDK's own
// _sendPushNotificationIfNeeded checks before sending. These hold both sides of that: with push
// on, the sender still gets every event with the task as it stood; with it off, none of the work.

/** An executor that takes a task through the events the runtime publishes: the task, working, the artifact, done. */
const executor: AgentExecutor = {
  async execute(context, bus) {
    const { taskId, contextId } = context;
    const message = context.userMessage;
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
        history: [message],
        artifacts: [],
        metadata: {},
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: undefined,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
      }),
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        append: false,
        lastChunk: true,
        metadata: undefined,
        artifact: {
          artifactId: 'result',
          name: 'result',
          description: '',
          parts: [{ content: { $case: 'text', value: 'done' }, metadata: {}, filename: '', mediaType: 'text/plain' }],
          metadata: {},
          extensions: [],
        },
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: undefined,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: undefined },
      }),
    );
    bus.finished();
  },
  async cancelTask() {},
};
const EVENTS = 4;

const card = (pushNotifications: boolean) =>
  ({
    name: 'patched',
    description: 'the SDK as patched',
    version: '1',
    supportedInterfaces: [{ url: 'http://127.0.0.1:1/a2a/jsonrpc', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    capabilities: { streaming: true, pushNotifications, extensions: [] },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  }) as unknown as AgentCard;

/** What one message costs the SDK in reads of its task from the store and in clones, and what a push sender was given. */
async function sendOne(pushNotifications: boolean): Promise<{ loads: number; clones: number; pushed: Task[]; answer: unknown }> {
  const store = new InMemoryTaskStore();
  let loads = 0;
  const load = store.load.bind(store);
  store.load = (...args: Parameters<typeof store.load>) => {
    loads += 1;
    return load(...args);
  };
  const pushed: Task[] = [];
  const sender: PushNotificationSender = {
    async send(_response, _context, task) {
      pushed.push(task as Task);
    },
  } as PushNotificationSender;
  const handler = new DefaultRequestHandler(card(pushNotifications), store, executor, undefined, undefined, sender);
  const clone = vi.spyOn(globalThis, 'structuredClone');
  try {
    const answer = await handler.sendMessage(
      {
        tenant: '',
        message: {
          messageId: 'm1',
          contextId: '',
          taskId: '',
          role: Role.ROLE_USER,
          parts: [{ content: { $case: 'text', value: 'hello' }, metadata: {}, filename: '', mediaType: 'text/plain' }],
          metadata: {},
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: undefined,
        metadata: {},
      } as unknown as Parameters<typeof handler.sendMessage>[0],
      new ServerCallContext({ user: new UnauthenticatedUser() }),
    );
    return { loads, clones: clone.mock.calls.length, pushed, answer };
  } finally {
    clone.mockRestore();
  }
}

describe('the A2A SDK as patched: a push payload only when one can be sent', () => {
  afterEach(() => vi.restoreAllMocks());

  it('with push notifications on, still hands the sender every event with the task as it stood', async () => {
    const { pushed, answer } = await sendOne(true);
    expect(pushed.map((task) => task.status?.state)).toEqual([
      TaskState.TASK_STATE_SUBMITTED,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_COMPLETED,
    ]);
    expect(pushed.map((task) => task.artifacts.length)).toEqual([0, 0, 1, 1]);
    expect(answer).toMatchObject({ status: { state: TaskState.TASK_STATE_COMPLETED } });
  });

  it('with them off, reads the task no more and clones it no more than the answer needs', async () => {
    const on = await sendOne(true);
    const off = await sendOne(false);
    expect(off.pushed).toEqual([]);
    // The same answer either way.
    expect(JSON.stringify(off.answer).replace(/"[0-9a-f-]{36}"/g, '"id"')).toBe(JSON.stringify(on.answer).replace(/"[0-9a-f-]{36}"/g, '"id"'));
    // What only the push payload cost: the task event's read of the task (the in-memory store
    // answers it with a clone), and one clone of the whole task an event.
    expect(on.loads - off.loads).toBe(1);
    expect(on.clones - off.clones).toBe(EVENTS + 1);
  });
});
