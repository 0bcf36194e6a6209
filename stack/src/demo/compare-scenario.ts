import type { RunScenarioOptions, ScenarioResult } from './run-scenario.ts';
import { runScenario } from './run-scenario.ts';
import { startScenarioStack } from './scenario-stack.ts';

export interface CompareOptions extends Pick<RunScenarioOptions, 'weeks' | 'scenarioDir' | 'signal' | 'operator' | 'name' | 'correctWrong'> {
  /** Progress of each run, told which run it is. */
  readonly onProgress?: (learning: 'on' | 'off', event: Parameters<NonNullable<RunScenarioOptions['onProgress']>>[0]) => void;
}

/**
 * The comparison, by itself: for learning on, then off, a fresh stack in this process (its own
 * temporary data folder, seeded, nothing learned), the replay, and the stack taken down again.
 */
export async function compareScenario(options: CompareOptions = {}): Promise<{ on: ScenarioResult; off: ScenarioResult }> {
  const on = await replayOnFreshStack('on', options);
  const off = await replayOnFreshStack('off', options);
  return { on, off };
}

/** One run of the comparison: a fresh stack in this process, the replay, and the stack taken down. */
export async function replayOnFreshStack(learning: 'on' | 'off', options: CompareOptions = {}): Promise<ScenarioResult> {
  const stack = await startScenarioStack();
  try {
    const result = await runScenario({
      emailAgentUrl: stack.emailAgentUrl,
      manifestAgentUrl: stack.manifestAgentUrl,
      authorityUrl: stack.authorityUrl,
      agentToken: stack.token,
      authorityToken: stack.token,
      learning,
      ...(options.weeks !== undefined && { weeks: options.weeks }),
      ...(options.scenarioDir !== undefined && { scenarioDir: options.scenarioDir }),
      ...(options.operator !== undefined && { operator: options.operator }),
      ...(options.name !== undefined && { name: options.name }),
      ...(options.correctWrong !== undefined && { correctWrong: options.correctWrong }),
      ...(options.signal !== undefined && { signal: options.signal }),
      ...(options.onProgress && { onProgress: (event) => options.onProgress?.(learning, event) }),
      stack:
        'a fresh in-process stack (authority seeded from fixtures/seeds, both agents, SQLite in a temporary folder); the manifest agent dated by its file names',
    });
    // The stack's ports were temporary; say so rather than keep numbers that meant nothing.
    const agents = result.check.agents.map((check) => ({ ...check, url: `in-process ${check.agent} agent` }));
    return { ...result, check: { ...result.check, agents } };
  } finally {
    await stack.close();
  }
}
