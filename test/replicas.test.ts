import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase } from '@learnables/testing';
import { fixture } from './support/loop-stack.ts';
import type { Service } from './support/processes.ts';
import { freePort, startService } from './support/processes.ts';

const TOKEN = 'replica-test-token';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface RpcTask {
  id: string;
  contextId: string;
  status: { state: string; message?: { parts: { text?: string }[]; metadata?: Record<string, Record<string, unknown>> } };
}

async function rpc<T>(agent: string, method: string, params: unknown): Promise<T> {
  const response = await fetch(`${agent}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.result === undefined) throw new Error(`${method} on ${agent} failed: ${body.error?.message}`);
  return body.result;
}

const sendFile = async (agent: string, bytes: Buffer, mediaType: string, filename: string) =>
  (
    await rpc<{ task: RpcTask }>(agent, 'SendMessage', {
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw: bytes.toString('base64'), mediaType, filename }] },
    })
  ).task;

const teachBlockOf = (task: RpcTask) =>
  task.status.message?.metadata?.['https://rsaxb.com/a2a/learnables/v1'] as { suggested: Record<string, unknown>; entry?: string; version: number };

/**
 * The docker-compose topology without Docker: PostgreSQL, the authority, and two processes of each
 * agent sharing one database. A lesson taught through one replica is seen by the other.
 */
describe('two replicas of each agent on PostgreSQL', () => {
  let database: ScratchDatabase;
  const services: Service[] = [];
  let email: [string, string];
  let manifest: [string, string];

  beforeAll(async () => {
    database = await scratchPostgres('replicas');
    const authorityPort = await freePort();
    const authorityUrl = `http://127.0.0.1:${authorityPort}`;
    services.push(
      await startService(
        'authority-main.ts',
        { AUTHORITY_PORT: String(authorityPort), AUTHORITY_STORE: database.url, AUTHORITY_TOKENS: `agents=${TOKEN}` },
        authorityUrl,
      ),
    );
    const shared = { AUTHORITY_URL: authorityUrl, AUTHORITY_TOKEN: TOKEN, AGENT_TOKENS: `desk=${TOKEN}` };
    const start = async (entry: string, prefix: string) => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      return startService(entry, { ...shared, [`${prefix}_PORT`]: String(port), [`${prefix}_STORE`]: database.url }, url);
    };
    // Replicas start side by side, as they would under an orchestrator: migrations must not collide.
    const started = await Promise.all([
      start('email-agent-main.ts', 'EMAIL_AGENT'),
      start('email-agent-main.ts', 'EMAIL_AGENT'),
      start('manifest-agent-main.ts', 'MANIFEST_AGENT'),
      start('manifest-agent-main.ts', 'MANIFEST_AGENT'),
    ]);
    services.push(...started);
    email = [started[0]!.url, started[1]!.url];
    manifest = [started[2]!.url, started[3]!.url];
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await database?.drop();
  });

  it('an email taught through one replica is decided by the other; either replica can answer a task', async () => {
    const asked = await sendFile(email[0], fixture('email/northgate-billing-prealert.eml'), 'message/rfc822', 'a.eml');
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const taught = await rpc<{ changed: boolean; version: number }>(email[0], 'learnables/teach', {
      collection: 'customers',
      entry: 'northgate',
      value: teachBlockOf(asked).suggested,
      taughtBy: 'dana',
      reason: 'billing desk',
    });
    expect(taught).toMatchObject({ changed: true, version: 2 });

    const next = await sendFile(email[1], fixture('email/northgate-billing-statement-csv.eml'), 'message/rfc822', 'b.eml');
    expect(next.status.state).toBe('TASK_STATE_COMPLETED');
    expect(next.status.message?.metadata?.['https://rsaxb.com/a2a/learnables/v1']).toMatchObject({ versions: { customers: 2 } });

    // The first task lives in the shared store: the other replica answers it, on its pinned version.
    const answered = await rpc<{ task: RpcTask }>(email[1], 'SendMessage', {
      message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: asked.id, contextId: asked.contextId, parts: [{ data: { entry: 'northgate' } }] },
    });
    expect(answered.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(answered.task.status.message?.metadata?.['https://rsaxb.com/a2a/learnables/v1']).toMatchObject({ versions: { customers: 1 } });
  });

  it('a column taught through one manifest replica maps the next sheet on the other', async () => {
    const asked = await sendFile(manifest[1], fixture('manifests/08-air-waybill-no.xlsx'), XLSX, '08.xlsx');
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(teachBlockOf(asked)).toMatchObject({ entry: 'waybill', suggested: { column: 'Air Waybill No' } });
    await rpc(manifest[1], 'learnables/teach', {
      collection: 'mappings',
      entry: 'waybill',
      value: { column: 'Air Waybill No' },
      taughtBy: 'dana',
      reason: 'new forwarder',
    });
    const next = await sendFile(manifest[0], fixture('manifests/09-air-waybill-no-second.xlsx'), XLSX, '09.xlsx');
    expect(next.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
