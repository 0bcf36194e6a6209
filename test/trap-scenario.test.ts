// The trap scenario (fixtures/trap-scenario), its holdout (the same generator's second cast,
// written apart: other customers, portal, broker, clerks, layouts and wording, another seed) and the
// six-week scenario (fixtures/scenario), each replayed through both agents on a fresh stack by the operator who trusts every suggestion
// (issue 19): no decision made without asking is wrong, week 6 asks fewer than 10 in 100, and the
// line falls. The holdout is generated here, into a temporary folder, and never committed. So is the
// mixed stream of issue 35 (make-mixed-stream.ts: another generator, cast and mail programs, the
// issue's classes among the old ones), whose nobody's mail the same operator answers "none of these"
// and whose customers the seed lacks it adds; its goal is 10 or fewer in 100 in week 6, as the issue says.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayOnFreshStack } from '../stack/src/demo/compare-scenario.ts';
import { writeMixedStream } from '../stack/src/demo/make-mixed-stream.ts';
import { writeFreshStream } from '../stack/src/demo/make-fresh-stream.ts';
import { writeTrapScenario } from '../stack/src/demo/make-trap-scenario.ts';
import type { ScenarioResult } from '../stack/src/demo/run-scenario.ts';
import { SCENARIO_DIR, TRAP_SCENARIO_DIR } from '../stack/src/demo/stream.ts';
import { formatWrongDecisions } from '../stack/src/demo/report.ts';
import { mixedReplay, trapReplay } from '../stack/src/demo/trap-replay.ts';

describe('the trap scenario, replayed by an operator who trusts every suggestion', () => {
  const dir = mkdtempSync(join(tmpdir(), 'learnables-trap-'));
  const runs = new Map<string, ScenarioResult>();
  beforeAll(async () => {
    const [main, holdout] = await Promise.all([writeTrapScenario('main', join(dir, 'main')), writeTrapScenario('holdout', join(dir, 'holdout'))]);
    const mixed = writeMixedStream(join(dir, 'mixed'));
    const fresh = writeFreshStream(join(dir, 'fresh'));
    // Deterministic: the same seed writes the same stream (so a failure here can be replayed by hand).
    expect(writeMixedStream(join(dir, 'mixed-again')).stream).toEqual(mixed.stream);
    // The committed stream is what the generator writes.
    expect(`${JSON.stringify(main.stream, null, 1)}\n`).toBe(readFileSync(join(TRAP_SCENARIO_DIR, 'stream.json'), 'utf8'));
    // The six-week scenario too, with the same trusting operator instead of its careful one: the goal
    // holds for both replays (issue 19), not only for the stream written for it.
    const [onMain, onHoldout, onSixWeeks, onMixed, onFresh] = await Promise.all([
      replayOnFreshStack('on', trapReplay(TRAP_SCENARIO_DIR)),
      replayOnFreshStack('on', trapReplay(holdout.dir)),
      replayOnFreshStack('on', { scenarioDir: SCENARIO_DIR, operator: 'trusting', name: 'The six-week scenario (a trusting operator)' }),
      replayOnFreshStack('on', mixedReplay(mixed.dir)),
      replayOnFreshStack('on', mixedReplay(fresh.dir)),
    ]);
    runs.set('main', onMain);
    runs.set('holdout', onHoldout);
    runs.set('six-week scenario', onSixWeeks);
    runs.set('mixed stream (issue 35)', onMixed);
    runs.set('fresh stream', onFresh);
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The fresh stream (make-fresh-stream.ts), written by another engineer from the classes without reading
  // the agent: it found 36 wrong decisions the other streams had not (a new customer issuing a seed customer's
  // reference shape). Held to no wrong decision and a falling line; its week 6 (12.2 per 100, the goal is 10) is a
  // ratchet until what still asks there is learned (docs/trap-scenario/fresh-stream.md).
  const FRESH_WEEK6_PER100 = 12.2;
  it('fresh stream: decides nothing wrong without asking, week 6 no worse than measured, and the line falls', () => {
    const result = runs.get('fresh stream')!;
    const byWeek = result.weeks.map((w) => `week ${w.week}: ${w.all.per100} per 100, ${w.misreads} wrong`).join('; ');
    expect(
      result.weeks.map((w) => w.misreads),
      `${byWeek}\n${formatWrongDecisions(result)}`,
    ).toEqual([0, 0, 0, 0, 0, 0]);
    expect(result.problems, byWeek).toEqual([]);
    const [first, last] = [result.weeks[0]!, result.weeks[5]!];
    expect(last.all.per100, byWeek).toBeLessThanOrEqual(FRESH_WEEK6_PER100);
    expect(last.all.per100, byWeek).toBeLessThan(first.all.per100 / 2);
    expect(result.check.agrees).toBe(true);
  });

  for (const variant of ['main', 'holdout', 'six-week scenario', 'mixed stream (issue 35)']) {
    it(`${variant}: decides nothing wrong without asking, asks fewer than 10 in 100 in week 6 (the mixed stream: at most 10), and the line falls`, () => {
      const result = runs.get(variant)!;
      const byWeek = result.weeks.map((w) => `week ${w.week}: ${w.all.per100} per 100, ${w.misreads} wrong`).join('; ');
      expect(result.weeks).toHaveLength(6);
      expect(
        result.weeks.map((w) => w.misreads),
        `${byWeek}\n${formatWrongDecisions(result)}`,
      ).toEqual([0, 0, 0, 0, 0, 0]);
      expect(result.problems, byWeek).toEqual([]);
      const [first, last] = [result.weeks[0]!, result.weeks[5]!];
      if (variant.startsWith('mixed')) expect(last.all.per100, byWeek).toBeLessThanOrEqual(10);
      else expect(last.all.per100, byWeek).toBeLessThan(10);
      expect(last.all.per100, byWeek).toBeLessThan(first.all.per100 / 2);
      expect(result.check.agrees).toBe(true);
      // Trusting: every question that came with a suggestion was taught, unless the agent refused it
      // or the preview warned of taking other customers' mail.
      expect(result.lessons.every((lesson) => ['changed', 'refused', 'warned', 'no-suggestion'].includes(lesson.outcome))).toBe(true);
      expect(result.lessonOutcomes.changed).toBeGreaterThan(10);
    });
  }
});
