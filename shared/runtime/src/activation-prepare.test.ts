import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { tasksAdvancing } from './background-turn.ts';
import type { LearnableAgent } from './learnable-agent.ts';
import { agentOptions, startAuthority } from './harness.test-support.ts';
import type { RunningAgent } from './start-agent.ts';
import { startLearnableAgent } from './start-agent.ts';
import { wordAgent } from './word-agent.test-support.ts';

const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/**
 * A version the change feed announces is fetched and handed to the agent's `prepare` ahead of the
 * next message, which usually is on its way already (from whoever taught the lesson). Until it is
 * ready that is foreground work: an agent's background catching up (`backgroundTurn`: the email
 * agent compiling the shards of earlier lessons) must not start a slice in between.
 */
describe('a version announced by the change feed', () => {
  let dir: ScratchDir;
  let authority: Awaited<ReturnType<typeof startAuthority>>;
  let agent: RunningAgent;
  const asked: number[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const preparing: LearnableAgent<Parameters<typeof wordAgent.read>[0], { list: string }> = {
    ...wordAgent,
    async prepare(definitions) {
      for (const definition of definitions.values()) {
        const { version } = definition as { version?: number };
        if (version === undefined || version < 2) continue;
        asked.push(version);
        await gate;
      }
    },
  };

  beforeAll(async () => {
    dir = scratchDir('runtime-activation-prepare-');
    authority = await startAuthority();
    agent = await startLearnableAgent(preparing, agentOptions(authority, dir, { warmPreview: false }));
  });

  afterAll(async () => {
    release();
    await agent.close();
    await authority.close();
    authority.dir.remove();
    dir.remove();
  });

  it('is prepared as foreground work: background turns wait until it is ready', async () => {
    expect(tasksAdvancing()).toBe(0);
    await authority.client.postLesson({ collection: 'lists', entry: 'alpha', value: { word: 'mango' }, taughtBy: 'dana', reason: 'mangoes are alpha' });
    await until(() => asked.length > 0, 'the agent was asked to prepare the new version');
    expect(tasksAdvancing()).toBe(1);
    release();
    await until(() => tasksAdvancing() === 0, 'the foreground ended');
  });
});
