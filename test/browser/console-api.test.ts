// The console's JSON API over real HTTP, without a browser: what the UI relies on, and the
// sentences it shows when something is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { createConsole } from '@learnables/console';
import type { AnswerResponse, QuestionsResponse, RunningConsole, TaskView } from '@learnables/console';
import type { InputPart, LearnableAgent } from '@learnables/runtime';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { WordInput } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { mkdirSync } from 'node:fs';
import { AGENT_TOKEN, AUTHORITY_TOKEN, passwordOf, sendText, signInCookie, startConsoleStack, testAccounts } from './console-harness.ts';
import { silentLogger } from '@learnables/authority';

const received: InputPart[][] = [];

/** The word agent reading .csv files, keeping the parts it was given so the test can look at them. */
const recordingAgent = {
  ...wordAgent,
  name: 'Recording agent',
  skill: { id: 'recording', name: 'Sheets', description: 'Reads sheets', inputModes: ['text/csv'] },
  parse(parts: readonly InputPart[]) {
    received.push([...parts]);
    return wordAgent.parse(parts.map((part) => (part.kind === 'file' ? { kind: 'text', text: new TextDecoder().decode(part.bytes) } : part)));
  },
} as LearnableAgent<unknown, unknown>;

/** The word agent whose questions already name the entry a lesson would extend: always beta. */
const namingAgent: LearnableAgent<WordInput, { list: string }> = {
  ...wordAgent,
  name: 'Naming agent',
  skill: { ...wordAgent.skill, id: 'naming' },
  read(input, definitions) {
    const reading = wordAgent.read(input, definitions);
    return reading.settled ? reading : { ...reading, question: { ...reading.question, entry: 'beta' } };
  },
};

describe("the console's API", () => {
  let stack: ConsoleStack;
  let small: RunningConsole;
  let words: Client;
  const dana = { cookie: '' };
  const danaAtSmall = { cookie: '' };

  const call = async <T>(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as T & { error?: string; message?: string; field?: string } };
  };
  const api = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = dana) =>
    call<T>(stack.console.url, method, `/api${path}`, body, headers);

  beforeAll(async () => {
    stack = await startConsoleStack({
      agents: [wordAgent as LearnableAgent<unknown, unknown>, recordingAgent, namingAgent as LearnableAgent<unknown, unknown>],
    });
    mkdirSync(`${stack.dir.path}/small`);
    small = await createConsole({
      accounts: await testAccounts(`${stack.dir.path}/small`),
      agents: [{ url: stack.agents[0]!.url }, { url: 'http://127.0.0.1:9' }],
      authority: { url: stack.authority.url, token: AUTHORITY_TOKEN },
      agentToken: AGENT_TOKEN,
      maxUploadBytes: 1024,
      logger: silentLogger(),
    });
    words = await stack.sdk(stack.agents[0]!);
    dana.cookie = await signInCookie(stack.console.url, 'dana');
    danaAtSmall.cookie = await signInCookie(small.url, 'dana');
  });

  afterAll(async () => {
    await small?.close();
    await stack?.close();
  });

  it('signs in with a name and password into a signed session cookie, and refuses to answer for nobody', async () => {
    expect((await api('GET', '/session', undefined, {})).body).toEqual({ operator: null });
    const signed = await api('POST', '/session', { name: '  Dana Smith ', password: passwordOf('Dana Smith') }, {});
    expect(signed.body).toEqual({ operator: 'Dana Smith' });
    const [cookie, browser] = signed.headers.getSetCookie();
    expect(cookie).toMatch(/^learnables-session=v1\.[\w-]+\.[\w-]+; Max-Age=43200; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    // The browser is known for the name from now on (sign-in-limits.ts): sent to the sign-in only.
    expect(browser).toMatch(/^learnables-browser=b1\.[\w-]+\.[\w-]+; Max-Age=7776000; Path=\/api\/session; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    expect((await api('GET', '/session', undefined, { cookie: cookie!.split(';')[0]! })).body).toEqual({ operator: 'Dana Smith' });
    expect((await api('POST', '/session', { name: ' ', password: 'x' }, {})).body).toMatchObject({ error: 'malformed', field: 'name' });
    expect((await api('POST', '/session', { name: 'dana' }, {})).body).toMatchObject({ error: 'malformed', field: 'password' });

    const task = await sendText(words, 'cherry pie');
    const anonymous = await api('POST', `/agents/${agentId(0)}/tasks/${task.id}/answer`, { entry: 'alpha' }, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'not-signed-in', message: 'Sign in first: every answer, lesson and rollback records who made it.' });
    expect((await api('GET', '/questions', undefined, {})).status).toBe(401);
  });

  it('lists the questions of every agent newest first, and names an agent it cannot reach instead of failing', async () => {
    const first = await sendText(words, 'apricot tart');
    const second = await sendText(words, 'apricot jam');
    const { body } = await call<QuestionsResponse>(small.url, 'GET', '/api/questions', undefined, danaAtSmall);
    const ids = body.questions.map((question) => question.taskId);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(body.questions.find((question) => question.taskId === first.id)).toMatchObject({
      state: 'asking',
      said: 'Which list does this text belong to?',
      summary: { text: 'apricot tart' },
      teach: { collection: 'lists', suggested: { word: 'apricot' } },
    });
    expect(body.problems).toEqual([{ agentId: '127-0-0-1-9', message: expect.stringMatching(/^The agent at http:\/\/127\.0\.0\.1:9 cannot be reached: /) }]);
  });

  it('answers without a lesson: the task resumes with who answered, and nothing is written', async () => {
    const task = await sendText(words, 'lemon curd');
    const before = (await stack.authority.client.history('lists')).activations;
    const answered = await api<AnswerResponse>('POST', `/agents/${agentId(0)}/tasks/${task.id}/answer`, { entry: 'beta' });
    expect(answered.status).toBe(200);
    expect(answered.body.task).toMatchObject({
      state: 'decided',
      said: 'Belongs to beta, as the operator answered',
      decidedBy: 'operator',
      answeredBy: 'dana',
      versions: { lists: 1 },
    });
    expect(answered.body.lesson).toBeUndefined();
    expect((await stack.authority.client.history('lists')).activations).toEqual(before);

    const again = await api('POST', `/agents/${agentId(0)}/tasks/${task.id}/answer`, { entry: 'beta' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Word list agent is no longer asking on this task (it is decided); nothing was written.');
    const wrong = await api('POST', `/agents/${agentId(0)}/tasks/${(await sendText(words, 'lime')).id}/answer`, { entry: 'gamma' });
    expect(wrong.body).toEqual({
      error: 'unknown-entry',
      message: '"gamma" is not one of the answers this question offers: List alpha, List beta.',
      field: 'entry',
    });
  });

  it("teaches the entry the question names, whatever the answer was, and shows back the agent's reading", async () => {
    const naming = await stack.sdk(stack.agents[2]!);
    const task = await sendText(naming, 'walnut loaf');
    const answered = await api<AnswerResponse>('POST', `/agents/${agentId(2)}/tasks/${task.id}/answer`, {
      entry: 'alpha',
      lesson: { value: { word: 'walnut' }, reason: 'walnuts are beta' },
    });
    expect(answered.body.lesson).toMatchObject({ collection: 'lists', entry: 'beta', changed: true, audit: "beta knows the word 'walnut'" });
    expect(answered.body.showBack).toEqual({
      readings: { list: { settled: true, winner: 'beta', reads: 'Belongs to List beta', version: answered.body.lesson!.version } },
    });
    expect(answered.body.task.said).toBe('Belongs to alpha, as the operator answered');
  });

  it('posts a lesson before answering: a refusal comes back word for word and the question keeps waiting', async () => {
    const task = await sendText(words, 'peach melba');
    const refused = await api('POST', `/agents/${agentId(0)}/tasks/${task.id}/answer`, { entry: 'alpha', lesson: { value: { word: ' ' }, reason: 'r' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: 'unlearnable', message: 'a word list needs a word', field: 'word' });
    expect((await words.getTask({ tenant: '', id: task.id, historyLength: 1 })).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const noReason = await api('POST', `/agents/${agentId(0)}/tasks/${task.id}/answer`, { entry: 'alpha', lesson: { value: { word: 'peach' }, reason: '' } });
    expect(noReason.body).toEqual({ error: 'malformed', message: 'Say why, so the history can tell the next person.', field: 'reason' });
  });

  it('sends a file as a file part, with its bytes, media type and name', async () => {
    const bytes = 'hazel,nuts\n';
    const sent = await fetch(`${stack.console.url}/api/agents/${agentId(1)}/files?filename=${encodeURIComponent('week 1.csv')}`, {
      method: 'POST',
      headers: { ...dana, 'content-type': 'text/csv' },
      body: bytes,
    });
    expect(((await sent.json()) as { task: TaskView }).task).toMatchObject({ state: 'asking', agentName: 'Recording agent', summary: { text: 'hazel,nuts' } });
    const file = received.at(-1)?.[0];
    expect(file).toMatchObject({ kind: 'file', mediaType: 'text/csv', filename: 'week 1.csv' });
    expect(new TextDecoder().decode((file as { bytes: Uint8Array }).bytes)).toBe(bytes);

    const unread = await fetch(`${stack.console.url}/api/agents/${agentId(0)}/files?filename=x.csv`, {
      method: 'POST',
      headers: { ...dana, 'content-type': 'text/csv' },
      body: bytes,
    });
    expect(unread.status).toBe(415);
    expect(((await unread.json()) as { message: string }).message).toBe('Word list agent does not read text/csv; its card lists text/plain.');
  });

  it('refuses a file over its limit with a sentence, and sends nothing', async () => {
    const count = received.length;
    const big = await fetch(`${small.url}/api/agents/${agentId(0)}/files?filename=big.csv`, {
      method: 'POST',
      headers: { ...danaAtSmall, 'content-type': 'text/plain' },
      body: 'x'.repeat(5000),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: 'too-large', message: 'That is larger than the console accepts (1 kB); nothing was sent.' });
    expect(received.length).toBe(count);
  });

  it('answers every error as JSON with a sentence', async () => {
    expect((await api('GET', '/agents/nobody/tasks/t')).body).toMatchObject({
      error: 'unknown-agent',
      message: expect.stringMatching(/^The console has no agent "nobody"; it knows /),
    });
    expect((await api('GET', `/agents/${agentId(0)}/tasks/no-such-task`)).body).toEqual({
      error: 'unknown-task',
      message: 'Word list agent has no task "no-such-task" that the console can see.',
    });
    expect((await api('GET', '/nothing-here')).body).toEqual({
      error: 'not-found',
      message: 'The console has no GET /api/nothing-here. See shared/console/README.md for its API.',
    });
    expect((await api('POST', '/session', '{"name":')).body).toMatchObject({
      error: 'malformed',
      message: expect.stringMatching(/^The request is not valid JSON/),
    });
    expect((await api('POST', '/collections/lists/rollback', { version: 99, reason: 'r' })).body).toMatchObject({ error: 'unknown-version' });
  });

  it('answers its health check for the stack that starts it', async () => {
    expect(await (await fetch(`${stack.console.url}/healthz`)).json()).toEqual({ ok: true, agents: 3 });
  });

  it('serves the UI from itself alone, under a policy that loads nothing from elsewhere', async () => {
    const page = await fetch(stack.console.url);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/app.js"></script>');
    expect(html).not.toMatch(/https?:/);
    const script = await (await fetch(`${stack.console.url}/app.js`)).text();
    expect(script).toContain('typed as text');
    expect(await (await fetch(`${stack.console.url}/app.css`)).text()).not.toMatch(/url\(|@import/);
  });

  it('is ready while the authority answers, shows an agent it cannot reach without being unready for it, and counts sign-ins and answers', async () => {
    const ready = await fetch(`${small.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ok: true,
      checks: [
        { name: 'authority', ok: true },
        { name: 'agent 1', ok: true },
        { name: 'agent 2', ok: false, message: expect.stringMatching(/^the agent at http:\/\/127\.0\.0\.1:9 cannot be reached/) },
      ],
    });

    // Dana signed in once in beforeAll; a wrong password now, then an answer sent through this console.
    expect((await call(small.url, 'POST', '/api/session', { name: 'dana', password: 'not her password' })).status).toBe(401);
    const task = await sendText(words, 'quince paste');
    expect((await call(small.url, 'POST', `/api/agents/${agentId(0)}/tasks/${task.id}/answer`, { entry: 'alpha' }, danaAtSmall)).status).toBe(200);
    const metrics = await (await fetch(`${small.url}/metrics`)).text();
    expect(metrics).toMatch(/^learnables_console_sign_ins_total\{outcome="signed-in",service="console"\} 1$/m);
    expect(metrics).toMatch(/^learnables_console_sign_ins_total\{outcome="refused",service="console"\} 1$/m);
    expect(metrics).toMatch(/^learnables_console_answers_total\{outcome="sent",service="console"\} 1$/m);
    expect(metrics).toMatch(
      /^http_request_duration_seconds_count\{service="console",method="POST",route="\/api\/agents\/:agent\/tasks\/:task\/answer",status="200"\} 1$/m,
    );
    expect(metrics).toMatch(/^nodejs_eventloop_lag_seconds\{service="console"\} /m);
  });

  const agentId = (index: number) => new URL(stack.agents[index]!.url).host.replace(/[^a-z0-9]+/g, '-');
});
