import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Role, SendMessageRequest, Task as TaskCodec, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { scratchDir } from '@learnables/testing';
import { agentOptions, sdkClient, startAuthority, userText } from '../harness.test-support.ts';
import type { RunningAgent } from '../start-agent.ts';
import { startLearnableAgent } from '../start-agent.ts';
import { LedgerTaskStore } from '../storage/ledger-task-store.ts';
import { wordAgent } from '../word-agent.test-support.ts';

// A plain send's new task is published once, as it rests (LearnablesExecutor: nobody can see it
// before then); every other task goes through the SDK event by event (the task, working, the
// artifact, the resting status). The two must rest as the same task, answer the same and store the
// same: checked here against a stream and an answer-at-once send of the same message, for each
// way a task can rest (decided, asking, refused, failed), over HTTP with the SDK's own client.
describe('a plain send published once, as it rests', () => {
  const dir = scratchDir('one-event-');
  let authority: Awaited<ReturnType<typeof startAuthority>>;
  let agent: RunningAgent;
  let client: Client;

  beforeAll(async () => {
    authority = await startAuthority();
    agent = await startLearnableAgent(wordAgent, agentOptions(authority, dir));
    ({ client } = await sdkClient(agent.url, { token: 'alice-token' }));
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await authority?.close();
    authority?.dir.remove();
    dir.remove();
  });

  /** A task's JSON with what differs between two sends of one message named by role, not value. */
  const alike = (task: Task): unknown => {
    let json = JSON.stringify(TaskCodec.toJSON(task));
    json = json.replaceAll(task.id, 'TASK').replaceAll(task.contextId, 'CONTEXT');
    for (const [i, message] of task.history.entries()) json = json.replaceAll(message.messageId, `MESSAGE-${i}`);
    return JSON.parse(json.replace(/"timestamp":"[^"]*"/g, '"timestamp":"T"'));
  };
  const stored = (id: string) => client.getTask({ tenant: '', id, historyLength: 100 });
  const rested = async (id: string): Promise<Task> => {
    for (;;) {
      const task = await stored(id);
      if (task.status?.state !== TaskState.TASK_STATE_SUBMITTED && task.status?.state !== TaskState.TASK_STATE_WORKING) return task;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  for (const [what, text, state] of [
    ['decided', 'banana split', TaskState.TASK_STATE_COMPLETED],
    ['asking', 'mango pickle', TaskState.TASK_STATE_INPUT_REQUIRED],
    ['refused', '   ', TaskState.TASK_STATE_FAILED],
    ['failed', 'explode', TaskState.TASK_STATE_FAILED],
  ] as const) {
    it(`rests ${what} as the same task as a stream and an answer-at-once send, answered as stored`, async () => {
      const saves = vi.spyOn(LedgerTaskStore.prototype, 'save');
      let plain: Task;
      try {
        plain = (await client.sendMessage(userText(text))) as Task;
        // One save: the task as it rests (the SDK saved it for each of its events before).
        expect(saves).toHaveBeenCalledTimes(1);
      } finally {
        // Restored even when the count is wrong, so the sends below are not counted into it.
        saves.mockRestore();
      }
      expect(plain.status?.state).toBe(state);

      let streamedId: string | undefined;
      for await (const event of client.sendMessageStream(userText(text))) {
        if (event.payload?.$case === 'task') streamedId ??= event.payload.value.id;
      }
      const streamed = await rested(streamedId!);
      const early = (await client.sendMessage(
        SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] }, configuration: { returnImmediately: true } }),
      )) as Task;
      const answeredAtOnce = await rested(early.id);

      expect(alike(plain)).toEqual(alike(streamed));
      expect(alike(plain)).toEqual(alike(answeredAtOnce));
      expect(alike(await stored(plain.id))).toEqual(alike(plain));
      // Exactly: the stored task is the answer, byte for byte.
      expect(TaskCodec.toJSON(await stored(plain.id))).toEqual(TaskCodec.toJSON(plain));
    });
  }

  it('answers a question on a task published once as on any other, and the answer rests alike', async () => {
    const asked = (await client.sendMessage(userText('kiwi tart'))) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const answer = SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { entry: 'beta' } }], taskId: asked.id, contextId: asked.contextId },
    });
    const answered = (await client.sendMessage(answer)) as Task;
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answered.history.map((message) => message.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT, Role.ROLE_USER, Role.ROLE_AGENT]);
    expect(answered.artifacts.map((artifact) => artifact.artifactId)).toEqual(['result']);
    expect(TaskCodec.toJSON(await stored(asked.id))).toEqual(TaskCodec.toJSON(answered));
  });
});
