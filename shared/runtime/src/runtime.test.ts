import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { Client } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { LEARNABLES_URI } from '@learnables/protocol';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { rpc, said, sdkClient, send, startAuthority, userData, userText } from './harness.test-support.ts';
import type { RunningAgent } from './start-agent.ts';
import { startLearnableAgent } from './start-agent.ts';
import { completions, wordAgent } from './word-agent.test-support.ts';
import { silentLogger } from '@learnables/authority';

describe('a learnable agent on the runtime, over real HTTP', () => {
  let dir: ScratchDir;
  let authority: Awaited<ReturnType<typeof startAuthority>>;
  let agent: RunningAgent;

  beforeAll(async () => {
    dir = scratchDir('runtime-');
    process.env.WORD_AGENT_LOG = `${dir.path}/steps.log`;
    authority = await startAuthority();
    agent = await startLearnableAgent(wordAgent, {
      store: `sqlite:${dir.path}/agent.db`,
      authority: { url: authority.url, token: 'agent-token' },
      users: { 'alice-token': 'alice', 'bob-token': 'bob' },
      bodyLimit: '64kb',
      logger: silentLogger(),
    });
  });

  afterAll(async () => {
    await agent.close();
    await authority.close();
    authority.dir.remove();
    dir.remove();
    delete process.env.WORD_AGENT_LOG;
  });

  it('declares the extension on its card with required: false, the declaration and the method names', async () => {
    const card = (await (await fetch(`${agent.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as {
      capabilities: { extensions: { uri: string; required: boolean; params: Record<string, unknown> }[] };
    };
    const entry = card.capabilities.extensions.find((e) => e.uri === LEARNABLES_URI);
    expect(entry).toMatchObject({
      required: false,
      params: {
        collection: 'lists',
        decidedBy: 'rules',
        how: wordAgent.declaration.how,
        methods: { reread: { jsonrpc: 'learnables/reread', rest: '/learnables:reread' }, teach: { jsonrpc: 'learnables/teach', rest: '/learnables:teach' } },
      },
    });
  });

  it('echoes the extension in A2A-Extensions when a client activates it, on JSON-RPC, REST and streaming', async () => {
    for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
      const { client, lastHeaders } = await sdkClient(agent.url, { activate: true, transport });
      await send(client, userText('banana bread'));
      expect(lastHeaders()?.get('a2a-extensions'), transport).toBe(LEARNABLES_URI);
      for await (const _event of client.sendMessageStream(userText('banana split'))) void _event;
      expect(lastHeaders()?.get('a2a-extensions'), `${transport} streaming`).toBe(LEARNABLES_URI);
    }
    const { client, lastHeaders } = await sdkClient(agent.url, { activate: false });
    await send(client, userText('banana'));
    expect(lastHeaders()?.get('a2a-extensions')).toBeNull();
  });

  it('asks with a teach block pinned to the version the task started on', async () => {
    const { client } = await sdkClient(agent.url, { activate: true });
    const task = await send(client, userText('kiwi salad'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { text, extension } = said(task);
    expect(text).toBe('Which list does this text belong to?');
    expect(task.status?.message?.metadata?.summary).toEqual({ text: 'kiwi salad' });
    expect(extension).toEqual({
      collection: 'lists',
      question: 'Which list does this text belong to?',
      entries: [
        { key: 'alpha', label: 'List alpha' },
        { key: 'beta', label: 'List beta' },
      ],
      suggested: { word: 'kiwi' },
      version: (await authority.client.active('lists')).version,
    });
  });

  it('finishes a task on the version it was asked at, while a new task reads the version published meanwhile', async () => {
    const { client } = await sdkClient(agent.url, { activate: true });
    const asked = await send(client, userText('mango chutney'));
    const pinned = said(asked).extension!.version as number;
    const outcome = await authority.client.postLesson({
      collection: 'lists',
      entry: 'alpha',
      value: { word: 'mango' },
      taughtBy: 'dana',
      reason: 'mangoes are alpha',
    });
    expect(outcome).toMatchObject({ changed: true, version: pinned + 1 });

    const answered = await send(client, userData({ entry: 'beta' }, asked));
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(answered).extension).toMatchObject({ versions: { lists: pinned }, decidedBy: 'operator' });
    expect(said(answered).text).toBe('Belongs to beta, as the operator answered');

    const next = await send(client, userText('mango lassi'));
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(next).text).toBe('Belongs to List alpha');
    expect(said(next).extension).toMatchObject({ versions: { lists: pinned + 1 } });
    const artifact = next.artifacts.find((a) => a.artifactId === 'result');
    expect(artifact?.parts[0]?.content).toMatchObject({ $case: 'data', value: { result: { list: 'alpha' }, versions: { lists: pinned + 1 } } });
  });

  // Tasks share requests for the active version (FreshRead in the authority client): this holds the
  // sharing to pinning exactly what asking once per task pins. The agent reaches the authority through
  // a proxy that holds each answer about the active version 50 ms; each round, a lesson is published
  // while another task's request is held with the answer from before it, and a message is sent right
  // after the lesson's acknowledgement. Sharing a request already under way would pin the old version.
  it('pins the version a lesson published before the message arrived, while another task waits on an older answer', async () => {
    const target = new URL(authority.url);
    let held: (() => void) | undefined;
    const proxy = createServer((req, res) => {
      const forward = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        const relay = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (!req.url?.endsWith('/active')) return relay();
        setTimeout(relay, 50);
        held?.();
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const slow = await startLearnableAgent(wordAgent, {
      store: `sqlite:${dir.path}/slow-authority.db`,
      authority: { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, token: 'agent-token' },
      logger: silentLogger(),
    });
    const { client } = await sdkClient(slow.url, { activate: true });
    try {
      for (let round = 0; round < 5; round += 1) {
        const word = `pinword${round}`;
        const holding = new Promise<void>((resolve) => (held = resolve));
        const earlier = send(client, userText('banana split'));
        await holding;
        const outcome = await authority.client.postLesson({
          collection: 'lists',
          entry: 'alpha',
          value: { word },
          taughtBy: 'dana',
          reason: `${word} is alpha`,
        });
        const task = await send(client, userText(`a ${word} here`));
        expect(said(task).extension).toMatchObject({ versions: { lists: outcome.version } });
        expect(said(task).text).toBe('Belongs to List alpha');
        expect(said(await earlier).extension).toMatchObject({ versions: { lists: outcome.version - 1 } });
      }
    } finally {
      held = undefined;
      await slow.close();
      proxy.closeAllConnections();
      proxy.close();
    }
  });

  // The agent reuses an answer of the active version for up to the authority's commit wait after
  // sending its request (300 ms here, long enough that the reuse is certain). Each round a task
  // has just been pinned, so the agent holds a fresh answer from before the lesson; the lesson is
  // then taught and the next message sent the moment its writer is answered, or the moment the
  // change feed announces it. Either comes no sooner than the wait after the commit, so the
  // answer held is out of its window and the message pins the lesson's version; a feed that
  // announced at once would see it pinned to the version before.
  it('pins the version of a lesson the message was sent on seeing acknowledged, or announced on the feed, while the agent reuses answers', async () => {
    const waiting = await startAuthority(scratchDir('runtime-waiting-authority-'), { commitWaitMs: 300 });
    const reusing = await startLearnableAgent(wordAgent, {
      store: `sqlite:${dir.path}/reusing.db`,
      authority: { url: waiting.url, token: 'agent-token' },
      logger: silentLogger(),
    });
    const { client } = await sdkClient(reusing.url, { activate: true });
    const watching = new AbortController();
    const announced = new Map<number, () => void>();
    const connected = new Promise<void>((resolve) => {
      void waiting.client.watch({
        collection: 'lists',
        signal: watching.signal,
        onActive: () => resolve(),
        onActivation: (activation) => announced.get(activation.version)?.(),
      });
    });
    try {
      await connected;
      for (let round = 0; round < 6; round += 1) {
        const word = `seenword${round}`;
        const before = await send(client, userText('banana split'));
        const pinned = said(before).extension!.versions as Record<string, number>;
        const version = pinned.lists! + 1;
        const onFeed = new Promise<void>((resolve) => announced.set(version, resolve));
        const acknowledged = waiting.client.postLesson({ collection: 'lists', entry: 'alpha', value: { word }, taughtBy: 'dana', reason: `${word} is alpha` });
        if (round % 2 === 0) await onFeed;
        else expect(await acknowledged).toMatchObject({ version });
        const task = await send(client, userText(`a ${word} here`));
        expect(said(task).extension, `round ${round}`).toMatchObject({ versions: { lists: version } });
        expect(said(task).text).toBe('Belongs to List alpha');
        await acknowledged;
      }
    } finally {
      watching.abort();
      await reusing.close();
      await waiting.close();
      waiting.dir.remove();
    }
  });

  it('reads again under the live version with reread, leaving no task, journal row or pin behind', async () => {
    const { client } = await sdkClient(agent.url, { activate: true });
    const asked = await send(client, userText('papaya'));
    const before = { journal: await agent.journal.count(), ledger: await agent.ledger.count(), tasks: await countTasks(agent) };
    const first = await rpc(agent.url, 'learnables/reread', { taskId: asked.id }, { 'A2A-Extensions': LEARNABLES_URI });
    const live = (await authority.client.active('lists')).version;
    expect(first.headers.get('a2a-extensions')).toBe(LEARNABLES_URI);
    expect(first.body.result).toEqual({ list: { settled: false, reads: 'Still cannot tell which list this is.', version: live } });

    await authority.client.postLesson({ collection: 'lists', entry: 'beta', value: { word: 'papaya' }, taughtBy: 'dana', reason: 'r' });
    const second = await rpc(agent.url, 'learnables/reread', { taskId: asked.id });
    expect(second.body.result).toEqual({ list: { settled: true, winner: 'beta', reads: 'Belongs to List beta', version: live + 1 } });
    const byMessage = await fetch(`${agent.url}/a2a/rest/learnables:reread`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a papaya' }] } }),
    });
    expect(await byMessage.json()).toEqual({ list: { settled: true, winner: 'beta', reads: 'Belongs to List beta', version: live + 1 } });

    expect({ journal: await agent.journal.count(), ledger: await agent.ledger.count(), tasks: await countTasks(agent) }).toEqual(before);
    // The task itself is untouched: still asking, on its pinned version.
    const reloaded = await client.getTask({ tenant: '', id: asked.id, historyLength: 10 });
    expect(reloaded.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(said(reloaded).extension?.version).toBe(live);
  });

  it('tells the agent a task completed only when it did: decided or answered, once each; never a question, a reread or a reread message', async () => {
    const { client } = await sdkClient(agent.url, { activate: true });
    completions.length = 0;
    const decided = await send(client, userText('a banana split'));
    expect(decided.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const asked = await send(client, userText('a kumquat tart'));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(completions).toEqual(['a banana split → beta']);
    // Reread by task and by message reads (and settles) without completing anything.
    await rpc(agent.url, 'learnables/reread', { taskId: decided.id });
    await rpc(agent.url, 'learnables/reread', { taskId: asked.id });
    await rpc(agent.url, 'learnables/reread', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'one banana' }] } });
    expect(completions).toEqual(['a banana split → beta']);
    const answered = await send(client, userData({ entry: 'alpha' }, asked));
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(completions).toEqual(['a banana split → beta', 'a kumquat tart → alpha']);
  });

  it('read, teach through the agent, read again: a second task settles (two tasks, not one replayed)', async () => {
    const { client } = await sdkClient(agent.url, { activate: true, token: 'alice-token' });
    const first = await send(client, userText('quince jam'));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const suggested = said(first).extension!.suggested as Record<string, unknown>;
    const taught = await rpc(
      agent.url,
      'learnables/teach',
      { collection: 'lists', entry: 'alpha', value: suggested, taughtBy: 'alice', reason: 'quinces are alpha' },
      { authorization: 'Bearer alice-token' },
    );
    expect(taught.body.result).toMatchObject({ changed: true, audit: "alpha knows the word 'quince'" });
    const second = await send(client, userText('quince paste'));
    expect(second.id).not.toBe(first.id);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(second).text).toBe('Belongs to List alpha');
  });

  it('relays refusals from teach word for word, and refuses to teach without a token', async () => {
    const refused = await rpc(
      agent.url,
      'learnables/teach',
      { collection: 'lists', entry: 'alpha', value: { word: '' }, taughtBy: 'alice', reason: 'r' },
      { authorization: 'Bearer alice-token' },
    );
    expect(refused.body.error).toEqual({
      code: -32602,
      message: 'a word list needs a word',
      data: { error: 'unlearnable', message: 'a word list needs a word', field: 'word' },
    });
    const anonymous = await rpc(agent.url, 'learnables/teach', { collection: 'lists', entry: 'alpha', value: { word: 'x' }, taughtBy: 'a', reason: 'r' });
    expect(anonymous.body.error).toMatchObject({ code: -31401, data: { error: 'unauthorized' } });
    const unknown = await rpc(
      agent.url,
      'learnables/teach',
      { collection: 'lists', entry: 'gamma', value: { word: 'x' }, taughtBy: 'a', reason: 'r' },
      { authorization: 'Bearer alice-token' },
    );
    expect(unknown.body.error?.message).toBe('"gamma" is not in lists; the entries are: alpha, beta.');
  });

  it('serves a v0.3 client (the SDK compat client): it sends a message and gets the question', async () => {
    const card = (await (await fetch(`${agent.url}/.well-known/agent-card.json`)).json()) as { url: string; protocolVersion: string };
    expect(card.protocolVersion).toBe('0.3');
    let sentVersion: string | null = null;
    const legacy = new Client(
      new LegacyJsonRpcTransport({
        endpoint: card.url,
        fetchImpl: async (input, init) => {
          sentVersion = new Headers(init?.headers).get('A2A-Version');
          return fetch(input, init);
        },
      }),
      agent.card,
    );
    const task = (await legacy.sendMessage(userText('rambutan'))) as Task;
    expect(sentVersion).toBe('0.3');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(said(task).text).toBe('Which list does this text belong to?');
    expect(said(task).extension).toMatchObject({ collection: 'lists', suggested: { word: 'rambutan' } });
    // And on the v0.3 wire itself, the state is the v0.3 string.
    const raw = await fetch(`${agent.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: 'v03', role: 'user', parts: [{ kind: 'text', text: 'durian' }] } },
      }),
    });
    const body = (await raw.json()) as { result: { kind: string; status: { state: string; message: { metadata: Record<string, unknown> } } } };
    expect(body.result.kind).toBe('task');
    expect(body.result.status.state).toBe('input-required');
    expect(body.result.status.message.metadata[LEARNABLES_URI]).toMatchObject({ collection: 'lists', question: 'Which list does this text belong to?' });
  });

  it('keeps asking, naming the entries, when an answer names none of them', async () => {
    const { client } = await sdkClient(agent.url);
    const asked = await send(client, userText('lychee'));
    const wrong = await send(client, userText('gamma', asked));
    expect(wrong.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(said(wrong).text).toBe('"gamma" is not one of the choices; answer with one of: List alpha, List beta. Which list does this text belong to?');
    const right = await send(client, userText('list beta', wrong));
    expect(right.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(right).text).toBe('Belongs to beta, as the operator answered');
  });

  it('fails a task whose reading throws, with a sentence, and keeps serving', async () => {
    const { client } = await sdkClient(agent.url);
    const failed = await send(client, userText('explode'));
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(said(failed).text).toMatch(/^The agent failed while reading this message; nothing was decided\./);
    const empty = await send(client, userText('   '));
    expect(said(empty).text).toBe('There is no text to read in this message.');
    expect((await send(client, userText('banana'))).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('answers malformed JSON-RPC with the spec codes, and an oversized body with 413', async () => {
    const notJson = await fetch(`${agent.url}/a2a/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":' });
    expect(((await notJson.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const noMethod = await rpc(agent.url, 'NoSuchMethod', {});
    expect(noMethod.body.error?.code).toBe(-32601);
    const big = await fetch(`${agent.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { pad: 'x'.repeat(100_000) } }),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string } }).error.message).toBe('The request is larger than this agent accepts (64kb).');
  });

  it("keeps one user's tasks from another: bob cannot read alice's task, nor reread it", async () => {
    const alice = await sdkClient(agent.url, { token: 'alice-token' });
    const bob = await sdkClient(agent.url, { token: 'bob-token' });
    const task = await send(alice.client, userText('secret fig'));
    await expect(bob.client.getTask({ tenant: '', id: task.id, historyLength: 1 })).rejects.toThrow();
    const peek = await rpc(agent.url, 'learnables/reread', { taskId: task.id }, { authorization: 'Bearer bob-token' });
    expect(peek.body.error).toMatchObject({ data: { error: 'unknown-task' } });
    const wrongToken = await rpc(agent.url, 'GetTask', { id: task.id }, { authorization: 'Bearer stolen' });
    expect(wrongToken.status).toBe(401);
  });

  it('counts messages and questions by the messages own week, and serves Prometheus metrics', async () => {
    // A message's own date counts only from an authenticated sender (an anonymous one counts when it arrived).
    const { client } = await sdkClient(agent.url, { token: 'alice-token' });
    await send(client, userText('date:2026-10-05 banana'));
    await send(client, userText('date:2026-10-06 durian'));
    await send(client, userText('date:2026-10-13 banana'));
    const stats = (await (await fetch(`${agent.url}/learnables/stats?by=week`)).json()) as {
      periods: { period: string; messages: number; questions: number; questionsPer100: number }[];
    };
    expect(stats.periods.filter((p) => p.period.startsWith('2026-10'))).toEqual([
      { period: '2026-10-05', messages: 2, questions: 1, questionsPer100: 50, corrected: 0, correctedUnasked: 0 },
      { period: '2026-10-12', messages: 1, questions: 0, questionsPer100: 0, corrected: 0, correctedUnasked: 0 },
    ]);
    const metrics = await (await fetch(`${agent.url}/metrics`)).text();
    // This instance's own counts (per-instance counters: replicas are summed in PromQL).
    expect(metrics).toMatch(/^learnables_messages_total\{agent="word-lists"\} \d+$/m);
    expect(metrics).toMatch(/^learnables_questions_total\{collection="lists",agent="word-lists"\} \d+$/m);
    expect(metrics).toMatch(/^process_cpu_seconds_total\{agent="word-lists"\} /m);
    expect(metrics).toMatch(/^nodejs_eventloop_lag_seconds\{agent="word-lists"\} /m);
  });
});

async function countTasks(agent: RunningAgent): Promise<number> {
  const db = agent.database.db as unknown as import('kysely').Kysely<{ tasks: { id: string } }>;
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
