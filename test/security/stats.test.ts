// What a message's own date may do to the numbers, and what the numbers cost (issue 34, findings 3
// and 10): a date no message can have counts on the day the message arrived, wherever it enters and
// whatever an older version stored; and `/learnables/stats`, which anyone may ask, is counted at most
// once for many asking, while staying exact for what the agent wrote.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StatsSchema } from '@learnables/protocol';
import { emailAgent } from '@learnables/email-agent';
import { manifestAgent } from '@learnables/manifest-agent';
import type { LoopStack } from '../support/loop-stack.ts';
import { fixture, sendFile, startLoop } from '../support/loop-stack.ts';

const DAY = 86_400_000;
const stats = async (stack: LoopStack, by: 'week' | 'day' = 'week') => {
  const answer = await fetch(`${stack.agent.url}/learnables/stats?by=${by}`);
  expect(answer.status, await answer.clone().text()).toBe(200);
  return StatsSchema.parse(await answer.json());
};
/** The Monday of this week, as the numbers name it. */
const thisWeek = () => {
  const day = Math.floor(Date.now() / DAY) * DAY;
  return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
};
const today = () => new Date().toISOString().slice(0, 10);
const dated = (date: string) =>
  Buffer.from(
    fixture('email/northgate-parry-pallet-query.eml')
      .toString('utf8')
      .replace(/^Date: .*$/m, `Date: ${date}`),
  );

describe('email agent: a message date no message can have', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
  });
  afterAll(async () => stack?.close());

  it('counts on the day it arrived, and the weekly and daily numbers keep answering', async () => {
    for (const date of ['-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00Z', 'Sat, 1 Jan 1900 00:00:00 +0000', 'Fri, 31 Dec 9999 23:59:59 +0000']) {
      await sendFile(stack.client, dated(date), 'message/rfc822', 'dated.eml');
    }
    const week = await stats(stack);
    expect(week.periods).toEqual([expect.objectContaining({ period: thisWeek(), messages: 4 })]);
    const day = await stats(stack, 'day');
    expect(day.periods).toEqual([expect.objectContaining({ period: today(), messages: 4 })]);
  });

  it('still answers over rows an older version wrote with such dates, counting them on the day they arrived', async () => {
    const before = await stats(stack);
    const arrived = Date.UTC(2026, 9, 14, 9);
    await stack.agent.database.db
      .insertInto('learnables_tasks')
      .values(
        [-8.64e15, 8.64e15, Number.MAX_SAFE_INTEGER, arrived + 400 * DAY].map((messageAt, at) => ({
          task_id: `old-${at}`,
          agent: stack.agent.ledger.agent,
          tenant: '',
          owner: 'console',
          message_at: messageAt,
          asked: at % 2,
          state: 'done',
          created_at: arrived,
          opening: null,
        })),
      )
      .execute();
    // Rows of an older version are there before this process counts anything: as if so, forget the
    // numbers this one counted already.
    stack.agent.ledger.touched();
    const week = await stats(stack);
    expect(week.periods.find((p) => p.period === '2026-10-12')).toMatchObject({ messages: 4, questions: 2 });
    expect(week.messages).toBe(before.messages + 4);
    const day = await stats(stack, 'day');
    expect(day.periods.find((p) => p.period === '2026-10-14')).toMatchObject({ messages: 4 });
    expect(day.periods.every((p) => /^\d{4}-\d{2}-\d{2}$/.test(p.period))).toBe(true);
  });

  it('counts the numbers once for many asking at once or one after another, and exactly again after the agent writes', async () => {
    const counted = vi.spyOn(stack.agent.ledger, 'byPeriod');
    try {
      const first = await stats(stack);
      const answers = await Promise.all(Array.from({ length: 20 }, () => stats(stack)));
      for (let at = 0; at < 20; at++) answers.push(await stats(stack, at % 2 === 0 ? 'day' : 'week'));
      expect(answers.filter((a) => a.by === 'week').every((a) => JSON.stringify(a) === JSON.stringify(first))).toBe(true);
      // One count (by day and by week) for all 41 requests.
      expect(counted.mock.calls.length).toBeLessThanOrEqual(2);
      await sendFile(stack.client, fixture('email/northgate-parry-pallet-query.eml'), 'message/rfc822', 'parry.eml');
      const after = await stats(stack);
      expect(after.messages).toBe(first.messages + 1);
      expect(after.periods.find((p) => p.period === '2026-10-19')).toMatchObject({ messages: 1 });
    } finally {
      counted.mockRestore();
    }
  });
});

describe('manifest agent: a file name dated before 1970 or years ahead', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(manifestAgent);
  });
  afterAll(async () => stack?.close());

  it('counts on the day it arrived', async () => {
    const csv = Buffer.from('Waybill,Weight (kg),Pieces\n176-12345675,12.5,3\n');
    for (const name of ['1900-01-01-manifest.csv', '9999-12-31-manifest.csv', '2026-10-05-manifest.csv']) await sendFile(stack.client, csv, 'text/csv', name);
    const week = await stats(stack);
    expect(week.periods.find((p) => p.period === thisWeek())).toMatchObject({ messages: 2 });
    expect(week.periods.find((p) => p.period === '2026-10-05')).toMatchObject({ messages: 1 });
    expect(week.periods).toHaveLength(2);
  });
});
