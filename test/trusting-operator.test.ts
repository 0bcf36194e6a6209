// The trusting operator of the trap replay (run-scenario.ts, operator 'trusting'), on a three-message
// stream: it teaches a haulier's address as offered; when a question about that haulier's next
// message names the customer the address was taught for, for a message that is another's, it takes
// that lesson back (a correction, counted in its week); and the haulier's third message, for a
// third customer, is asked about rather than decided for the first.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayOnFreshStack } from '../stack/src/demo/compare-scenario.ts';
import { buildEml } from '../stack/src/demo/eml.ts';
import type { ScenarioResult } from '../stack/src/demo/run-scenario.ts';
import type { Stream, StreamItem } from '../stack/src/demo/stream.ts';

const haulier = { name: 'Transline Desk', address: 'desk@transline.example' };
const messages: { day: number; subject: string; text: string; customer: string }[] = [
  { day: 5, subject: 'Delivery Thursday', text: 'Please expect 4 pallets on Thursday morning.', customer: 'oakridge-furniture' },
  { day: 6, subject: 'Collection booked BW-88666', text: 'Vehicle loaded, 17 pallets.', customer: 'brightwell-foods' },
  { day: 7, subject: 'Delivery Friday', text: 'Our driver will be with you Friday.\nConsignee reference: MMS-12345', customer: 'meridian-medical' },
];

describe('the trusting operator', () => {
  const dir = mkdtempSync(join(tmpdir(), 'learnables-trusting-'));
  let result: ScenarioResult;
  beforeAll(async () => {
    mkdirSync(join(dir, 'email'));
    const items: StreamItem[] = messages.map(({ day, subject, text, customer }, i) => {
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
      return { file, date: date.toISOString(), week: 1, agent: 'email', source: haulier.address, truth: { entry: customer } };
    });
    const stream: Stream = { description: 'three messages of one haulier', from: '2026-10-05', to: '2026-10-11', weeks: 1, messages: items };
    writeFileSync(join(dir, 'stream.json'), JSON.stringify(stream));
    result = await replayOnFreshStack('on', { scenarioDir: dir, operator: 'trusting' });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('teaches the first suggestion as offered, takes it back when a question shows it wrong, and decides nothing wrong', () => {
    const [first, second] = result.lessons;
    expect(first).toMatchObject({ entry: 'oakridge-furniture', outcome: 'changed', posted: { pattern: '<desk@transline\\.example>', where: 'from' } });
    // The second message ties Oakridge (the address) and Brightwell (the seed's reference): the
    // question names Oakridge, and the message is Brightwell's, so the address lesson goes.
    expect(result.corrections).toEqual([expect.objectContaining({ file: 'email/2.eml', entry: 'oakridge-furniture', version: first!.version })]);
    expect(result.weeks[0]).toMatchObject({ corrections: 1, misreads: 0 });
    expect(second).toMatchObject({ entry: 'brightwell-foods', outcome: 'changed' });
    expect(second!.posted).toMatchObject({ sender: '<desk@transline\\.example>' });
    // Meridian's message is asked about, not decided for Oakridge.
    expect(result.weeks[0]!.all.questions).toBe(3);
    expect(result.problems).toEqual([]);
  });
});
