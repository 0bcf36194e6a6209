import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { Client } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { scratchDir, scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase } from '@learnables/testing';
import { sdkClient, startAuthority, userText } from '../harness.test-support.ts';
import type { RunningAgent } from '../start-agent.ts';
import { startLearnableAgent } from '../start-agent.ts';
import { wordAgent } from '../word-agent.test-support.ts';
import { silentLogger } from '@learnables/authority';

// On PostgreSQL a task's opening waits for the disk only when someone can hear of the task before
// it rests (a stream, an answer at once); a plain send is answered when the task rests, whose save
// waits for the disk and so makes the opening durable with it, and the SDK's row for its task is
// written then, once (its opening is the ledger's row alone). A trigger records, for each opening
// and rest, whether its session turned `synchronous_commit` off itself (`off`: the agent's steps
// pool) or kept the server's (`server`: waits for the disk on a server that does, as a deployed one
// does; the embedded server a fresh machine's test run falls back to waits for none). The real
// agent, over HTTP, with the SDK's own clients (1.x on JSON-RPC and REST, 0.3) and raw v0.3 requests.
describe('a task opening on PostgreSQL', () => {
  let database: ScratchDatabase;
  let authority: Awaited<ReturnType<typeof startAuthority>>;
  let agent: RunningAgent;

  beforeAll(async () => {
    database = await scratchPostgres('opening');
    authority = await startAuthority();
    agent = await startLearnableAgent(wordAgent, { store: database.url, authority: { url: authority.url, token: 'agent-token' }, logger: silentLogger() });
    const { db } = agent.database;
    await sql`create table opening_commits (seq serial, task_id text, what text, synchronous_commit text)`.execute(db);
    await sql`create function record_opening() returns trigger language plpgsql as $$
      begin
        insert into opening_commits (task_id, what, synchronous_commit)
          select new.task_id, case when tg_op = 'INSERT' then 'open' else new.state end,
                 case when source = 'client' and setting = 'off' then 'off' else 'server' end
          from pg_settings where name = 'synchronous_commit';
        return new;
      end $$`.execute(db);
    await sql`create trigger record_opening after insert or update on learnables_tasks for each row execute function record_opening()`.execute(db);
    // And each write of the SDK's task row: a plain send's is written once, at rest (TaskWrites.open).
    await sql`create function record_task_row() returns trigger language plpgsql as $$
      begin
        insert into opening_commits (task_id, what, synchronous_commit)
          select new.id, 'task-' || lower(tg_op),
                 case when source = 'client' and setting = 'off' then 'off' else 'server' end
          from pg_settings where name = 'synchronous_commit';
        return new;
      end $$`.execute(db);
    await sql`create trigger record_task_row after insert or update on tasks for each row execute function record_task_row()`.execute(db);
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await authority?.close();
    authority?.dir.remove();
    await database?.drop();
  });

  const commitsOf = async (taskId: string) =>
    (
      await sql<{
        what: string;
        synchronous_commit: string;
      }>`select what, synchronous_commit from opening_commits where task_id = ${taskId} and what not like 'task-%' order by what = 'open' desc`.execute(
        agent.database.db,
      )
    ).rows.map((row) => `${row.what}:${row.synchronous_commit}`);
  /** The writes of the task's row in the SDK's table, in order. */
  const taskRowWrites = async (taskId: string) =>
    (
      await sql<{
        what: string;
        synchronous_commit: string;
      }>`select what, synchronous_commit from opening_commits where task_id = ${taskId} and what like 'task-%' order by seq`.execute(agent.database.db)
    ).rows.map((row) => `${row.what}:${row.synchronous_commit}`);
  const restedOf = async (client: Client, id: string): Promise<Task> => {
    for (;;) {
      const task = await client.getTask({ tenant: '', id, historyLength: 0 });
      if (task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) return task;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const v03Send = async (url: string, text: string, configuration?: Record<string, unknown>) => {
    const response = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'message/send',
        params: {
          message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
          ...(configuration && { configuration }),
        },
      }),
    });
    const { result } = (await response.json()) as { result: { id: string; status: { state: string } } };
    return { id: result.id, state: result.status.state };
  };

  it('does not wait for the disk for a plain send (answered at rest, JSON-RPC, REST or v0.3 blocking), and the rest does', async () => {
    for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
      const { client } = await sdkClient(agent.url, { transport });
      const task = (await client.sendMessage(userText('mango'))) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(await commitsOf(task.id)).toEqual(['open:off', 'asking:server']);
      // Nobody could ask for the task before it rested: its row is written once, with the rest.
      expect(await taskRowWrites(task.id)).toEqual(['task-insert:server']);
    }
    // The SDK's 0.3 client asks to be answered when the task rests (blocking: true).
    const card = (await (await fetch(`${agent.url}/.well-known/agent-card.json`)).json()) as { url: string };
    const legacy = new Client(new LegacyJsonRpcTransport({ endpoint: card.url }), agent.card);
    const task = (await legacy.sendMessage(userText('papaya'))) as Task;
    expect(await commitsOf(task.id)).toEqual(['open:off', 'asking:server']);
    // On the v0.3 wire with no configuration the SDK answers when the task rests, too.
    const raw = await v03Send(agent.url, 'durian');
    expect(raw.state).toBe('input-required');
    expect(await commitsOf(raw.id)).toEqual(['open:off', 'asking:server']);
    expect(await taskRowWrites(raw.id)).toEqual(['task-insert:server']);
  });

  it('waits for the disk when the client hears of the task before it rests: a stream, an answer at once, a v0.3 send with blocking false', async () => {
    const { client } = await sdkClient(agent.url);
    // A stream: the task is the first thing the client hears.
    let streamed: string | undefined;
    for await (const event of client.sendMessageStream(userText('guava'))) {
      if (event.payload?.$case === 'task') streamed ??= event.payload.value.id;
    }
    expect(await commitsOf(streamed!)).toEqual(['open:server', 'asking:server']);
    // The client can ask for the task from its first event on: its row is there from the opening.
    expect(await taskRowWrites(streamed!)).toEqual(['task-insert:server', 'task-update:server']);

    // Answered at once (A2A 1.0 `returnImmediately`): the client holds the id before the task rests.
    const early = SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'quince' }] },
      configuration: { returnImmediately: true },
    });
    const answered = (await client.sendMessage(early)) as Task;
    await restedOf(client, answered.id);
    expect(await commitsOf(answered.id)).toEqual(['open:server', 'asking:server']);

    // v0.3 on the wire with `blocking: false`: answered at once, so the opening waits.
    const { id } = await v03Send(agent.url, 'durian', { blocking: false });
    await restedOf(client, id);
    expect(await commitsOf(id)).toEqual(['open:server', 'asking:server']);
    expect(await taskRowWrites(id)).toEqual(['task-insert:server', 'task-update:server']);
  });
});
