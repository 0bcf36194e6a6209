import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import type { LearnableAgent } from './learnable-agent.ts';
import { agentOptions, rpc, sdkClient, send, startAuthority, userText } from './harness.test-support.ts';
import type { RunningAgent } from './start-agent.ts';
import { startLearnableAgent } from './start-agent.ts';
import { wordAgent } from './word-agent.test-support.ts';

/**
 * An agent's `prepare` is where it builds what a version needs off the request path (the handling
 * agent trains its classifier there, in slices: at 10,000 examples training at once holds the event
 * loop ~0.5 s). Preview reads recent tasks under a candidate version that no task ever pinned, so it
 * must hand that version to `prepare` before reading under it, as a task does with its pins.
 */
describe('preview and reread prepare the versions they read under', () => {
  let dir: ScratchDir;
  let authority: Awaited<ReturnType<typeof startAuthority>>;
  let agent: RunningAgent;
  const prepared = new Set<unknown>();
  const unprepared: string[] = [];
  const preparing: LearnableAgent<Parameters<typeof wordAgent.read>[0], { list: string }> = {
    ...wordAgent,
    async prepare(definitions) {
      for (const definition of definitions.values()) prepared.add(definition.entries);
    },
    read(input, definitions) {
      for (const definition of definitions.values()) if (!prepared.has(definition.entries)) unprepared.push(`${definition.collection}@${definition.version}`);
      return wordAgent.read(input, definitions);
    },
  };

  beforeAll(async () => {
    dir = scratchDir('runtime-preview-prepare-');
    authority = await startAuthority();
    agent = await startLearnableAgent(preparing, agentOptions(authority, dir));
  });

  afterAll(async () => {
    await agent.close();
    await authority.close();
    authority.dir.remove();
    dir.remove();
  });

  it('reads a recent task under the live version and the lesson, and rereads a task, only after prepare was given those versions', async () => {
    const { client } = await sdkClient(agent.url, { token: 'alice-token' });
    const task = await send(client, userText('kiwi tart'));
    // What an agent prepared may have been put out since (the handling agent keeps 8 models): each
    // request prepares what it reads under, the live version included.
    prepared.clear();
    unprepared.length = 0;
    const answer = await rpc(
      agent.url,
      'learnables/preview',
      { lesson: { collection: 'lists', entry: 'alpha', value: { word: 'kiwi' }, taughtBy: 'dana', reason: 'kiwis are alpha' } },
      { authorization: 'Bearer alice-token' },
    );
    expect(answer.body.result).toMatchObject({ changed: true, examined: 1, counts: { settles: 1 } });
    expect(unprepared).toEqual([]);

    prepared.clear();
    const reread = await rpc(agent.url, 'learnables/reread', { taskId: task.id }, { authorization: 'Bearer alice-token' });
    expect(reread.body.result).toMatchObject({ list: { settled: false } });
    expect(unprepared).toEqual([]);
  });
});
