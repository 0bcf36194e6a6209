import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailAgent } from '@learnables/email-agent';
import { LEARNABLES_URI } from '@learnables/protocol';
import type { LoopStack } from '../support/loop-stack.ts';
import { fixture, startLoop } from '../support/loop-stack.ts';

const json = (body: unknown, token?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...(token && { authorization: `Bearer ${token}` }) },
  body: JSON.stringify(body),
});

describe('access: tokens for writes, tasks for their owner and tenant only', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
  });
  afterAll(async () => stack.close());

  const message = () => ({
    messageId: randomUUID(),
    role: 'ROLE_USER',
    parts: [{ raw: fixture('email/northgate-billing-prealert.eml').toString('base64'), mediaType: 'message/rfc822', filename: 'a.eml' }],
  });

  it('refuses lessons and rollbacks without the authority token, writing nothing', async () => {
    const before = (await stack.authority.client.history('customers')).activations.length;
    const lesson = { collection: 'customers', entry: 'northgate', value: { pattern: 'x@y\\.example' }, taughtBy: 'mallory', reason: 'r' };
    for (const token of [undefined, 'wrong']) {
      expect((await fetch(`${stack.authority.url}/v1/lessons`, json(lesson, token))).status).toBe(401);
      expect((await fetch(`${stack.authority.url}/v1/collections/customers/rollback`, json({ version: 1, author: 'm', reason: 'r' }, token))).status).toBe(401);
    }
    expect((await stack.authority.client.history('customers')).activations).toHaveLength(before);
  });

  it('refuses the teach method without a token the agent accepts', async () => {
    const lesson = { collection: 'customers', entry: 'northgate', value: { pattern: 'x@y\\.example' }, taughtBy: 'mallory', reason: 'r' };
    const anonymous = (await (
      await fetch(`${stack.agent.url}/a2a/jsonrpc`, json({ jsonrpc: '2.0', id: 1, method: 'learnables/teach', params: lesson }))
    ).json()) as { error: { data: { error: string } } };
    expect(anonymous.error.data.error).toBe('unauthorized');
    const rest = await fetch(`${stack.agent.url}/a2a/rest/learnables:teach`, json(lesson));
    expect(rest.status).toBe(401);
    const forged = await fetch(`${stack.agent.url}/a2a/rest/learnables:teach`, json(lesson, 'forged'));
    expect(forged.status).toBe(401);
  });

  it("refuses another tenant's task: created under acme, invisible from globex or without a tenant", async () => {
    const created = (await (await fetch(`${stack.agent.url}/a2a/rest/acme/message:send`, json({ message: message() }, 'console-token'))).json()) as {
      task: { id: string };
    };
    const id = created.task.id;
    const get = async (tenant: string) =>
      (await (
        await fetch(
          `${stack.agent.url}/a2a/jsonrpc`,
          json({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id, ...(tenant && { tenant }) } }, 'console-token'),
        )
      ).json()) as { result?: unknown; error?: { code: number } };
    expect((await get('acme')).result).toBeDefined();
    expect((await get('globex')).error?.code).toBe(-32001);
    expect((await get('')).error?.code).toBe(-32001);
    const reread = async (tenant: string) =>
      (await (
        await fetch(`${stack.agent.url}/a2a/jsonrpc`, {
          ...json({ jsonrpc: '2.0', id: 1, method: 'learnables/reread', params: { taskId: id, ...(tenant && { tenant }) } }, 'console-token'),
          headers: { 'content-type': 'application/json', authorization: 'Bearer console-token', 'A2A-Extensions': LEARNABLES_URI },
        })
      ).json()) as { result?: unknown; error?: { data?: { error?: string } } };
    expect((await reread('acme')).result).toBeDefined();
    expect((await reread('globex')).error?.data?.error).toBe('unknown-task');
  });

  it("refuses another user's task, on core methods and on reread", async () => {
    const created = (await (
      await fetch(`${stack.agent.url}/a2a/jsonrpc`, json({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message() } }, 'console-token'))
    ).json()) as { result: { task: { id: string } } };
    const id = created.result.task.id;
    const anonymous = (await (await fetch(`${stack.agent.url}/a2a/jsonrpc`, json({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } }))).json()) as {
      error?: { code: number };
    };
    expect(anonymous.error?.code).toBe(-32001);
    const reread = (await (
      await fetch(`${stack.agent.url}/a2a/jsonrpc`, json({ jsonrpc: '2.0', id: 1, method: 'learnables/reread', params: { taskId: id } }))
    ).json()) as { error?: { data?: { error?: string } } };
    expect(reread.error?.data?.error).toBe('unknown-task');
  });
});
