// The A2A side of the replay: the SDK's client for each agent, sending files and answering questions.
import { randomUUID } from 'node:crypto';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { LEARNABLES_METHODS, LEARNABLES_URI } from '@learnables/protocol';
import type { CorrectionOutcome, TeachBlock } from '@learnables/protocol';
import { CorrectionOutcomeSchema } from '@learnables/protocol';

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

/** Answer a question "none of these" (SPEC §2.8): a follow-up with `{ none: true, answeredBy }`. */
export function answerNone(client: Client, task: Task, answeredBy: string): Promise<Task> {
  return taskOf(
    client.sendMessage(
      SendMessageRequest.fromJSON({
        message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: task.id, contextId: task.contextId, parts: [{ data: { none: true, answeredBy } }] },
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

/** What an agent answered to one of the extension's methods: its result, or its refusal in its own words. */
export type MethodAnswer = { readonly result: unknown } | { readonly refused: { readonly code?: number; readonly error?: string; readonly message: string } };

/**
 * Call one of the extension's JSON-RPC methods (SPEC §1.8) on the agent at `url`, as the SDK's
 * client does its own: the same endpoint, token and activated extension, so the call reaches the
 * tasks that token sent.
 */
export async function callMethod(url: string, token: string, method: string, params: Record<string, unknown>): Promise<MethodAnswer> {
  const response = await fetch(`${url.replace(/\/+$/, '')}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', 'A2A-Extensions': LEARNABLES_URI, authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await response.json()) as { result?: unknown; error?: { code?: number; message?: string; data?: { error?: string; message?: string } } };
  if (body.error) {
    const { code, data } = body.error;
    return {
      refused: {
        ...(code !== undefined && { code }),
        ...(data?.error !== undefined && { error: data.error }),
        message: data?.message ?? body.error.message ?? 'The agent refused without saying why.',
      },
    };
  }
  return { result: body.result };
}

/** What a correction says the decision should have been: an entry (by key), none, or, for a finding that names no entry, the right value in words. */
export interface CorrectionRequest {
  readonly taskId: string;
  readonly finding?: string;
  readonly entry?: string;
  readonly none?: true;
  readonly correctedBy: string;
  readonly reason: string;
}

/** Correct a completed task's decision on its agent (`learnables/correct`, SPEC §6.7); the agent's refusal is thrown in its words. */
export async function correctTask(url: string, token: string, correction: CorrectionRequest): Promise<CorrectionOutcome> {
  const answer = await callMethod(url, token, LEARNABLES_METHODS.correct.jsonrpc, { ...correction });
  if ('refused' in answer) throw new Error(`${answer.refused.error ?? 'refused'}: ${answer.refused.message}`);
  return CorrectionOutcomeSchema.parse(answer.result);
}
