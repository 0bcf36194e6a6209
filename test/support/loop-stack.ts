import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { SendMessageRequest } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { Authority, AuthorityClient, authorityService, loadSeeds, openStore } from '@learnables/authority';
import { LEARNABLES_URI } from '@learnables/protocol';
import type { AgentServerOptions, LearnableAgent, RunningAgent } from '@learnables/runtime';
import { startLearnableAgent } from '@learnables/runtime';
import type { LearnableKind } from '@learnables/learnable';
import { connectAgent, learnableKinds, seedFolders } from '@learnables/stack';
import { scratchDir, scratchPostgres } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { silentLogger } from '@learnables/authority';

export const fixture = (path: string): Buffer => readFileSync(fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url)));

export interface AuthorityChoice {
  /** The learnable kinds served. Default: every agent's (the stack's). */
  readonly kinds?: readonly LearnableKind[];
  /** Seed folders, loaded in order. Default: every registered agent's (stack/src/agents.ts). */
  readonly seeds?: readonly string[];
  /** Where the authority and the agent keep their state. Default: SQLite files in the scratch folder. */
  readonly engine?: 'sqlite' | 'postgres';
  /** How the agent reads messages (threads, how many at once). Default: the runtime's. */
  readonly parsing?: AgentServerOptions['parsing'];
  /** How much of its input a task keeps. Default: the runtime's. */
  readonly keptInput?: AgentServerOptions['keptInput'];
}

/** The authority over real HTTP on SQLite, seeded, serving the agents' kinds. */
export async function startSeededAuthority(dir: ScratchDir, choice: AuthorityChoice = {}) {
  const database = choice.engine === 'postgres' ? await scratchPostgres('loop_authority') : undefined;
  const authority = new Authority({ store: await openStore(database?.url ?? `sqlite:${dir.path}/authority.db`), kinds: choice.kinds ?? learnableKinds });
  for (const folder of choice.seeds ?? seedFolders) {
    await loadSeeds(authority, folder);
  }
  const server: Server = authorityService({ authority, tokens: { 'agent-token': 'agent', 'console-token': 'console' } }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    client: new AuthorityClient({ url, token: 'console-token' }),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await authority.close();
      await database?.drop();
    },
  };
}

/** The SDK's own client for the agent at `url` (following its card), with a bearer token and the extension activated. */
export const sdkClient = (url: string, token = 'console-token'): Promise<Client> => connectAgent(url, token);

export interface LoopStack {
  readonly dir: ScratchDir;
  readonly authority: Awaited<ReturnType<typeof startSeededAuthority>>;
  readonly agent: RunningAgent;
  readonly client: Client;
  close(): Promise<void>;
}

/** An authority and one agent, each over real HTTP and SQLite, and the SDK's client for the agent. */
export async function startLoop<Input, Result>(agent: LearnableAgent<Input, Result>, choice: AuthorityChoice = {}): Promise<LoopStack> {
  const dir = scratchDir('loop-');
  const authority = await startSeededAuthority(dir, choice);
  const database = choice.engine === 'postgres' ? await scratchPostgres('loop_agent') : undefined;
  // Every loop's card is signed, as a deployment's should be (the conformance kit verifies it).
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(`${dir.path}/card-key.pem`, privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const running = await startLearnableAgent(agent, {
    cardSigningKey: `${dir.path}/card-key.pem`,
    store: database?.url ?? `sqlite:${dir.path}/agent.db`,
    authority: { url: authority.url, token: 'agent-token' },
    users: { 'console-token': 'console' },
    logger: silentLogger(),
    ...(choice.parsing && { parsing: choice.parsing }),
    ...(choice.keptInput && { keptInput: choice.keptInput }),
  });
  const client = await sdkClient(running.url);
  return {
    dir,
    authority,
    agent: running,
    client,
    async close() {
      await running.close();
      await authority.close();
      await database?.drop();
      dir.remove();
    },
  };
}

export async function sendFile(client: Client, bytes: Buffer, mediaType: string, filename: string): Promise<Task> {
  const result = await client.sendMessage(
    SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw: bytes.toString('base64'), mediaType, filename }] },
    }),
  );
  if (!('status' in result)) throw new Error('the agent answered with a message, not a task');
  return result as Task;
}

export async function sendText(client: Client, text: string): Promise<Task> {
  const result = await client.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } }));
  if (!('status' in result)) throw new Error('the agent answered with a message, not a task');
  return result as Task;
}

export async function answer(client: Client, task: Task, entry: string): Promise<Task> {
  const result = await client.sendMessage(
    SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: task.id, contextId: task.contextId, parts: [{ data: { entry, answeredBy: 'dana' } }] },
    }),
  );
  return result as Task;
}

export function said(task: Task): { text: string; extension: Record<string, unknown> | undefined } {
  const message = task.status?.message;
  const text = (message?.parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
  return { text, extension: message?.metadata?.[LEARNABLES_URI] as Record<string, unknown> | undefined };
}

/** One of the extension's JSON-RPC methods on an agent, with the console's token: its result, or a thrown error naming the method. */
export async function callMethod(agentUrl: string, method: string, params: unknown): Promise<unknown> {
  const response = await fetch(`${agentUrl}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

export async function reread(agentUrl: string, taskId: string): Promise<Record<string, { settled: boolean; winner?: string; reads: string; version: number }>> {
  return (await callMethod(agentUrl, 'learnables/reread', { taskId })) as Record<string, { settled: boolean; winner?: string; reads: string; version: number }>;
}

/** A plain-text email as a warehouse mailbox receives it. */
export const mailboxEmail = (from: string, subject: string, body = 'Please see below.'): Buffer =>
  Buffer.from(
    [
      `From: ${from}`,
      'To: intake@warehouse.example',
      `Subject: ${subject}`,
      'Date: Tue, 01 Dec 2026 08:00:00 +0000',
      `Message-ID: <${randomUUID()}@mail.example>`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '',
    ].join('\r\n'),
  );
