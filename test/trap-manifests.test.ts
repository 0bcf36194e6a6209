// Issue 19, the manifest part of the trap scenario: shippers whose headings collide (Bramble's
// `Ref` holds purchase orders, Aurora's holds its air waybills; Eastgate's `Waybill No`, a heading
// the seed knows, holds its own numbers), replayed through a fresh stack over HTTP with every
// suggestion taught as offered. No field may be taken from the wrong column without a question,
// in the committed stream or in the holdout stream nobody tuned the agent on.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTrapScenario, TRAP_SCENARIO_DIR } from '../stack/src/demo/make-trap-scenario.ts';
import type { ScenarioResult } from '../stack/src/demo/run-scenario.ts';
import { runScenario } from '../stack/src/demo/run-scenario.ts';
import { startScenarioStack } from '../stack/src/demo/scenario-stack.ts';
import type { Stream } from '../stack/src/demo/stream.ts';
import { loadStream } from '../stack/src/demo/stream.ts';

const scratch = mkdtempSync(join(tmpdir(), 'learnables-trap-manifests-'));

/** A folder holding `dir`'s manifests and a stream.json of only them, for a replay of the manifest agent alone. */
function manifestsOnly(dir: string, name: string): { dir: string; stream: Stream } {
  const full = loadStream(dir);
  const stream: Stream = { ...full, messages: full.messages.filter((item) => item.agent === 'manifest') };
  const out = join(scratch, name);
  mkdirSync(out, { recursive: true });
  symlinkSync(join(dir, 'manifests'), join(out, 'manifests'));
  writeFileSync(join(out, 'stream.json'), JSON.stringify(stream));
  return { dir: out, stream };
}

async function replay(scenarioDir: string): Promise<ScenarioResult> {
  const stack = await startScenarioStack();
  try {
    return await runScenario({
      emailAgentUrl: stack.emailAgentUrl,
      manifestAgentUrl: stack.manifestAgentUrl,
      authorityUrl: stack.authorityUrl,
      agentToken: stack.token,
      authorityToken: stack.token,
      learning: 'on',
      // The busy clerk of issue 19: every suggestion taught as offered, unless the preview warns.
      operator: 'trusting',
      scenarioDir,
    });
  } finally {
    await stack.close();
  }
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(['main', 'holdout'] as const)('the trap stream’s manifests (%s), replayed with every suggestion taught as offered', (variant) => {
  let stream: Stream;
  let result: ScenarioResult;
  beforeAll(async () => {
    const dir = variant === 'main' ? TRAP_SCENARIO_DIR : (await writeTrapScenario('holdout', join(scratch, 'holdout-full'))).dir;
    const only = manifestsOnly(dir, variant);
    stream = only.stream;
    result = await replay(only.dir);
  }, 120_000);

  it('holds colliding headings: the same heading is a waybill on one desk’s sheets and something else on another’s', () => {
    const byHeading = new Map<string, Set<string>>();
    for (const item of stream.messages) {
      if (item.agent !== 'manifest') continue;
      for (const [field, heading] of Object.entries(item.truth.columns ?? {}))
        if (heading !== null) byHeading.set(heading, (byHeading.get(heading) ?? new Set()).add(`${item.source}:${field}`));
    }
    const waybillSomewhere = stream.messages.flatMap((item) => (item.agent === 'manifest' ? [item.truth.column] : []));
    // A heading that is the waybill for one shipper and no field at all on another's sheet.
    const collides = waybillSomewhere.some((heading) =>
      stream.messages.some((item) => item.agent === 'manifest' && item.truth.column !== heading && item.trap?.includes(heading)),
    );
    expect(collides).toBe(true);
    expect(stream.messages.length).toBeGreaterThanOrEqual(20);
  });

  it('takes no field from the wrong column without asking, in any week', () => {
    expect(result.problems).toEqual([]);
    expect(result.weeks.map((week) => week.misreads)).toEqual(result.weeks.map(() => 0));
    expect(result.totals.manifest.messages).toBe(stream.messages.length);
  });

  it('learns: each desk is asked about at most once, week 6 asks about no manifest, and every lesson is one the authority took', () => {
    expect(result.weeks.at(-1)?.manifest.questions).toBe(0);
    expect(result.totals.manifest.questions).toBeLessThanOrEqual(new Set(stream.messages.map((item) => item.source)).size);
    expect(result.lessons.length).toBeGreaterThan(0);
    expect(result.lessons.every((lesson) => lesson.outcome === 'changed')).toBe(true);
    expect(result.check.agrees).toBe(true);
  });
});
