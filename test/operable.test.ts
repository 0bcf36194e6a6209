import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { scratchDir, scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase, ScratchDir } from '@learnables/testing';
import { fixture } from './support/loop-stack.ts';
import type { Service } from './support/processes.ts';
import { freePort, startService } from './support/processes.ts';

// Issue 37, as an operator sees a running stack: JSON lines, an access line per request with its
// id, readiness that follows the authority, and per-instance counters that replicas sum.

const TOKEN = 'operable-test-token';
const URI = 'https://rsaxb.com/a2a/learnables/v1';

interface RpcTask {
  id: string;
  contextId: string;
  status: { state: string; message?: { parts: { text?: string }[]; metadata?: Record<string, Record<string, unknown>> } };
}

async function send(agent: string, file: string, requestId?: string): Promise<{ task: RpcTask; requestId: string | null }> {
  const response = await fetch(`${agent}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${TOKEN}`, ...(requestId && { 'x-request-id': requestId }) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: randomUUID(),
      method: 'SendMessage',
      params: {
        message: {
          messageId: randomUUID(),
          role: 'ROLE_USER',
          parts: [{ raw: fixture(file).toString('base64'), mediaType: 'message/rfc822', filename: 'm.eml' }],
        },
      },
    }),
  });
  const body = (await response.json()) as { result?: { task: RpcTask }; error?: { message: string } };
  if (body.result === undefined) throw new Error(`SendMessage failed: ${body.error?.message}`);
  return { task: body.result.task, requestId: response.headers.get('x-request-id') };
}

/** Every line a service wrote, each parsed as the JSON object it must be. */
function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`A line that is not JSON: ${line}`);
      }
    });
}

/** The first line of a service's stdout that `wanted` picks, waiting for it a while (a line is written as its response finishes, after the caller may have read it). */
async function lineOf(service: Service, wanted: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown> | undefined> {
  const until = Date.now() + 10_000;
  for (;;) {
    const found = jsonLines(service.stdout()).find(wanted);
    if (found !== undefined || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Ask until `ready(answer)` holds (a cached readiness answer lasts two seconds), at most a minute. */
async function readyzUntil(
  url: string,
  ready: (status: number) => boolean,
): Promise<{ status: number; body: { ok: boolean; message?: string; checks: { name: string; ok: boolean; message?: string }[] } }> {
  const until = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${url}/readyz`);
    const answer = { status: response.status, body: (await response.json()) as never };
    if (ready(answer.status) || Date.now() > until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** One sample's value from the Prometheus text format: the series named, with every label given. */
function sample(metrics: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of metrics.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = new Map([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([key, value]) => have.get(key) === value)) return Number(match[3]);
  }
  return undefined;
}

const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text();

describe('an agent whose authority goes away, as its operator sees it', () => {
  let dir: ScratchDir;
  let authority: Service | undefined;
  let agent: Service;
  let authorityPort: number;
  const authorityEnv = () => ({
    AUTHORITY_PORT: String(authorityPort),
    AUTHORITY_STORE: `sqlite:${dir.path}/authority.db`,
    AUTHORITY_TOKENS: `agents=${TOKEN}`,
    LOG_LEVEL: 'info',
  });

  beforeAll(async () => {
    dir = scratchDir('operable-');
    authorityPort = await freePort();
    const authorityUrl = `http://127.0.0.1:${authorityPort}`;
    authority = await startService('authority-main.ts', authorityEnv(), authorityUrl);
    const port = await freePort();
    agent = await startService(
      'email-agent-main.ts',
      {
        AUTHORITY_URL: authorityUrl,
        AUTHORITY_TOKEN: TOKEN,
        AGENT_TOKENS: `desk=${TOKEN}`,
        EMAIL_AGENT_PORT: String(port),
        EMAIL_AGENT_STORE: `sqlite:${dir.path}/agent.db`,
        LOG_LEVEL: 'info',
      },
      `http://127.0.0.1:${port}`,
    );
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await authority?.stop();
    dir?.remove();
  });

  it('is ready, logs each request with the id it was sent, and each task with its pinned version', async () => {
    const ready = await readyzUntil(agent.url, (status) => status === 200);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ ok: true });
    expect(ready.body.checks.map((check) => check.name)).toEqual(['store', 'authority', 'parse-threads']);

    const { task, requestId } = await send(agent.url, 'email/northgate-billing-prealert.eml', 'operator-trace-1');
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(requestId).toBe('operator-trace-1');

    expect(await lineOf(agent, (line) => line.reqId === 'operator-trace-1' && line.msg === 'request')).toMatchObject({
      level: 30,
      method: 'POST',
      path: '/a2a/jsonrpc',
      status: 200,
      ms: expect.any(Number),
    });
    expect(await lineOf(agent, (line) => line.taskId === task.id && line.outcome === 'asked')).toMatchObject({
      contextId: task.contextId,
      collection: 'customers',
      version: 1,
      pins: { customers: 1 },
    });

    // A request without an id is given one, and told it.
    const made = (await fetch(`${agent.url}/.well-known/agent-card.json`)).headers.get('x-request-id');
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('with the authority killed: its messages fail, /readyz says why in a sentence, and every line is JSON with the error as fields', async () => {
    authority!.child.kill('SIGKILL');
    await new Promise((resolve) => authority!.child.once('exit', resolve));
    authority = undefined;

    const { task } = await send(agent.url, 'email/northgate-billing-statement-csv.eml');
    expect(task.status.state).toBe('TASK_STATE_FAILED');

    const down = await readyzUntil(agent.url, (status) => status === 503);
    expect(down.status).toBe(503);
    expect(down.body.ok).toBe(false);
    expect(down.body.message).toMatch(
      /^The Email intake agent is not ready: the authority at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\), so this agent cannot tell which rules are in force/,
    );
    expect(down.body.checks).toEqual([
      { name: 'store', ok: true },
      { name: 'authority', ok: false, message: expect.stringContaining('cannot be reached') },
      { name: 'parse-threads', ok: true },
    ]);
    // Liveness is not readiness: the process still answers.
    expect((await fetch(`${agent.url}/healthz`)).status).toBe(200);

    // Everything it wrote, on both streams, is JSON with a level; the failure carries its task and its error as fields.
    const lines = [...jsonLines(agent.stdout()), ...jsonLines(agent.stderr())];
    expect(lines.every((line) => typeof line.level === 'number' && typeof line.time === 'number' && line.service === 'Email intake agent')).toBe(true);
    const failed = await lineOf(agent, (line) => line.taskId === task.id && line.outcome === 'failed');
    expect(failed).toMatchObject({
      level: 50,
      cause: 'authority-unavailable',
      contextId: task.contextId,
      err: { type: expect.any(String), message: expect.any(String) },
    });
    // No stack trace printed as lines of its own ("    at …"): a stack lives inside its line's err.stack.
    expect(`${agent.stdout()}${agent.stderr()}`).not.toMatch(/^\s+at /m);

    const metrics = await scrape(agent.url);
    expect(sample(metrics, 'learnables_tasks_failed_total', { cause: 'authority-unavailable' })).toBe(1);
  }, 90_000);

  it('recovers once the authority is back', async () => {
    authority = await startService('authority-main.ts', authorityEnv(), `http://127.0.0.1:${authorityPort}`);
    const back = await readyzUntil(agent.url, (status) => status === 200);
    expect(back.status).toBe(200);
    expect(back.body.checks.every((check) => check.ok)).toBe(true);
    const { task } = await send(agent.url, 'email/northgate-billing-prealert.eml');
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    // The authority is ready too, and logs as JSON.
    expect((await fetch(`${authority.url}/readyz`)).status).toBe(200);
    expect(jsonLines(authority.stdout()).find((line) => String(line.msg).startsWith('authority listening'))).toMatchObject({
      level: 30,
      service: 'authority',
      engine: 'sqlite',
    });
  }, 90_000);
});

describe('two replicas of one agent on one PostgreSQL: per-instance counters', () => {
  let database: ScratchDatabase;
  const services: Service[] = [];
  let authority: Service;
  let replicas: [Service, Service];

  beforeAll(async () => {
    database = await scratchPostgres('operable');
    const authorityPort = await freePort();
    const authorityUrl = `http://127.0.0.1:${authorityPort}`;
    authority = await startService(
      'authority-main.ts',
      { AUTHORITY_PORT: String(authorityPort), AUTHORITY_STORE: database.url, AUTHORITY_TOKENS: `agents=${TOKEN}` },
      authorityUrl,
    );
    services.push(authority);
    const start = async () => {
      const port = await freePort();
      return startService(
        'email-agent-main.ts',
        { AUTHORITY_URL: authorityUrl, AUTHORITY_TOKEN: TOKEN, AGENT_TOKENS: `desk=${TOKEN}`, EMAIL_AGENT_PORT: String(port), EMAIL_AGENT_STORE: database.url },
        `http://127.0.0.1:${port}`,
      );
    };
    replicas = [await start(), await start()];
    services.push(...replicas);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await database?.drop();
  });

  it("each counts its own messages: their sum is the messages sent (the shared database's total was each one's before)", async () => {
    const [a, b] = replicas;
    const sent = [a, a, a, b, b];
    const tasks = [];
    for (const replica of sent) tasks.push((await send(replica.url, 'email/northgate-billing-prealert.eml')).task);
    expect(tasks.every((task) => task.status.state === 'TASK_STATE_INPUT_REQUIRED')).toBe(true);

    const [first, second] = await Promise.all([scrape(a.url), scrape(b.url)]);
    const messages = [sample(first, 'learnables_messages_total'), sample(second, 'learnables_messages_total')];
    expect(messages).toEqual([3, 2]);
    expect(messages[0]! + messages[1]!).toBe(sent.length);
    expect(sample(first, 'learnables_questions_total', { collection: 'customers', agent: 'identify-customer' })).toBe(3);
    expect(sample(second, 'learnables_questions_total', { collection: 'customers' })).toBe(2);
    // A histogram of each decision's time, and Node's own metrics, on each.
    expect(sample(first, 'learnables_decision_duration_seconds_count', { outcome: 'asked' })).toBe(3);
    expect(sample(first, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(first, 'http_request_duration_seconds_count', { method: 'POST', route: '/a2a/jsonrpc', status: '200' })).toBe(3);

    // An answer through the other replica: decided by the operator, counted where it was answered.
    const asked = tasks[0]!;
    const answer = await fetch(`${b.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: asked.id, contextId: asked.contextId, parts: [{ data: { entry: 'northgate' } }] },
        },
      }),
    });
    expect(((await answer.json()) as { result: { task: RpcTask } }).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const after = await scrape(b.url);
    expect(sample(after, 'learnables_answers_total')).toBe(1);
    expect(sample(after, 'learnables_decisions_total', { decided_by: 'operator' })).toBe(1);
    expect(sample(after, 'learnables_messages_total')).toBe(2);

    // A lesson through a replica is counted by the authority that absorbed it.
    const teach = (await (
      await fetch(`${a.url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'learnables/teach',
          params: {
            collection: 'customers',
            entry: 'northgate',
            value: (tasks[1]!.status.message!.metadata![URI] as { suggested: unknown }).suggested,
            taughtBy: 'dana',
            reason: 'billing desk',
          },
        }),
      })
    ).json()) as { result?: { changed: boolean } };
    expect(teach.result).toMatchObject({ changed: true });
    const authorityMetrics = await scrape(authority.url);
    expect(sample(authorityMetrics, 'learnables_lessons_total', { collection: 'customers', changed: 'true', service: 'authority' })).toBe(1);
    expect(sample(authorityMetrics, 'learnables_activations_total', { collection: 'customers', kind: 'lesson' })).toBe(1);
    expect(sample(authorityMetrics, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  }, 120_000);
});
