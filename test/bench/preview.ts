/**
 * Preview over 5,000 recent email tasks with 10,000 marks, over real HTTP, beside a reread of one
 * task on the same agent: the time a clerk waits between "preview" and the answer. Goal: under 1 s.
 *
 * The 5,000 tasks are written into the agent's ledger and journal as the runtime itself writes them
 * (one real task sent first gives the owner's scope and the shape of a parse row), so the run takes
 * seconds rather than sending 5,000 messages.
 *
 *   node --import tsx test/bench/preview.ts
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { Authority, authorityService, openStore } from '@learnables/authority';
import { startLearnableAgent } from '@learnables/runtime';
import { scratchDir } from '@learnables/testing';
import { customerMarksKind, emailAgent } from '@learnables/email-agent';
import type { EmailInput } from '@learnables/email-agent';

const TASKS = 5_000;
const MARKS = 10_000;
const RUNS = 5;

const address = (i: number) => `buyer${i}@customer${i}.example`;
const reference = (i: number) => `CU-2026-${String(i).padStart(6, '0')}`;

const dir = scratchDir('bench-preview-');
const authority = new Authority({ store: await openStore(`sqlite:${dir.path}/authority.db`), kinds: [customerMarksKind] });
const seed: Record<string, unknown> = {};
for (let c = 0; c < MARKS / 2; c++) {
  seed[`customer-${c}`] = {
    name: `Customer ${c}`,
    marks: [
      { pattern: `<${address(c).replace(/\./g, '\\.')}>`, where: 'from' },
      { pattern: `\\b${reference(c)}\\b`, where: 'subject' },
    ],
  };
}
await authority.seed('customers', seed, 'the benchmark');
const authorityServer: Server = authorityService({ authority, tokens: { 'agent-token': 'agent' } }).listen(0, '127.0.0.1');
await new Promise((resolve) => authorityServer.once('listening', resolve));
const authorityUrl = `http://127.0.0.1:${(authorityServer.address() as AddressInfo).port}`;

const agent = await startLearnableAgent(emailAgent, {
  store: `sqlite:${dir.path}/agent.db`,
  authority: { url: authorityUrl, token: 'agent-token' },
  users: { 'console-token': 'console' },
  log: () => undefined,
});

const rpc = async (method: string, params: unknown) => {
  const response = await fetch(`${agent.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.result;
};

const messageOf = (i: number) => ({
  messageId: randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text: `From: Someone <${address(i)}>\r\nSubject: Pre-alert ${reference(i + 1)}\r\n\r\nPlease book in the pallets below.\r\n` }],
});

// One real task: its ledger row gives the owner's scope, its parse row the input's shape.
await rpc('SendMessage', { message: messageOf(0) });
const db = agent.database.db;
const first = await db.selectFrom('learnables_tasks').select(['task_id', 'tenant', 'owner']).executeTakeFirstOrThrow();
const parsed = await db.selectFrom('learnables_journal').select('result').where('task_id', '=', first.task_id).where('step', '=', 'parse').executeTakeFirstOrThrow();
const template = JSON.parse(parsed.result) as EmailInput;

// Half from known senders (decided), a quarter by a known reference, the rest strangers (asked).
const now = Date.now();
for (let start = 1; start < TASKS; start += 500) {
  const ids = Array.from({ length: Math.min(500, TASKS - start) }, () => randomUUID());
  await db
    .insertInto('learnables_tasks')
    .values(ids.map((task_id, i) => ({ task_id, agent: emailAgent.skill.id, tenant: first.tenant, owner: first.owner, message_at: now, asked: 0, state: 'done', created_at: now - (start + i) * 1000 })))
    .execute();
  await db
    .insertInto('learnables_journal')
    .values(
      ids.map((task_id, i) => {
        const n = start + i;
        const customer = n % (MARKS / 2);
        const input: EmailInput = {
          ...template,
          from: { address: n % 4 < 2 ? address(customer) : `someone${n}@elsewhere.example`, name: 'Someone' },
          subject: `Pre-alert ${reference(n % 4 === 2 ? customer : MARKS + n)}`,
        };
        return { task_id, step: 'parse', result: JSON.stringify(input), at: now };
      }),
    )
    .execute();
}

const lesson = { collection: 'customers', entry: 'customer-1', value: { pattern: 'customer7\\d*\\.example', where: 'from' }, taughtBy: 'bench', reason: 'bench' };
const time = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
};

// Warm both paths once (definition fetch, RE2 set compile of the live version).
await rpc('learnables/reread', { message: messageOf(3) });
const warm = (await rpc('learnables/preview', { lesson })) as { examined: number; counts: Record<string, number> };
if (warm.examined !== TASKS) throw new Error(`preview examined ${warm.examined} tasks, not ${TASKS}`);

const previews: number[] = [];
const rereads: number[] = [];
for (let run = 0; run < RUNS; run++) {
  rereads.push((await time(() => rpc('learnables/reread', { message: messageOf(run + 5) }))).ms);
  previews.push((await time(() => rpc('learnables/preview', { lesson }))).ms);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const preview = median(previews);
const reread = median(rereads);

console.log(`\n${TASKS.toLocaleString('en')} recent tasks, ${MARKS.toLocaleString('en')} marks, SQLite, over HTTP; median of ${RUNS} runs after one warm-up.\n`);
console.log('| method | time | vs reread of one task |');
console.log('|---|---:|---:|');
console.log(`| reread of one task | ${reread.toFixed(1)} ms | 1.0× |`);
console.log(`| preview of one lesson | ${preview.toFixed(0)} ms | ${(preview / reread).toFixed(0)}× |`);
console.log(`\nPreview counts: ${JSON.stringify(warm.counts)}. Goal: preview under 1 s — ${preview < 1000 ? 'met' : 'NOT met'}.`);

await agent.close();
authorityServer.closeAllConnections();
await new Promise((resolve) => authorityServer.close(resolve));
await authority.close();
dir.remove();
