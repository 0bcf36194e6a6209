// The replay corrects what it finds wrong on the agent, as an operator who notices would (SPEC
// §6.7), and holds the agents' count of corrections to its own (§6.8). A five-message stream over two
// weeks where decisions come out wrong: a haulier's address taught for Oakridge (the careful
// operator remembers it) decides Meridian's and Vireo's mail for Oakridge without asking, a manifest
// answered by the operator still reads a field the truth puts nowhere, and one decided without
// asking reads its waybills from a column the truth (deliberately) says is not theirs. Replayed
// twice on fresh stacks: once as the replay runs, and once without its corrections, where the check
// against GET /learnables/stats?by=week must fail.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayOnFreshStack } from '../stack/src/demo/compare-scenario.ts';
import { buildEml } from '../stack/src/demo/eml.ts';
import type { ScenarioResult } from '../stack/src/demo/run-scenario.ts';
import type { Stream, StreamItem } from '../stack/src/demo/stream.ts';
import { SCENARIO_DIR } from '../stack/src/demo/stream.ts';

const haulier = { name: 'Transline Desk', address: 'desk@transline.example' };
const emails: { day: number; subject: string; text: string; customer: string }[] = [
  { day: 5, subject: 'Delivery Thursday', text: 'Please expect 4 pallets on Thursday morning.', customer: 'oakridge-furniture' },
  { day: 6, subject: 'Delivery Friday', text: 'Our driver will be with you Friday, 6 pallets.', customer: 'meridian-medical' },
  { day: 13, subject: 'Delivery Wednesday', text: 'Two cages of frames on Wednesday.', customer: 'vireo-bikes' },
];

describe('the replay corrects the decisions it finds wrong, and the agents count them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'learnables-replay-corrections-'));
  let corrected: ScenarioResult;
  let silent: ScenarioResult;
  beforeAll(async () => {
    mkdirSync(join(dir, 'email'));
    mkdirSync(join(dir, 'manifests'));
    const items: StreamItem[] = emails.map(({ day, subject, text, customer }, i) => {
      const date = new Date(Date.UTC(2026, 9, day, 9, 0, 0));
      const file = `email/${i + 1}.eml`;
      writeFileSync(
        join(dir, file),
        buildEml({
          from: haulier,
          to: { name: 'Intake', address: 'intake@warehouse.example' },
          subject,
          date,
          offsetMinutes: 60,
          messageId: `${i}@transline.example`,
          text,
          relay: 'mx.transline.example',
        }),
      );
      return { file, date: date.toISOString(), week: day < 12 ? 1 : 2, agent: 'email', source: haulier.address, truth: { entry: customer } };
    });
    for (const name of ['2026-10-07-sky-manifest-645.xlsx', '2026-10-12-atl-manifest-482.xlsx'])
      copyFileSync(join(SCENARIO_DIR, 'manifests', name), join(dir, 'manifests', name));
    // Skyline's heading is asked about; the truth says the sheet has no consignee column, so the
    // consignee the agent reads there is wrong after the answer (corrected to none).
    items.splice(2, 0, {
      file: 'manifests/2026-10-07-sky-manifest-645.xlsx',
      date: '2026-10-07T05:43:05.000Z',
      week: 1,
      agent: 'manifest',
      source: 'Skyline Air Cargo',
      truth: { entry: 'waybill', column: 'Air Waybill No', columns: { consignee: null } },
    });
    // Atlas's 'Waybill' is a seeded heading, decided without asking; the truth says otherwise (corrected in words).
    items.push({
      file: 'manifests/2026-10-12-atl-manifest-482.xlsx',
      date: '2026-10-12T06:47:34.000Z',
      week: 2,
      agent: 'manifest',
      source: 'Atlas Consolidators',
      truth: { entry: 'waybill', column: 'House Ref' },
    });
    items.sort((a, b) => a.date.localeCompare(b.date));
    const stream: Stream = { description: 'wrong decisions, and a truth that says so', from: '2026-10-05', to: '2026-10-18', weeks: 2, messages: items };
    writeFileSync(join(dir, 'stream.json'), JSON.stringify(stream));
    [corrected, silent] = await Promise.all([
      replayOnFreshStack('on', { scenarioDir: dir }),
      replayOnFreshStack('on', { scenarioDir: dir, correctWrong: false }),
    ]);
  }, 90_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the wrong decisions: three without asking, one answered', () => {
    const kinds = (result: ScenarioResult) => result.problems.map((p) => `${p.file} ${p.kind}`);
    const expected = [
      'email/2.eml misread',
      'manifests/2026-10-07-sky-manifest-645.xlsx answered-wrong',
      'manifests/2026-10-12-atl-manifest-482.xlsx misread',
      'email/3.eml misread',
    ];
    expect(kinds(corrected)).toEqual(expected);
    expect(kinds(silent)).toEqual(expected);
    expect(corrected.weeks.map((w) => w.misreads)).toEqual([1, 2]);
  });

  it('corrects each on its agent with the truth, an author and a reason', () => {
    expect(corrected.correctedDecisions).toEqual([
      expect.objectContaining({ file: 'email/2.eml', agent: 'email', asked: false, decided: 'oakridge-furniture', entry: 'meridian-medical' }),
      expect.objectContaining({ file: 'manifests/2026-10-07-sky-manifest-645.xlsx', agent: 'manifest', asked: true, finding: 'consignee', none: true }),
      expect.objectContaining({
        file: 'manifests/2026-10-12-atl-manifest-482.xlsx',
        agent: 'manifest',
        asked: false,
        finding: 'waybill',
        decided: 'Waybill',
        entry: 'House Ref',
      }),
      expect.objectContaining({ file: 'email/3.eml', agent: 'email', asked: false, decided: 'oakridge-furniture', entry: 'vireo-bikes' }),
    ]);
    for (const correction of corrected.correctedDecisions) expect(correction.reason).toMatch(/^Found wrong.*: .+\.$/);
    expect(silent.correctedDecisions).toEqual([]);
  });

  it("reads the agents' count of corrected decisions into each week, beside the wrong ones", () => {
    expect(corrected.weeks.map((w) => [w.misreads, w.correctedUnasked, w.corrected])).toEqual([
      [1, 1, 2],
      [2, 2, 2],
    ]);
    expect(silent.weeks.map((w) => [w.misreads, w.correctedUnasked, w.corrected])).toEqual([
      [1, 0, 0],
      [2, 0, 0],
    ]);
  });

  it('agrees with each agent week by week, and fails the check when the replay does not correct', () => {
    expect(corrected.check.agrees, corrected.check.agents.map((a) => a.sentence).join('\n')).toBe(true);
    const email = corrected.check.agents.find((a) => a.agent === 'email')!;
    expect(email.counted).toEqual([
      { period: '2026-10-05', messages: 2, questions: 1, corrected: 1, correctedUnasked: 1 },
      { period: '2026-10-12', messages: 1, questions: 0, corrected: 1, correctedUnasked: 1 },
    ]);
    expect(silent.check.agrees).toBe(false);
    for (const check of silent.check.agents) {
      expect(check.outcome).toBe('mismatch');
      expect(check.sentence).toMatch(
        / and 0 decisions corrected \(0 of them made without asking\) during the run; the replay saw .* and 2 decisions wrong, to correct/,
      );
    }
  });
});
