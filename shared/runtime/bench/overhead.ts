// Benchmark: round-trip throughput of a trivial agent on this runtime versus a bare SDK agent doing
// the same trivial work on the same kind of task store (SQLite), in one run.
// Run: pnpm --filter @learnables/runtime bench
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import express from 'express';
import { AGENT_CARD_PATH, TaskState } from '@a2a-js/sdk';
import type { AgentCard } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { AgentEvent, DefaultRequestHandler } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { scratchDir } from '@learnables/testing';
import { startAuthority } from '../src/harness.test-support.ts';
import { openRuntimeDatabase } from '../src/storage/open-database.ts';
import { agentCardFor } from '../src/a2a/agent-card.ts';
import { agentMessage, textPart } from '../src/a2a/parts.ts';
import { startLearnableAgent } from '../src/start-agent.ts';
import { wordAgent } from '../src/word-agent.test-support.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 600);
const CONCURRENCY = 4;

/** The same work as the word agent's settled path, with nothing learnable around it. */
class BareExecutor implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    const now = () => new Date().toISOString();
    bus.publish(AgentEvent.task({ id: taskId, contextId, artifacts: [], history: [userMessage], metadata: {}, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() } }));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, metadata: undefined, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() } }));
    const text = userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join(' ');
    const found = text.split(/\s+/).includes('banana') ? 'beta' : 'none';
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, metadata: undefined, status: { state: TaskState.TASK_STATE_COMPLETED, message: agentMessage(taskId, contextId, [textPart(`Belongs to ${found}`)]), timestamp: now() } }));
    bus.finished();
  }
  async cancelTask(): Promise<void> {}
}

async function startBare(store: string): Promise<{ url: string; close: () => Promise<void> }> {
  const database = await openRuntimeDatabase(store);
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = agentCardFor(wordAgent, url);
  const requestHandler = new DefaultRequestHandler(card, new DatabaseTaskStore(database.db as never), new BareExecutor());
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return { url, close: async () => { server.closeAllConnections(); server.close(); await database.close(); } };
}

async function throughput(url: string): Promise<{ perSecond: number; p50: number; p99: number }> {
  const send = async () => {
    const started = performance.now();
    const response = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'banana bread' }] } } }),
    });
    const body = (await response.json()) as { result?: { task?: { status?: { state?: string } } } };
    if (body.result?.task?.status?.state !== 'TASK_STATE_COMPLETED') throw new Error(`unexpected answer: ${JSON.stringify(body)}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 30; i += 1) await send();
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < MESSAGES) {
        next += 1;
        latencies.push(await send());
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]! * 100) / 100;
  return { perSecond: Math.round(MESSAGES / seconds), p50: at(50), p99: at(99) };
}

const dir = scratchDir('bench-runtime-');
const authority = await startAuthority();
const runtime = await startLearnableAgent(wordAgent, { store: `sqlite:${dir.path}/runtime.db`, authority: { url: authority.url }, log: () => undefined });
const bare = await startBare(`sqlite:${dir.path}/bare.db`);
// Interleaved rounds, so neither side always runs on a warmer or quieter machine; each round's
// ratio is taken in it, and the median of the ratios is the figure (this machine is shared).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const load = () => loadavg().map((n) => n.toFixed(1)).join(', ');
const rounds: { bare: Awaited<ReturnType<typeof throughput>>; runtime: Awaited<ReturnType<typeof throughput>>; load: string }[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const before = load();
  rounds.push({ bare: await throughput(bare.url), runtime: await throughput(runtime.url), load: `${before} → ${load()}` });
}
const ratio = (round: (typeof rounds)[number]) => round.runtime.perSecond / round.bare.perSecond;
const middle = [...rounds].sort((x, y) => ratio(x) - ratio(y))[Math.floor(rounds.length / 2)]!;
console.log(`\n### runtime overhead versus a bare SDK agent (SQLite task store, ${MESSAGES} messages a round, ${CONCURRENCY} concurrent, ${ROUNDS} interleaved rounds)\n`);
console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; the load generator and the authority run in the same process\n`);
console.log('| round | bare SDK agent: messages/s | p50 ms | p99 ms | learnable runtime (pin + journal + ledger): messages/s | p50 ms | p99 ms | ratio | load average before → after |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
rounds.forEach((r, index) =>
  console.log(`| ${index + 1}${r === middle ? ' (median)' : ''} | ${r.bare.perSecond} | ${r.bare.p50} | ${r.bare.p99} | ${r.runtime.perSecond} | ${r.runtime.p50} | ${r.runtime.p99} | ${ratio(r).toFixed(2)}× | ${r.load} |`),
);
console.log(`\nRatio runtime / bare, median of the rounds: **${ratio(middle).toFixed(2)}×** (goal ≥ 0.85×)`);
console.log(`
Where the time goes (CPU profile, 2026-12-01: \`node --cpu-prof\` on this benchmark, 3,000 messages, each side alone): the
runtime spent 2.9 ms of CPU per message against the bare agent's 1.1-1.3 ms (load generator included in both). Of the
difference: the pin's GET to the authority about 1.3 ms (undici's fetch on the agent's side and the authority's
express and SQL on the other, both in this process: taking the pin away brought the runtime to 1.6 ms); SQLite
statements about 0.5 ms (10 writes a message against the bare agent's 3: five task saves, three journal rows,
two ledger writes; 60-80 µs each); kysely building those statements about 0.3 ms; the SDK's handling of the extra
artifact event and the runtime's own code the rest. Done: reads of the authority over node:http on kept-alive
connections (a third of fetch's CPU) and one shared request for the active version among the tasks that start
while one is out (\`FreshRead\`, never the request already under way: pinning stays exact), measured 0.46× → 0.51×
in one run at load average 11-12; a save identical to the last one not written again, and a task on its way to
rest read from memory instead of the store. Later, the commit wait (SPEC §4.4): the authority acknowledges and
announces each activation 25 ms after its commit and says so on each answer of the active version, and an answer
is reused for that long after its request was sent, so a busy agent asks about once per 25 ms (pinning stays
exact); measured with the authority, the agent and a bare agent each in its own process, interleaved with the
code before: the authority's CPU per message 0.59 → 0.18 ms, the agent's 2.61 → 2.17 ms (medians of 18 rounds). Not done: one transaction for a task's journal rows and ledger, and
statements compiled once instead of by kysely each time.`);
await runtime.close();
await bare.close();
await authority.close();
authority.dir.remove();
dir.remove();
