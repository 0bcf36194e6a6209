// A/B tool for work on the runtime's overhead (not part of `pnpm bench`): one bare SDK agent and
// several runtime agents side by side, each its own process, each variant the runtime of a checkout
// (this one, or another: `git worktree add ../ab <rev>` and `pnpm install --offline` there) with
// environment variables of its own; rounds interleaved, the order reversed every other round, so a
// change is measured against the code before in the same minutes of a shared machine, whose speed
// moves a single run's ratio more than most changes do (runtime README, Benchmark).
//
//   node --import tsx shared/runtime/bench/variants.ts before=../ab after=. [after2=.,SOME_SWITCH=1 …]
//
// A variant is `name=<checkout>[,NAME=value…]`; naming one checkout twice measures the noise. Prints,
// per variant, the median of its rounds' throughput ratios to the bare agent, each round's, and the
// medians of its agent's CPU a message and the authority's. BENCH_ROUNDS (default 6), BENCH_MESSAGES
// (a round and side, default 2,000), BENCH_WARM (messages each side takes first, default 5,000).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { scratchDir } from '@learnables/testing';
import { child, closedLoop, cpuMs, firstLine, postJson, stopChild } from '../../../test/bench/bench-processes.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const WARM = Number(process.env.BENCH_WARM ?? 5000);
const CONCURRENCY = 4;

const variants = process.argv.slice(2).map((argument) => {
  const [name, spec] = argument.split('=', 2) as [string, string | undefined];
  if (!name || !spec) throw new Error(`"${argument}" is not name=<checkout>[,NAME=value…]`);
  const [checkout, ...settings] = spec.split(',');
  const env = new Map(settings.map((setting) => setting.split('=', 2) as [string, string]));
  return { name, script: resolve(checkout!, 'shared/runtime/bench/overhead-service.ts'), env: Object.fromEntries(env) };
});
if (variants.length === 0 || variants.some((variant) => variant.name === 'bare')) {
  console.error('usage: variants.ts <name>=<checkout>[,NAME=value…] … (at least one; "bare" is the baseline\'s name)');
  process.exit(2);
}

const dir = scratchDir('bench-variants-');
const started: ChildProcess[] = [];
async function start(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ url: string; pid: number }> {
  const service = child(script, args, [], { ...process.env, ...env });
  started.push(service);
  const [, url] = await firstLine(service, /^ready (\S+)$/m);
  return { url: url!, pid: service.pid! };
}

const body = () =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'banana bread' }] } },
  });
/** `messages` messages, CONCURRENCY at a time: messages a second, and the CPU a message of the agent and the authority. */
async function batch(agent: { url: string; pid: number }, authority: number, messages: number) {
  const [agentBefore, authorityBefore] = [cpuMs(agent.pid), cpuMs(authority)];
  const begun = performance.now();
  await closedLoop(CONCURRENCY, messages, async () => {
    const { status } = await postJson(`${agent.url}/a2a/jsonrpc`, body(), { 'content-type': 'application/json', 'A2A-Version': '1.0' });
    if (status !== 200) throw new Error(`the agent answered ${status}`);
  });
  const rate = messages / ((performance.now() - begun) / 1000);
  return { rate, cpu: (cpuMs(agent.pid) - agentBefore) / messages, authority: (cpuMs(authority) - authorityBefore) / messages };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
try {
  mkdirSync(`${dir.path}/authority`);
  const here = new URL('./overhead-service.ts', import.meta.url).pathname;
  const authority = await start(here, ['authority', `${dir.path}/authority`]);
  const sides = new Map([['bare', await start(here, ['bare', `sqlite:${dir.path}/bare.db`])]]);
  for (const variant of variants)
    sides.set(variant.name, await start(variant.script, ['runtime', `sqlite:${dir.path}/${variant.name}.db`, authority.url], variant.env));
  for (const side of sides.values()) await batch(side, authority.pid, WARM);
  const results = new Map([...sides.keys()].map((name) => [name, [] as Awaited<ReturnType<typeof batch>>[]]));
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? [...sides] : [...sides].reverse();
    for (const [name, side] of order) results.get(name)!.push(await batch(side, authority.pid, MESSAGES));
  }
  const bare = results.get('bare')!;
  for (const [name, rounds] of results) {
    if (name === 'bare') {
      console.log(`bare: ${median(rounds.map((r) => r.rate)).toFixed(0)} messages/s, ${median(rounds.map((r) => r.cpu)).toFixed(2)} ms of CPU a message`);
      continue;
    }
    const ratios = rounds.map((r, i) => r.rate / bare[i]!.rate);
    console.log(
      `${name}: ratio ${median(ratios).toFixed(2)}× (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}), ${median(rounds.map((r) => r.cpu)).toFixed(2)} ms of CPU a message, authority ${median(rounds.map((r) => r.authority)).toFixed(3)}`,
    );
  }
} finally {
  await Promise.all(started.map((service) => stopChild(service)));
  dir.remove();
}
