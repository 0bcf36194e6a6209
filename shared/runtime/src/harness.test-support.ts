import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SendMessageRequest } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { Authority, AuthorityClient, authorityService, openStore } from '@learnables/authority';
import { LEARNABLES_URI } from '@learnables/protocol';
import { scratchDir, wordListKind } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import type { AgentServerOptions } from './start-agent.ts';
import { silentLogger } from '@learnables/authority';

/** A real authority over HTTP (SQLite in a scratch folder), seeded with lists alpha and beta. */
export async function startAuthority(dir: ScratchDir = scratchDir('runtime-authority-'), options: { commitWaitMs?: number } = {}) {
  const authority = new Authority({ store: await openStore(`${dir.path}/authority.db`), kinds: [wordListKind()], ...options });
  await authority.seed('lists', { alpha: { words: [] }, beta: { words: ['banana'] } }, 'lists.json');
  const server: Server = authorityService({ authority, tokens: { 'agent-token': 'agent', 'console-token': 'console' } }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    dir,
    client: new AuthorityClient({ url, token: 'console-token', kinds: [wordListKind()] }),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await authority.close();
    },
  };
}

/** How most tests start an agent: its SQLite file in `dir`, the harness authority, alice's token, no log; `more` on top. */
export function agentOptions(authority: { readonly url: string }, dir: ScratchDir, more: Partial<AgentServerOptions> = {}): AgentServerOptions {
  return {
    store: `sqlite:${dir.path}/agent.db`,
    authority: { url: authority.url, token: 'agent-token' },
    users: { 'alice-token': 'alice' },
    logger: silentLogger(),
    ...more,
  };
}

/** The SDK's own client, recording each response's headers (the Client API does not expose them). */
export async function sdkClient(agentUrl: string, options: { activate?: boolean; transport?: 'JSONRPC' | 'HTTP+JSON'; token?: string } = {}) {
  const seen: Headers[] = [];
  const recording: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (options.activate) headers.set('A2A-Extensions', LEARNABLES_URI);
    if (options.token) headers.set('authorization', `Bearer ${options.token}`);
    const response = await fetch(input, { ...init, headers });
    seen.push(response.headers);
    return response;
  };
  const client: Client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: recording }), new RestTransportFactory({ fetchImpl: recording })],
      preferredTransports: [options.transport ?? 'JSONRPC'],
    }),
  ).createFromUrl(agentUrl);
  return { client, lastHeaders: () => seen.at(-1) };
}

export const userText = (text: string, task?: Task) =>
  SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...(task && { taskId: task.id, contextId: task.contextId }) },
  });

export const userData = (data: Record<string, unknown>, task: Task) =>
  SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data }], taskId: task.id, contextId: task.contextId },
  });

export async function send(client: Client, request: SendMessageRequest): Promise<Task> {
  const result = await client.sendMessage(request);
  if (!('status' in result)) throw new Error('the agent answered with a message, not a task');
  return result as Task;
}

/** What a task's status message says in words, and its learnables metadata. */
export function said(task: Task): { text: string; extension: Record<string, unknown> | undefined } {
  const message = task.status?.message;
  const text = (message?.parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
  return { text, extension: message?.metadata?.[LEARNABLES_URI] as Record<string, unknown> | undefined };
}

/** JSON-RPC call over plain fetch, for the extension methods and error codes. */
export async function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } },
  };
}
