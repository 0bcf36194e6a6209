// The handling agent (a classifier decides) through the whole loop over HTTP: it asks, a lesson is
// one more example, tasks stay pinned to the version they started on, a rollback brings back the
// earlier model exactly, and the conformance kit passes against it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { HandlingResult } from '@learnables/handling-agent';
import { QUESTION, handlingAgent, handlingExamplesKind, seedsFolder } from '@learnables/handling-agent';
import { CHECK_IDS, checkAgent } from '../shared/conformance/src/index.ts';
import type { LoopStack } from './support/loop-stack.ts';
import { answer, reread, said, sendText, startLoop } from './support/loop-stack.ts';

// The conformance run sends a few dozen requests to a process under load: more than the default 30 s on a busy two-core machine.
vi.setConfig({ testTimeout: 90_000 });

function resultOf(task: Task): HandlingResult {
  const part = task.artifacts.find((a) => a.artifactId === 'result')?.parts[0]?.content;
  if (part?.$case !== 'data') throw new Error(`the task has no result artifact: ${said(task).text}`);
  return (part.value as { result: HandlingResult }).result;
}

const heldOut = (JSON.parse(readFileSync(new URL('../agents/handling/fixtures/held-out.json', import.meta.url), 'utf8')) as { description: string }[]).slice(
  0,
  12,
);
const KOI = 'ornamental koi carp in oxygenated bags';

describe('the handling agent, the whole loop over HTTP', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(handlingAgent, { kinds: [handlingExamplesKind], seeds: [seedsFolder] });
  });
  afterAll(async () => stack.close());

  it('asks with the likeliest handlings first and the description as the example; a lesson is one more example; the asked task stays on its version', async () => {
    const { client, authority, agent } = stack;
    const first = await sendText(client, KOI);
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { text, extension: teach } = said(first);
    expect(text).toBe(QUESTION);
    expect(teach).toMatchObject({ collection: 'handling', question: QUESTION, suggested: { example: KOI }, version: 1 });
    expect(teach).not.toHaveProperty('entry');
    expect((teach as { entries: { key: string }[] }).entries).toHaveLength(6);

    // Reread before: the probabilities, and why it asks.
    const before = await reread(agent.url, first.id);
    expect(before.handling).toMatchObject({ settled: false, version: 1, reads: expect.stringMatching(/^Not sure \(General cargo 0\.\d\d/) });

    // Preview, before anything is written: the asked task's reading now (the probabilities) and under the lesson.
    const preview = (await (
      await fetch(`${agent.url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'learnables/preview',
          params: { lesson: { collection: 'handling', entry: 'perishable', value: { example: KOI }, taughtBy: 'dana', reason: 'live fish' } },
        }),
      })
    ).json()) as { result: { changed: boolean; examples: { taskId: string; effect: string; now: { reads: string }; after: { reads: string } }[] } };
    expect(preview.result.changed).toBe(true);
    expect(preview.result.examples.find((example) => example.taskId === first.id)).toMatchObject({
      effect: 'settles',
      now: { reads: expect.stringMatching(/^Not sure \(General cargo 0\.\d\d, /) },
      after: { reads: 'A taught example of Perishable (cold chain)' },
    });
    expect((await authority.client.history('handling')).activations).toHaveLength(1);

    const outcome = await authority.client.postLesson({
      collection: 'handling',
      entry: 'perishable',
      value: { example: KOI },
      taughtBy: 'dana',
      reason: 'live fish go by the cold chain',
    });
    expect(outcome).toMatchObject({ changed: true, version: 2, audit: `"${KOI}" is an example of Perishable (cold chain) handling` });
    // The same description is another handling's example now: refused in the learnable's words.
    await expect(
      authority.client.postLesson({ collection: 'handling', entry: 'general', value: { example: ` ${KOI.toUpperCase()} ` }, taughtBy: 'sam', reason: 'x' }),
    ).rejects.toThrow(
      `"${KOI.toUpperCase()}" is already an example of Perishable (cold chain); take it back there first if it was wrong, since one description cannot teach two handlings.`,
    );

    // Reread after, under version 2; the task itself still asks, pinned to version 1.
    expect((await reread(agent.url, first.id)).handling).toEqual({
      settled: true,
      winner: 'perishable',
      reads: 'A taught example of Perishable (cold chain)',
      version: 2,
    });
    const answered = await answer(client, first, 'perishable');
    expect(said(answered)).toMatchObject({ extension: { versions: { handling: 1 }, decidedBy: 'operator' } });
    expect(resultOf(answered).lines).toEqual([{ description: KOI, handling: 'perishable', decidedBy: 'operator' }]);

    // A new task with the same description is decided by the taught example on version 2.
    const second = await sendText(client, KOI);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(second).extension).toMatchObject({ versions: { handling: 2 } });
    expect(resultOf(second).lines[0]).toMatchObject({ handling: 'perishable', decidedBy: 'phrase' });
  });

  it('a rollback to an earlier version brings back its model exactly: the same descriptions get the same probabilities', async () => {
    const { client, authority } = stack;
    // In turn, not at once: the agent answers "busy" past twice its parse threads.
    const decideAll = async () => {
      const decided: unknown[] = [];
      for (const { description } of heldOut) {
        const task = await sendText(client, description);
        // A settled task's result holds each probability in full; an asked one's question lists the
        // handlings in the classifier's order (its version aside, which is the live one).
        if (task.status?.state === TaskState.TASK_STATE_COMPLETED) decided.push(resultOf(task).lines);
        else decided.push({ ...said(task).extension, version: undefined });
      }
      return decided;
    };
    const at = (await authority.client.active('handling')).version;
    const earlier = await decideAll();
    for (const [entry, example] of [
      ['fragile', 'fleece blankets, bubble wrapped'],
      ['general', 'glass jars, empty, 20 cartons'],
      ['high-value', 'wool socks, signature on delivery'],
    ] as const) {
      await authority.client.postLesson({ collection: 'handling', entry, value: { example }, taughtBy: 'dana', reason: 'drift' });
    }
    expect(await decideAll()).not.toEqual(earlier);
    const rolled = await authority.client.rollback('handling', { version: at, author: 'dana', reason: 'the three lessons were wrong' });
    expect(rolled).toMatchObject({ changed: true });
    expect(await decideAll()).toEqual(earlier);
  });

  it("reads a manifest large enough for a parse thread (over 16 kB): every row decided or asked about, the thread's tokens deciding as the event loop's would", async () => {
    const all = JSON.parse(readFileSync(new URL('../agents/handling/fixtures/held-out.json', import.meta.url), 'utf8')) as { description: string }[];
    const rows = [...all, ...all].map(({ description }, at) => `R-${String(at).padStart(5, '0')},"${description}"`);
    const csv = `Ref,Description\n${rows.join('\n')}`;
    expect(csv.length).toBeGreaterThan(16 * 1024);
    const task = await sendText(stack.client, csv);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const findings = task.status?.message?.metadata?.findings as Record<string, { settled: boolean }>;
    expect(Object.keys(findings)).toHaveLength(600);
    expect(said(task).text).toMatch(/^Which handling does this consignment need\? Row \d+: "/);
  });

  it('passes the conformance kit, and rolls back what the kit taught', async () => {
    const at = (await stack.authority.client.active('handling')).version;
    const report = await checkAgent(stack.agent.url, {
      text: 'brass saxophones, trombones and tubas',
      token: 'console-token',
      authority: { url: stack.authority.url, token: 'console-token' },
    });
    const notPassed = report.checks.filter((c) => c.status !== 'PASS').map((c) => `${c.status} ${c.id}: ${c.reason}`);
    // No "none of these": every consignment needs some handling (admitsNone: false).
    expect(notPassed).toEqual([expect.stringMatching(/^SKIP none\.writes-nothing: .*admitsNone: true/)]);
    expect(report.counts).toEqual({ pass: CHECK_IDS.length - 1, fail: 0, skip: 1 });
    expect((await stack.authority.client.active('handling')).version).toBeGreaterThanOrEqual(at);
  });
});
