// docker-compose.yml's scale-out topology without Docker: Debian's haproxy, configured by the same
// template as the committed haproxy.cfg (stack/src/balancer.ts), in front of two email-agent
// processes sharing one PostgreSQL database. The loop runs through the balancer's one URL with the
// SDK's own client; one replica is SIGKILLed mid-run; every task still completes, and the question
// that replica asked is answered through the other.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Task } from '@a2a-js/sdk';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { LEARNABLES_URI } from '@learnables/protocol';
import { haproxyPath, scratchDir, scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase, ScratchDir } from '@learnables/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyConfig } from '../stack/src/balancer.ts';
import { answer, fixture, reread, said, sdkClient, sendFile } from './support/loop-stack.ts';
import type { Service } from './support/processes.ts';
import { freePort, startService } from './support/processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'console-token';

/** `haproxy <args>`: its exit code and everything it printed. */
function haproxy(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile(haproxyPath(), args, { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
}

describe('haproxy.cfg (the balancer docker-compose.yml runs)', () => {
  it('is valid to HAProxy (haproxy -c)', async () => {
    const checked = await haproxy(['-c', '-f', join(root, 'haproxy.cfg')]);
    expect(checked.output).toMatch(/Configuration file is valid/);
    expect(checked.code).toBe(0);
  });

  it('and the check can fail: a broken copy is refused', async () => {
    const dir = scratchDir('haproxy-');
    const broken = join(dir.path, 'broken.cfg');
    writeFileSync(broken, readFileSync(join(root, 'haproxy.cfg'), 'utf8').replace('balance leastconn', 'balance fewestcats'));
    const checked = await haproxy(['-c', '-f', broken]);
    dir.remove();
    expect(checked.code).not.toBe(0);
    expect(checked.output).toMatch(/balance only supports/);
  });
});

interface ServerRow {
  readonly status: string;
  /** Connections retried, and requests sent to another server after a failure (HAProxy's wretr, wredis). */
  readonly retries: number;
  readonly redispatches: number;
}

/** The balancer's statistics (`/stats;csv`), by `backend/server`. */
async function stats(url: string): Promise<Map<string, ServerRow>> {
  const [header, ...rows] = (await (await fetch(`${url}/stats;csv`)).text()).trim().split('\n');
  const columns = header!.replace(/^# /, '').split(',');
  const at = (row: string[], name: string) => row[columns.indexOf(name)] ?? '';
  return new Map(
    rows.map((line) => {
      const row = line.split(',');
      return [
        `${at(row, 'pxname')}/${at(row, 'svname')}`,
        { status: at(row, 'status'), retries: Number(at(row, 'wretr')), redispatches: Number(at(row, 'wredis')) },
      ];
    }),
  );
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${seconds} s.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function rpc<T>(url: string, method: string, params: unknown): Promise<T> {
  const response = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${TOKEN}`, 'A2A-Extensions': LEARNABLES_URI },
    body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.result === undefined) throw new Error(`${method} through the balancer failed: ${body.error?.message}`);
  return body.result;
}

/** Every task this caller owns, through the balancer (ListTasks, all states). */
async function everyTask(client: Client): Promise<Task[]> {
  const tasks: Task[] = [];
  let pageToken = '';
  do {
    const page = await client.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 100,
      pageToken,
      historyLength: 0,
      statusTimestampAfter: undefined,
    });
    tasks.push(...page.tasks);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return tasks;
}

const outcomeOf = (task: Task) => said(task).extension as { versions?: Record<string, number>; decidedBy?: string } | undefined;

describe('two email-agent replicas on PostgreSQL behind HAProxy', () => {
  let database: ScratchDatabase;
  let dir: ScratchDir;
  let balancer: ChildProcess;
  let balancerOutput = '';
  const services: Service[] = [];
  let authorityUrl: string;
  let ports: [number, number];
  let url: string;
  let statsUrl: string;

  const startReplica = async (index: 0 | 1) => {
    const service = await startService(
      'email-agent-main.ts',
      {
        AUTHORITY_URL: authorityUrl,
        AUTHORITY_TOKEN: TOKEN,
        AGENT_TOKENS: `console=${TOKEN}`,
        AGENTS_ALLOW_ANONYMOUS: 'false',
        EMAIL_AGENT_PORT: String(ports[index]),
        EMAIL_AGENT_STORE: database.url,
        // What compose sets: the card names the balancer, not the replica.
        EMAIL_AGENT_PUBLIC_URL: url,
        // And the name the balancer's health check asks for (compose: the service's own name).
        EMAIL_AGENT_HOSTS: 'email-agent',
      },
      `http://127.0.0.1:${ports[index]}`,
    );
    services.push(service);
    return service;
  };
  const serverStatus = async (replica: string, wanted: string) => ((await stats(statsUrl)).get(`email-agent/${replica}`)?.status === wanted ? true : undefined);

  beforeAll(async () => {
    const program = haproxyPath();
    database = await scratchPostgres('balancer');
    dir = scratchDir('balancer-');
    const authorityPort = await freePort();
    authorityUrl = `http://127.0.0.1:${authorityPort}`;
    services.push(
      await startService(
        'authority-main.ts',
        { AUTHORITY_PORT: String(authorityPort), AUTHORITY_STORE: database.url, AUTHORITY_TOKENS: `agents=${TOKEN}` },
        authorityUrl,
      ),
    );
    ports = [await freePort(), await freePort()];
    const [balancerPort, statsPort] = [await freePort(), await freePort()];
    url = `http://127.0.0.1:${balancerPort}`;
    statsUrl = `http://127.0.0.1:${statsPort}`;
    // The compose file's template with this machine's addresses.
    const config = join(dir.path, 'haproxy.cfg');
    writeFileSync(
      config,
      haproxyConfig({
        agents: [
          {
            name: 'email-agent',
            bind: `127.0.0.1:${balancerPort}`,
            servers: ports.map((port, i) => ({ name: `email-agent-${i + 1}`, address: `127.0.0.1:${port}` })),
          },
        ],
        stats: `127.0.0.1:${statsPort}`,
      }),
    );
    balancer = spawn(program, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    balancer.stdout!.on('data', (chunk: Buffer) => (balancerOutput += chunk.toString()));
    balancer.stderr!.on('data', (chunk: Buffer) => (balancerOutput += chunk.toString()));
    await until('HAProxy answering its statistics page', async () => {
      if (balancer.exitCode !== null) throw new Error(`haproxy exited with ${balancer.exitCode}:\n${balancerOutput}`);
      return (await fetch(`${statsUrl}/stats;csv`)).ok || undefined;
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${balancerOutput}`);
    });
  }, 120_000);

  afterAll(async () => {
    balancer?.kill('SIGTERM');
    await Promise.all(services.map((service) => service.stop()));
    await database?.drop();
    dir?.remove();
  });

  it('runs the loop through one URL; a replica SIGKILLed mid-run loses no task, and its question is answered through the other', async () => {
    // Replica 1 alone: the question is asked there.
    const first = await startReplica(0);
    await until('replica 1 in rotation', () => serverStatus('email-agent-1', 'UP'));
    await until('replica 2 (not started) out of rotation', () => serverStatus('email-agent-2', 'DOWN'));
    const client = await sdkClient(url, TOKEN);
    const card = (await (await fetch(`${url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as {
      supportedInterfaces: { url: string }[];
    };
    // The card, fetched through the balancer, sends clients back to the balancer.
    expect(card.supportedInterfaces.length).toBeGreaterThan(0);
    for (const face of card.supportedInterfaces) expect(face.url.startsWith(`${url}/`)).toBe(true);

    const question = await sendFile(client, fixture('email/northgate-billing-prealert.eml'), 'message/rfc822', 'prealert.eml');
    expect(question.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    // Replica 2 joins; HAProxy's health check brings it into rotation.
    await startReplica(1);
    await until('replica 2 in rotation', () => serverStatus('email-agent-2', 'UP'));

    // Teach through the one URL (the lesson the question suggested), then a run of messages it decides.
    const block = said(question).extension as { suggested: Record<string, unknown> };
    const taught = await rpc<{ changed: boolean; version: number }>(url, 'learnables/teach', {
      collection: 'customers',
      entry: 'northgate',
      value: block.suggested,
      taughtBy: 'dana',
      reason: 'billing desk',
    });
    expect(taught).toMatchObject({ changed: true, version: 2 });

    const files = [
      'northgate-billing-statement-csv.eml',
      'northgate-billing-storage-invoice-html.eml',
      'northgate-ngm-2026-1187-booking.eml',
      'northgate-parry-pallet-query.eml',
    ];
    const total = 32;
    const killAfter = 10;
    const done: Task[] = [];
    const failures: string[] = [];
    const resent: string[] = [];
    let next = 0;
    let inFlightAtKill = -1;
    // A client as a careful one is written: when a request gets no answer from an agent — a 502 or
    // 503 from the balancer, or the connection closed with nothing said (HAProxy's way when the
    // replica died on a reused connection, so the client may retry) — it is sent again, with the
    // same message id. Any other error is a failure.
    const noAnswer = (error: Error) =>
      /\b50[23]\b/.test(error.message) || ['UND_ERR_SOCKET', 'ECONNRESET'].includes((error.cause as { code?: string } | undefined)?.code ?? '');
    const send = async (n: number) => {
      const message = {
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ raw: fixture(`email/${files[n % files.length]}`).toString('base64'), mediaType: 'message/rfc822', filename: `${n}.eml` }],
      };
      for (let attempt = 1; ; attempt++) {
        try {
          return (await client.sendMessage(SendMessageRequest.fromJSON({ message }))) as Task;
        } catch (error) {
          if (attempt === 3 || !noAnswer(error as Error)) throw error;
          resent.push(`message ${n}: ${(error as Error).message.split('\n')[0]} (${String((error as Error).cause ?? 'no cause')})`);
        }
      }
    };
    const worker = async () => {
      while (next < total) {
        const n = next++;
        try {
          done.push(await send(n));
        } catch (error) {
          failures.push(`message ${n}: ${(error as Error).message} ${String((error as Error).cause ?? '')}`);
        }
        if (done.length + failures.length === killAfter && inFlightAtKill < 0) {
          inFlightAtKill = next - killAfter;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(first.child.signalCode ?? (await new Promise((resolve) => first.child.once('exit', (_code, signal) => resolve(signal))))).toBe('SIGKILL');
    if (failures.length) console.log(balancerOutput.slice(-6000));
    expect(failures).toEqual([]);
    expect(done).toHaveLength(total);
    for (const task of done) {
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(outcomeOf(task)).toMatchObject({ versions: { customers: 2 }, decidedBy: 'rules' });
    }

    // HAProxy saw replica 1 go, and moved what was sent to it.
    await until('replica 1 out of rotation', () => serverStatus('email-agent-1', 'DOWN'));
    const after = await stats(statsUrl);
    const moved = after.get('email-agent/BACKEND')!;
    console.log(
      `[balancer] ${total} messages, replica 1 SIGKILLed after ${killAfter} with ${inFlightAtKill} in flight; sent again by the client: ${resent.length}; HAProxy's retries ${moved.retries}, redispatches ${moved.redispatches}\n${resent.join('\n')}`,
    );
    // What was sent to replica 1 after it died was moved to replica 2 by the balancer, not the client.
    expect(moved.redispatches).toBeGreaterThan(0);

    // The question replica 1 asked is answered through the one URL: only replica 2 is left to answer it.
    const answered = await answer(client, question, 'northgate');
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(outcomeOf(answered)).toMatchObject({ versions: { customers: 1 }, decidedBy: 'operator' });
    expect(await reread(url, question.id)).toMatchObject({ customer: { settled: true, winner: 'northgate', version: 2 } });

    // A task replica 1 had started when it died (its message sent again by the client) is finished
    // when replica 1 comes back, as compose restarts it: no task is left working.
    // (Its health check answers before it has finished resuming, so wait for that, not for /healthz.)
    await startReplica(0);
    const unfinished = async () => (await everyTask(client)).filter((task) => task.status?.state !== TaskState.TASK_STATE_COMPLETED);
    await until('every task completed', async () => ((await unfinished()).length === 0 ? true : undefined)).catch(async () => {
      expect((await unfinished()).map((task) => `${task.id}: ${task.status?.state}`)).toEqual([]);
    });
    const tasks = await everyTask(client);
    expect(tasks.length).toBeGreaterThanOrEqual(total + 1);
    console.log(
      `[balancer] after replica 1 restarted: ${tasks.length} tasks, all completed (${tasks.length - total - 1} of them started by replica 1 before it died, for messages the client sent again)`,
    );
  }, 180_000);
});
