// The handling agent's six weeks with learning on, over real HTTP: questions per 100 fall as the
// simulated operator's examples are kept, and rolling back to the version of week 4 brings back
// that version's readings exactly. (`pnpm demo:handling` runs learning off beside it.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlingScenarioResult } from './handling-scenario.ts';
import { runHandlingScenario, startHandlingStack } from './handling-scenario.ts';

describe("the handling agent's six weeks", () => {
  let stack: Awaited<ReturnType<typeof startHandlingStack>>;
  let result: HandlingScenarioResult;
  beforeAll(async () => {
    stack = await startHandlingStack();
    result = await runHandlingScenario({ ...stack, learning: 'on' });
  }, 120_000);
  afterAll(async () => stack?.close());

  it('asks less as lessons are kept: the last two weeks ask under half as often as the first two', () => {
    expect(result.problems).toEqual([]);
    const per100 = result.weeks.map((week) => week.per100);
    expect(per100).toHaveLength(6);
    expect(per100[4]! + per100[5]!).toBeLessThan((per100[0]! + per100[1]!) / 2);
    expect(result.weeks.reduce((lessons, week) => lessons + week.lessons, 0)).toBeGreaterThan(10);
  });

  it('a rollback to the version of week 4 brings back its readings, probability for probability', () => {
    expect(result.rollback).toMatchObject({ probes: 20, same: true });
    expect(result.rollback!.fromVersion).toBeGreaterThan(result.rollback!.toVersion);
  });
});
