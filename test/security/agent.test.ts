// An agent's attack surface, one finding of issue 15 per case. Each case failed on the code before
// its fix; SECURITY.md says what each one guards.
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedsFolder, thresholdAgent, weightLimitKind } from '@learnables/threshold-agent';
import type { LoopStack } from '../support/loop-stack.ts';
import { fixture, startLoop } from '../support/loop-stack.ts';
import { freePort, startService } from '../support/processes.ts';
import { startLearnableAgent } from '@learnables/runtime';
import { emailAgent } from '@learnables/email-agent';
import { HOSTILE_TOKENS } from '../support/hostile.ts';
import { silentLogger } from '@learnables/authority';

// These tests start agents as their own processes, each given 60 s to answer its health check: on a loaded two-core machine one test can outlast vitest's default 30 s
// without anything being wrong; what they assert does not depend on time.
vi.setConfig({ testTimeout: 90_000 });

/** A GET naming the Host header itself, which fetch will not let a caller set. */
const getWithHost = (url: string, host: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });

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
    {
      name: 'JSON-RPC v0.3 message/send',
      method: 'POST',
      path: '/a2a/jsonrpc',
      body: rpc('message/send', {
        message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { category: 'books', weightKg: 1 } }] },
      }),
    },
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

  it('still teaches with a real token, and the authority records the A2A user beside the agent', async () => {
    const answer = await call('POST', '/a2a/rest/learnables:teach', 'Bearer console-token', lesson);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ changed: true, collection: 'weight-limits' });
    // The agent relays with its own token ("agent"); the lesson came from the A2A user "console".
    expect(await stack.authority.client.active('weight-limits')).toMatchObject({ author: 'mallory', client: 'console via agent' });
  });

  it('refuses a lesson value nested thousands deep as malformed, not as "the authority cannot be reached"', async () => {
    const body = `{"collection":"weight-limits","entry":"furniture","value":{"maxKg":${'['.repeat(5000)}1${']'.repeat(5000)}},"taughtBy":"m","reason":"r"}`;
    const answer = await fetch(`${stack.agent.url}/a2a/rest/learnables:teach`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer console-token' },
      body,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'malformed',
      message: expect.stringMatching(/nests deeper than 20 levels; a lesson's value may nest at most 16/),
    });
  });

  it('checks the JSON-RPC envelope and the params of the extension methods, answering in sentences', async () => {
    const ask = async (body: unknown) =>
      (await (await call('POST', '/a2a/jsonrpc', 'Bearer console-token', body)).json()) as {
        id: unknown;
        error?: { code: number; message: string; data?: { error: string } };
      };
    const envelope = await ask({ jsonrpc: '1.0', id: 7, method: 'learnables/reread', params: { taskId } });
    expect(envelope).toMatchObject({ id: 7, error: { code: -32600, message: expect.stringMatching(/jsonrpc must be "2.0"/) } });
    const notObject = await ask({ jsonrpc: '2.0', id: 8, method: 'learnables/teach', params: [lesson] });
    expect(notObject.error).toMatchObject({ code: -32600, message: expect.stringMatching(/params must be an object/) });
    const nullPart = await ask(rpc('learnables/reread', { message: { parts: [null] } }));
    expect(nullPart.error).toMatchObject({ code: -32602, data: { error: 'malformed' }, message: expect.stringMatching(/message\.parts\.0 must be an object/) });
    const numberRaw = await ask(rpc('learnables/reread', { message: { parts: [{ raw: 12345 }] } }));
    expect(numberRaw.error).toMatchObject({ code: -32602, message: expect.stringMatching(/message\.parts\.0\.raw must be a string/) });
    const neither = await ask(rpc('learnables/reread', {}));
    expect(neither.error).toMatchObject({ code: -32602, message: expect.stringMatching(/exactly one of taskId .* or message/) });
    // REST answers the same sentences with 400.
    for (const body of [{ message: { parts: [null] } }, { message: { parts: [{ raw: 12345 }] } }, { message: { parts: [] } }, { taskId: 5 }]) {
      const answer = await call('POST', '/a2a/rest/learnables:reread', 'Bearer console-token', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toBe('malformed');
    }
    // A well-formed message is still read.
    const read = await call('POST', '/a2a/rest/learnables:reread', 'Bearer console-token', {
      message: { parts: [{ data: { category: 'books', weightKg: 30 } }] },
    });
    expect(read.status).toBe(200);
  });

  it("answers another owner's task as one that does not exist (404 / TaskNotFound), as SPEC §9 says", async () => {
    const rest = await call('GET', `/a2a/rest/tasks/${taskId}`, undefined);
    expect(rest.status).toBe(404);
    const reread = await call('POST', '/a2a/rest/learnables:reread', undefined, { taskId });
    expect(reread.status).toBe(404);
    expect(((await reread.json()) as { error: string }).error).toBe('unknown-task');
    const other = await call('POST', '/a2a/rest/learnables:reread', 'Bearer console-token', { taskId: randomUUID() });
    expect(other.status).toBe(404);
  });

  it('refuses a Host it was not configured with (DNS rebinding), on every route; loopback, its public URL and configured names pass', async () => {
    const port = new URL(stack.agent.url).port;
    for (const path of ['/healthz', '/.well-known/agent-card.json', '/a2a/rest/tasks', '/learnables/stats']) {
      const refused = await getWithHost(`${stack.agent.url}${path}`, `evil.example:${port}`);
      expect(refused.status, path).toBe(421);
      expect(JSON.parse(refused.body)).toEqual({
        error: 'forbidden',
        message: `This agent does not answer to the name "evil.example:${port}"; reach it by a name it was configured with (see SECURITY.md).`,
      });
    }
    expect((await getWithHost(`${stack.agent.url}/healthz`, `localhost:${port}`)).status).toBe(200);

    const named = await startLearnableAgent(thresholdAgent, {
      store: `sqlite:${stack.dir.path}/named.db`,
      authority: { url: stack.authority.url },
      publicUrl: 'http://threshold-agent-1:4203',
      hosts: 'intake.example, https://agents.example',
      logger: silentLogger(),
    });
    try {
      const url = `http://127.0.0.1:${(named.server.address() as AddressInfo).port}`;
      for (const host of ['threshold-agent-1:4203', 'intake.example', 'agents.example', '127.0.0.1'])
        expect((await getWithHost(`${url}/healthz`, host)).status, host).toBe(200);
      expect((await getWithHost(`${url}/healthz`, 'evil.example')).status).toBe(421);
    } finally {
      await named.close();
    }
  });

  it('refuses to start with a user named "unknown": that is the name anonymous callers\' tasks share', async () => {
    await expect(
      startLearnableAgent(thresholdAgent, {
        store: `sqlite:${stack.dir.path}/unknown.db`,
        authority: { url: stack.authority.url },
        users: new Map([['t', 'unknown']]),
        logger: silentLogger(),
      }),
    ).rejects.toThrow(/anonymous callers/);
    await expect(
      startLearnableAgent(thresholdAgent, {
        store: `sqlite:${stack.dir.path}/bidi.db`,
        authority: { url: stack.authority.url },
        users: new Map([['t', 'dana\u202e']]),
        logger: silentLogger(),
      }),
    ).rejects.toThrow(/direction/);
  });
});

describe('agent security: the numbers', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
  });
  afterAll(async () => stack?.close());

  it("counts an anonymous message when it arrived, not in the week its Date header claims; an authenticated sender's date stands", async () => {
    const dated = (date: string) =>
      fixture('email/northgate-billing-prealert.eml')
        .toString('latin1')
        .replace(/^Date: .*$/m, `Date: ${date}`);
    const send = async (eml: string, token?: string) => {
      const answer = await fetch(`${stack.agent.url}/a2a/rest/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify({
          message: {
            messageId: randomUUID(),
            role: 'ROLE_USER',
            parts: [{ raw: Buffer.from(eml, 'latin1').toString('base64'), mediaType: 'message/rfc822', filename: 'a.eml' }],
          },
        }),
      });
      expect(answer.status).toBe(200);
    };
    await send(dated('Mon, 06 Jan 2020 09:00:00 +0000'));
    await send(dated('Mon, 13 Jan 2020 09:00:00 +0000'), 'console-token');
    const stats = (await (await fetch(`${stack.agent.url}/learnables/stats?by=week`)).json()) as { periods: { period: string; messages: number }[] };
    const weeks = stats.periods.map((p) => p.period);
    expect(weeks).not.toContain('2020-01-06');
    expect(weeks).toContain('2020-01-13');
    expect(stats.periods.reduce((n, p) => n + p.messages, 0)).toBe(2);
  });
});

describe('agent security: anonymous access is a setting', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(thresholdAgent, { kinds: [weightLimitKind], seeds: [seedsFolder] });
  });
  afterAll(async () => stack?.close());

  it('with AGENTS_ALLOW_ANONYMOUS=false (as docker-compose.yml sets it), refuses callers without a token on every A2A route; the card and health stay open', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const agent = await startService(
      'threshold-agent-main.ts',
      {
        THRESHOLD_AGENT_PORT: String(port),
        THRESHOLD_AGENT_STORE: `sqlite:${stack.dir.path}/closed.db`,
        AUTHORITY_URL: stack.authority.url,
        AUTHORITY_TOKEN: 'agent-token',
        AGENT_TOKENS: 'desk=desk-token',
        AGENTS_ALLOW_ANONYMOUS: 'false',
        LOG_LEVEL: 'info',
      },
      url,
    );
    try {
      const send = (path: string, body: unknown, token?: string) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...(token && { authorization: `Bearer ${token}` }) },
          body: JSON.stringify(body),
        });
      const message = () => ({ messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { category: 'books', weightKg: 3 } }] });
      expect((await send('/a2a/jsonrpc', { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message() } })).status).toBe(401);
      expect((await send('/a2a/rest/message:send', { message: message() })).status).toBe(401);
      expect((await send('/a2a/rest/learnables:reread', { message: message() })).status).toBe(401);
      const refused = await send('/a2a/jsonrpc', { jsonrpc: '2.0', id: 1, method: 'learnables/reread', params: { message: message() } });
      expect(refused.status).toBe(401);
      // A JSON-RPC error object with the challenge (issue 37), not a plain JSON body.
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
      expect(((await refused.json()) as { error: { code: number; message: string } }).error).toMatchObject({
        code: -31401,
        message: expect.stringMatching(/only callers with a bearer token/),
      });
      expect((await send('/a2a/rest/message:send', { message: message() }, 'desk-token')).status).toBe(200);
      expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(200);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(agent.output()).toMatch(/bearer token required/);
    } finally {
      await agent.stop();
    }
  });

  it('serves anonymous callers by default, as the local stack does', async () => {
    const answer = await fetch(`${stack.agent.url}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { category: 'books', weightKg: 3 } }] } }),
    });
    expect(answer.status).toBe(200);
  });
});
