// The A2A side of the replay: the SDK's client for each agent, sending files and answering questions.
import { randomUUID } from 'node:crypto';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { LEARNABLES_URI } from '@learnables/protocol';
import type { TeachBlock } from '@learnables/protocol';

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The media type a file part carries, by the file's extension. */
export function mediaTypeOf(file: string): string {
  if (/\.eml$/i.test(file)) return 'message/rfc822';
  if (/\.xlsx$/i.test(file)) return XLSX_MEDIA_TYPE;
  if (/\.csv$/i.test(file)) return 'text/csv';
  throw new Error(`The scenario has ${file}, and the replay does not know what to send it as.`);
}

/** The SDK's client for the agent at `url`, authenticated with `token`, with the extension activated. */
export async function connectAgent(url: string, token: string): Promise<Client> {
  const withToken: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    headers.set('A2A-Extensions', LEARNABLES_URI);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: withToken }), new RestTransportFactory({ fetchImpl: withToken })],
    }),
  ).createFromUrl(url);
}

async function taskOf(sent: Promise<unknown>): Promise<Task> {
  const result = await sent;
  if (typeof result !== 'object' || result === null || !('status' in result)) throw new Error('The agent answered with a message, not a task.');
  return result as Task;
}

export function sendFile(client: Client, bytes: Buffer, filename: string): Promise<Task> {
  return taskOf(
    client.sendMessage(
      SendMessageRequest.fromJSON({
        message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw: bytes.toString('base64'), mediaType: mediaTypeOf(filename), filename }] },
      }),
    ),
  );
}

/** Answer a question: a follow-up on the same task with `{ entry, answeredBy }`. Writes nothing anywhere else. */
export function answerTask(client: Client, task: Task, entry: string, answeredBy: string): Promise<Task> {
  return taskOf(
    client.sendMessage(
      SendMessageRequest.fromJSON({
        message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: task.id, contextId: task.contextId, parts: [{ data: { entry, answeredBy } }] },
      }),
    ),
  );
}

export const isAsking = (task: Task) => task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
export const isDone = (task: Task) => task.status?.state === TaskState.TASK_STATE_COMPLETED;

/** The words of the task's status message. */
export function statusText(task: Task): string {
  return (task.status?.message?.parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/** The teach block of a question, as the agent sent it. */
export function teachBlockOf(task: Task): TeachBlock | undefined {
  return task.status?.message?.metadata?.[LEARNABLES_URI] as TeachBlock | undefined;
}

/** What a completed task decided: the `result` of its result artifact. */
export function resultOf(task: Task): Record<string, unknown> | undefined {
  const part = task.artifacts.find((artifact) => artifact.artifactId === 'result')?.parts[0]?.content;
  if (part?.$case !== 'data') return undefined;
  return (part.value as { result?: Record<string, unknown> }).result;
}
