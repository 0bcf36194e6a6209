import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreviewResultSchema } from '@learnables/protocol';
import type { PreviewResult } from '@learnables/protocol';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import type { LearnableAgent } from './learnable-agent.ts';
import { agentOptions, rpc, said, sdkClient, send, startAuthority, userData, userText } from './harness.test-support.ts';
import type { RunningAgent } from './start-agent.ts';
import { startLearnableAgent } from './start-agent.ts';
import type { WordInput } from './word-agent.test-support.ts';
import { wordAgent } from './word-agent.test-support.ts';

/** The word agent, taking "none of these" too, and with a `prepare` a test can hold (to keep a preview running). */
let hold: Promise<void> | undefined;
let held: (() => void) | undefined;
const holding: LearnableAgent<WordInput, { list: string }> = {
  ...wordAgent,
  declaration: { ...wordAgent.declaration, admitsNone: true },
  answerNone: () => ({
    settled: true,
    findings: { list: { settled: true, reads: 'Belongs to no list, as the operator answered', collection: 'lists' } },
    result: { list: '' },
  }),
  async prepare() {
    if (hold === undefined) return;
    held?.();
    await hold;
  },
};

const tokens = { 'alice-token': 'alice', 'bob-token': 'bob', 'carol-token': 'carol' };
const as = (name: 'alice' | 'bob' | 'carol') => ({ authorization: `Bearer ${name}-token` });
const banana = { lesson: { collection: 'lists', entry: 'alpha', value: { word: 'banana' }, taughtBy: 'dana', reason: 'bananas are alpha’s' } };

const preview = (agent: RunningAgent, params: unknown, who: Record<string, string>) => rpc(agent.url, 'learnables/preview', params, who);
const resultOf = (answer: Awaited<ReturnType<typeof preview>>): PreviewResult => {
  if (answer.body.result === undefined) throw new Error(`preview failed: ${JSON.stringify(answer.body.error)}`);
  return PreviewResultSchema.parse(answer.body.result);
};

/** Preview's cost is bounded (issue 34, finding 2): whose it is, how many at once, and what one reads. */
describe('preview within a budget', () => {
  let dir: ScratchDir;
  let authority: Awaited<ReturnType<typeof startAuthority>>;
  let agent: RunningAgent;
  let small: RunningAgent;

  beforeAll(async () => {
    dir = scratchDir('runtime-preview-budget-');
    authority = await startAuthority();
    agent = await startLearnableAgent(holding, agentOptions(authority, dir, { users: tokens }));
    // The same store, read by an agent with a budget of 2 kB of recorded input (each text here takes ~55 bytes).
    small = await startLearnableAgent(holding, agentOptions(authority, dir, { users: tokens, previewBudget: { bytes: 2_000 }, warmPreview: false }));
    const { client } = await sdkClient(agent.url, { token: 'alice-token' });
    for (let at = 0; at < 60; at++) await send(client, userText(`banana number ${at} and some words to weigh it`));
  }, 120_000);

  afterAll(async () => {
    await small?.close();
    await agent?.close();
    await authority?.close();
    authority?.dir.remove();
    dir?.remove();
  });

  it('refuses a caller without a token in a sentence, as teach does, reading nothing', async () => {
    const answer = await preview(agent, banana, {});
    expect(answer.body.error?.data).toEqual({
      error: 'unauthorized',
      message: 'Previewing a lesson on this agent needs a bearer token it accepts, as teaching does; nothing was read.',
    });
    const rest = await fetch(`${agent.url}/a2a/rest/learnables:preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify(banana),
    });
    expect(rest.status).toBe(401);
  });

  it('says how many recent tasks it tried when every one was', async () => {
    const result = resultOf(await preview(agent, banana, as('alice')));
    expect(result).toMatchObject({ recent: 60, tried: 60, examined: 60, counts: { changes: 60 } });
    expect(result.budget).toBeUndefined();
  });

  it('stops when its bytes are spent and says so: the latest N of M, newest first', async () => {
    const result = resultOf(await preview(small, banana, as('alice')));
    expect(result, JSON.stringify({ ...result, examples: [] })).toMatchObject({ budget: 'bytes', recent: 60 });
    expect(result.tried).toBeGreaterThan(5);
    expect(result.tried).toBeLessThan(60);
    expect(result.examined).toBe(result.tried);
    expect(result.counts.changes).toBe(result.tried);
  });

  it('takes one preview of a caller at a time and two in all; the others are answered busy in a sentence', async () => {
    let release!: () => void;
    hold = new Promise<void>((resolve) => {
      held = undefined;
      release = resolve;
    });
    const entered = () => new Promise<void>((resolve) => (held = resolve));
    try {
      let inside = entered();
      const alice = preview(agent, banana, as('alice'));
      await inside;
      const again = await preview(agent, banana, as('alice'));
      expect(again.body.error?.data).toEqual({
        error: 'busy',
        message: 'Another preview of yours is still running on this agent; wait for it to answer, then try again.',
      });
      inside = entered();
      const bob = preview(agent, banana, as('bob'));
      await inside;
      const carol = await preview(agent, banana, as('carol'));
      expect(carol.body.error?.data).toEqual({
        error: 'busy',
        message: 'This agent is running as many previews as it takes at once; try again in a few seconds.',
      });
      hold = undefined;
      release();
      expect(resultOf(await alice).tried).toBe(60);
      expect(resultOf(await bob).recent).toBe(0);
      // Their places are given back: the next ones run.
      expect(resultOf(await preview(agent, banana, as('carol'))).recent).toBe(0);
      expect(resultOf(await preview(agent, banana, as('alice'))).tried).toBe(60);
    } finally {
      hold = undefined;
      release();
    }
  });
});

/** Issue 35, class 9: what people answered and corrected is the truth a previewed lesson is held to. */
describe('preview holds a lesson to what people said', () => {
  let dir: ScratchDir;
  let authority: Awaited<ReturnType<typeof startAuthority>>;
  let agent: RunningAgent;

  beforeAll(async () => {
    dir = scratchDir('runtime-preview-said-');
    authority = await startAuthority();
    agent = await startLearnableAgent(holding, agentOptions(authority, dir, { users: tokens }));
  });

  afterAll(async () => {
    await agent?.close();
    await authority?.close();
    authority?.dir.remove();
    dir?.remove();
  });

  it('warns, with the example, of a lesson that would claim a message answered "none of these" or answered for another list, and not of one corrected to its own list', async () => {
    const { client } = await sdkClient(agent.url, { token: 'alice-token' });
    const kiwiNone = await send(client, userText('kiwi tart'));
    expect(said(kiwiNone).extension).toMatchObject({ question: 'Which list does this text belong to?' });
    await send(client, userData({ none: true, answeredBy: 'dana' }, kiwiNone));
    const kiwiBeta = await send(client, userText('kiwi jam'));
    await send(client, userData({ entry: 'beta', answeredBy: 'dana' }, kiwiBeta));
    const kiwiOpen = await send(client, userText('kiwi pie'));

    const kiwi = resultOf(await preview(agent, { lesson: { ...banana.lesson, value: { word: 'kiwi' } } }, as('alice')));
    const byTask = new Map(kiwi.examples.map((example) => [example.taskId, example]));
    expect(byTask.get(kiwiNone.id)).toMatchObject({ effect: 'changes', said: { by: 'answer', none: true }, after: { settled: true, winner: 'alpha' } });
    expect(byTask.get(kiwiBeta.id)).toMatchObject({ effect: 'changes', said: { by: 'answer', entry: 'beta' } });
    expect(byTask.get(kiwiOpen.id)).toMatchObject({ effect: 'settles' });
    expect(byTask.get(kiwiOpen.id)?.said).toBeUndefined();
    expect(kiwi.counts).toMatchObject({ settles: 1, changes: 2, against: 2 });

    // Decided beta by the rules: one corrected to alpha (the lesson's own list), one to none.
    const toAlpha = await send(client, userText('banana cake'));
    const toNone = await send(client, userText('banana bread'));
    const plain = await send(client, userText('banana split'));
    for (const [task, correction] of [
      [toAlpha, { entry: 'alpha' }],
      [toNone, { none: true }],
    ] as const) {
      const answered = await rpc(agent.url, 'learnables/correct', { taskId: task.id, ...correction, correctedBy: 'Dana', reason: 'not beta’s' }, as('alice'));
      expect(answered.body.error).toBeUndefined();
    }
    const result = resultOf(await preview(agent, banana, as('alice')));
    const examples = new Map(result.examples.map((example) => [example.taskId, example]));
    expect(examples.get(toAlpha.id)).toMatchObject({ effect: 'settles', said: { by: 'correction', entry: 'alpha' } });
    expect(examples.get(toNone.id)).toMatchObject({ effect: 'changes', said: { by: 'correction', none: true } });
    expect(examples.get(plain.id)).toMatchObject({ effect: 'changes' });
    expect(result.counts).toMatchObject({ settles: 1, changes: 2, against: 1 });
  });
});
