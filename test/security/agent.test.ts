// An agent's attack surface, one finding of issue 15 per case. Each case failed on the code before
// its fix; SECURITY.md says what each one guards.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedsFolder, thresholdAgent, weightLimitKind } from '@learnables/threshold-agent';
import type { LoopStack } from '../support/loop-stack.ts';
import { startLoop } from '../support/loop-stack.ts';
import { HOSTILE_TOKENS } from '../support/hostile.ts';

const parcel = () => ({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { category: 'furniture', weightKg: 32 } }] } });
const lesson = { collection: 'weight-limits', entry: 'furniture', value: { maxKg: 1 }, taughtBy: 'mallory', reason: 'a token that is not one' };

describe('agent security', () => {
  let stack: LoopStack;
  let taskId: string;

  const call = (method: string, path: string, authorization: string | undefined, body?: unknown) =>
    fetch(`${stack.agent.url}${path}`, {
      method,
      headers: {
        'A2A-Version': '1.0',
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(authorization !== undefined && { authorization }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
  const rpc = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 1, method, params });

  beforeAll(async () => {
    stack = await startLoop(thresholdAgent, { kinds: [weightLimitKind], seeds: [seedsFolder] });
    const created = (await (await call('POST', '/a2a/rest/message:send', 'Bearer console-token', parcel())).json()) as { task: { id: string } };
    taskId = created.task.id;
  });
  afterAll(async () => stack?.close());

  /** Every way in where the token decides who the caller is: teach, reread and the core methods, on both bindings. */
  const routes = (): readonly { name: string; method: string; path: string; body?: unknown }[] => [
    { name: 'JSON-RPC learnables/teach', method: 'POST', path: '/a2a/jsonrpc', body: rpc('learnables/teach', lesson) },
    { name: 'JSON-RPC learnables/reread', method: 'POST', path: '/a2a/jsonrpc', body: rpc('learnables/reread', { taskId }) },
    { name: 'JSON-RPC SendMessage', method: 'POST', path: '/a2a/jsonrpc', body: rpc('SendMessage', parcel()) },
    { name: 'JSON-RPC SendStreamingMessage', method: 'POST', path: '/a2a/jsonrpc', body: rpc('SendStreamingMessage', parcel()) },
    { name: 'JSON-RPC GetTask', method: 'POST', path: '/a2a/jsonrpc', body: rpc('GetTask', { id: taskId }) },
    { name: 'JSON-RPC ListTasks', method: 'POST', path: '/a2a/jsonrpc', body: rpc('ListTasks', {}) },
    { name: 'JSON-RPC CancelTask', method: 'POST', path: '/a2a/jsonrpc', body: rpc('CancelTask', { id: taskId }) },
    { name: 'JSON-RPC v0.3 message/send', method: 'POST', path: '/a2a/jsonrpc', body: rpc('message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { category: 'books', weightKg: 1 } }] } }) },
    { name: 'REST learnables:teach', method: 'POST', path: '/a2a/rest/learnables:teach', body: lesson },
    { name: 'REST learnables:teach under a tenant', method: 'POST', path: '/a2a/rest/acme/learnables:teach', body: lesson },
    { name: 'REST learnables:reread', method: 'POST', path: '/a2a/rest/learnables:reread', body: { taskId } },
    { name: 'REST message:send', method: 'POST', path: '/a2a/rest/message:send', body: parcel() },
    { name: 'REST message:stream', method: 'POST', path: '/a2a/rest/message:stream', body: parcel() },
    { name: 'REST GET task', method: 'GET', path: `/a2a/rest/tasks/${taskId}` },
    { name: 'REST list tasks', method: 'GET', path: '/a2a/rest/tasks' },
    { name: 'REST cancel task', method: 'POST', path: `/a2a/rest/tasks/${taskId}:cancel`, body: {} },
  ];

  it('refuses every Object.prototype name and the empty string as a bearer token, on teach and every core method, writing nothing', async () => {
    const before = await stack.authority.client.history('weight-limits');
    const accepted: string[] = [];
    for (const route of routes()) {
      for (const token of HOSTILE_TOKENS) {
        for (const authorization of [`Bearer ${token}`, token]) {
          const answer = await call(route.method, route.path, authorization, route.body);
          const text = await answer.text();
          if (answer.status !== 401) accepted.push(`${route.name} with "${authorization}" → ${answer.status} ${text.slice(0, 80)}`);
        }
      }
    }
    expect(accepted).toEqual([]);
    expect(await stack.authority.client.history('weight-limits')).toEqual(before);
  });

  it('still teaches with a real token (the control for the case above)', async () => {
    const answer = await call('POST', '/a2a/rest/learnables:teach', 'Bearer console-token', lesson);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ changed: true, collection: 'weight-limits' });
  });
});
