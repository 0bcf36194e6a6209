import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDir } from '@learnables/testing';
import { startAuthority } from '../harness.test-support.ts';
import { startLearnableAgent } from '../start-agent.ts';
import type { RunningAgent } from '../start-agent.ts';
import { wordAgent } from '../word-agent.test-support.ts';
import { silentLogger } from '@learnables/authority';

/** The authority behind a proxy that holds every answer about the active version for `delayMs`: tasks wait for their pin after their message was read. */
async function slowAuthority(delayMs: number) {
  const authority = await startAuthority();
  const target = new URL(authority.url);
  const proxy = http.createServer((req, res) => {
    const forward = () => {
      const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    };
    if (req.url?.endsWith('/active')) setTimeout(forward, delayMs);
    else forward();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await authority.close();
      authority.dir.remove();
    },
  };
}

const send = (url: string, text: string) =>
  fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
    }),
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as { result?: { task?: { status?: { state?: string } } }; error?: { message: string; data?: { error: string } } },
  }));

describe('admitting the messages a request brings', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function agentBehind(authorityUrl: string, parsing: { maxParses?: number; inFlightBytes?: number }): Promise<RunningAgent> {
    const dir = scratchDir('runtime-admission-');
    const agent = await startLearnableAgent(wordAgent, {
      store: `sqlite:${dir.path}/agent.db`,
      authority: { url: authorityUrl },
      parsing: { threads: 0, ...parsing },
      logger: silentLogger(),
    });
    cleanup.push(
      () => dir.remove(),
      () => agent.close(),
    );
    return agent;
  }

  it('takes more messages than it reads at once while the ones read wait for their authority', async () => {
    const authority = await slowAuthority(400);
    cleanup.push(() => authority.close());
    // One parse at a time: each message is read at once, then its task waits 400 ms for its pin.
    const agent = await agentBehind(authority.url, { maxParses: 1 });
    const answers = await Promise.all(['banana bread', 'banana split', 'banana cake'].map((text) => send(agent.url, text)));
    // Before, the place stayed taken until each answer: "busy reading 1 other messages" while none was read.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.body.result?.task?.status?.state)).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED']);
    const health = (await (await fetch(`${agent.url}/healthz`)).json()) as { reading: { parsing: number; inFlight: { messages: number; bytes: number } } };
    expect(health.reading).toMatchObject({ parsing: 0, inFlight: { messages: 0, bytes: 0 } });
  });

  it('answers busy, in words and storing nothing, past the bytes of the messages taken and not yet answered', async () => {
    const authority = await slowAuthority(400);
    cleanup.push(() => authority.close());
    // Room for one message in flight (each counts at least 64 KiB).
    const agent = await agentBehind(authority.url, { maxParses: 4, inFlightBytes: 100 * 1024 });
    const first = send(agent.url, 'banana bread');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await send(agent.url, 'banana split');
    expect(refused.status).toBe(503);
    const message = 'This agent is busy with 1 other messages (64 kB) and did not take this one (1 kB); nothing was saved. Send it again in 10 seconds.';
    expect(refused.body.error).toEqual({ code: -32000, message, data: { error: 'busy', message } });
    expect((await first).body.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
    // Answered, the first no longer counts.
    expect((await send(agent.url, 'banana cake')).body.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
    expect(await agent.ledger.count()).toBe(2);
  });
});
