// Reading messages off the event loop (issue 15): an agent that names its parse module reads in the
// runtime's worker threads. The threads must decide exactly as the event loop did, on every fixture,
// and the agent must keep answering /healthz, and say "busy" in words, while it reads the largest
// message it accepts.
import { readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Task, TaskState } from '@a2a-js/sdk';
import { createEmailAgent } from '@learnables/email-agent';
import { createManifestAgent } from '@learnables/manifest-agent';
import type { LearnableAgent, RunningAgent } from '@learnables/runtime';
import { startLearnableAgent } from '@learnables/runtime';
import { largeEmail, scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { fixture, said, startLoop, startSeededAuthority } from './support/loop-stack.ts';
import type { LoopStack } from './support/loop-stack.ts';
import { silentLogger } from '@learnables/authority';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const filesIn = (folder: string, ending: RegExp) =>
  readdirSync(fileURLToPath(new URL(`../fixtures/${folder}/`, import.meta.url))).filter((name) => ending.test(name));

const sendOver = (url: string, bytes: Buffer, mediaType: string, filename: string, binding: 'jsonrpc' | 'rest' = 'jsonrpc') => {
  const message = { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw: bytes.toString('base64'), mediaType, filename }] };
  return fetch(binding === 'jsonrpc' ? `${url}/a2a/jsonrpc` : `${url}/a2a/rest/message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token', connection: 'close' },
    body: JSON.stringify(binding === 'jsonrpc' ? { jsonrpc: '2.0', id: 7, method: 'SendMessage', params: { message } } : { message }),
  });
};

const taskOf = async (answer: Response): Promise<Task> => {
  const body = (await answer.json()) as { result?: { task?: unknown }; error?: unknown };
  if (body.result?.task === undefined) throw new Error(`no task: ${JSON.stringify(body).slice(0, 300)}`);
  return Task.fromJSON(body.result.task);
};

/** What a task decided, without what differs between two agents (ids, times). */
function decision(task: Task): unknown {
  const { text, extension } = said(task);
  const artifacts = task.artifacts.map((artifact) => artifact.parts.map((part) => part.content));
  return JSON.parse(JSON.stringify({ state: task.status?.state, text, extension, artifacts }).replaceAll(task.id, '<task>'));
}

describe('parse threads decide exactly as the event loop does', () => {
  let dir: ScratchDir;
  let authority: Awaited<ReturnType<typeof startSeededAuthority>>;
  const running: RunningAgent[] = [];
  const start = async (agent: LearnableAgent<unknown, unknown>, name: string, threads: number) => {
    const started = await startLearnableAgent(agent, {
      store: `sqlite:${dir.path}/${name}-${threads}.db`,
      authority: { url: authority.url, token: 'agent-token' },
      users: { 'console-token': 'console' },
      logger: silentLogger(),
      // Every message to a thread (not only those of 16 kB or more), so each fixture is read there.
      parsing: { threads, inThreadFrom: 0 },
    });
    running.push(started);
    return started;
  };
  beforeAll(async () => {
    dir = scratchDir('parse-threads-');
    authority = await startSeededAuthority(dir);
  });
  afterAll(async () => {
    for (const agent of running) await agent.close();
    await authority?.close();
    dir?.remove();
  });

  it('on every email fixture', async () => {
    // Each agent its own: the email agent remembers whom senders lately wrote for.
    const inLoop = await start(createEmailAgent() as LearnableAgent<unknown, unknown>, 'email', 0);
    const inThreads = await start(createEmailAgent() as LearnableAgent<unknown, unknown>, 'email', 2);
    expect(await (await fetch(`${inThreads.url}/healthz`)).json()).toMatchObject({ reading: { threads: 2 } });
    expect(await (await fetch(`${inLoop.url}/healthz`)).json()).toMatchObject({ reading: { threads: 0 } });
    const files = filesIn('email', /\.eml$/);
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const bytes = fixture(`email/${file}`);
      const [loop, threads] = [
        await taskOf(await sendOver(inLoop.url, bytes, 'message/rfc822', file)),
        await taskOf(await sendOver(inThreads.url, bytes, 'message/rfc822', file)),
      ];
      expect(decision(threads), file).toEqual(decision(loop));
    }
  }, 180_000);

  it('on every manifest fixture, refusals word for word', async () => {
    const inLoop = await start(createManifestAgent() as LearnableAgent<unknown, unknown>, 'manifest', 0);
    const inThreads = await start(createManifestAgent() as LearnableAgent<unknown, unknown>, 'manifest', 2);
    const files = filesIn('manifests', /\.(xlsx|csv)$/);
    expect(files.length).toBeGreaterThan(15);
    const states = new Set<unknown>();
    for (const file of files) {
      const bytes = fixture(`manifests/${file}`);
      const type = file.endsWith('.csv') ? 'text/csv' : XLSX;
      const [loop, threads] = [await taskOf(await sendOver(inLoop.url, bytes, type, file)), await taskOf(await sendOver(inThreads.url, bytes, type, file))];
      expect(decision(threads), file).toEqual(decision(loop));
      states.add(loop.status?.state);
    }
    // The fixtures cover all three ends: mapped, asked about, refused.
    expect(states).toEqual(new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_FAILED]));
  }, 180_000);
});

describe('while the largest email it accepts is being read', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(createEmailAgent(), { parsing: { threads: 1, maxParses: 1 } });
  });
  afterAll(async () => stack?.close());

  const health = async () =>
    (await (await fetch(`${stack.agent.url}/healthz`, { headers: { connection: 'close' } })).json()) as { ok: boolean; reading: { parsing: number } };

  it('/healthz answers, a second message is told to come back later, and both are read once it is done', async () => {
    let done = false;
    const heavy = sendOver(stack.agent.url, largeEmail({ csvRows: 40_000 }), 'message/rfc822', 'largest.eml').then(async (answer) => {
      done = true;
      return answer;
    });

    // The agent has taken the message (its one place is held) and has not answered it yet...
    let seen = await health();
    while (seen.reading.parsing === 0 && !done) seen = await health();
    expect(done).toBe(false);
    // ...and /healthz still answers, while the message is being read.
    const during = await health();
    expect(during).toMatchObject({ ok: true, reading: { parsing: 1 } });
    expect(done).toBe(false);

    // One more message is refused, in words, with when to try again, on both bindings; nothing is stored.
    const tasksBefore = await stack.agent.ledger.count();
    const busy = await sendOver(stack.agent.url, fixture('email/kestrel-qa-coa-pdf.eml'), 'message/rfc822', 'ok.eml');
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('10');
    const message = 'This agent is busy reading 1 other messages and did not take this one; nothing was saved. Send it again in 10 seconds.';
    expect(await busy.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32000, message, data: { error: 'busy', message } } });
    const busyRest = await sendOver(stack.agent.url, fixture('email/kestrel-qa-coa-pdf.eml'), 'message/rfc822', 'ok.eml', 'rest');
    expect(busyRest.status).toBe(503);
    expect(busyRest.headers.get('retry-after')).toBe('10');
    expect(await busyRest.json()).toEqual({ error: 'busy', message });
    expect(await stack.agent.ledger.count()).toBe(tasksBefore);
    expect(done).toBe(false);

    const read = await taskOf(await heavy);
    expect([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED]).toContain(read.status?.state);
    expect((await health()).reading.parsing).toBe(0);
    const again = await taskOf(await sendOver(stack.agent.url, fixture('email/kestrel-qa-coa-pdf.eml'), 'message/rfc822', 'ok.eml'));
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  }, 600_000);
});
