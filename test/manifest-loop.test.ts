import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { manifestAgent } from '@learnables/manifest-agent';
import type { LoopStack } from './support/loop-stack.ts';
import { answer, fixture, reread, said, sendFile, startLoop } from './support/loop-stack.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const sheet = (name: string) => fixture(`manifests/${name}`);

function resultOf(task: Task): { result: { columns: Record<string, string | null>; rows: Record<string, unknown>[] }; versions: Record<string, number> } {
  const part = task.artifacts.find((a) => a.artifactId === 'result')?.parts[0]?.content;
  if (part?.$case !== 'data') throw new Error('the task has no result artifact');
  return part.value as never;
}

describe('the manifest agent, the whole loop over HTTP, on the same runtime and authority paths', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(manifestAgent);
  });
  afterAll(async () => stack.close());

  it("asks which column holds the waybill, learns 'Air Waybill No', and maps the next manifest without asking", async () => {
    const { client, authority, agent } = stack;
    const first = await sendFile(client, sheet('08-air-waybill-no.xlsx'), XLSX, '08-air-waybill-no.xlsx');
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { text, extension: teach } = said(first);
    expect(text).toContain('Which column holds the waybill number?');
    expect(teach).toMatchObject({ collection: 'mappings', entry: 'waybill', suggested: { column: 'Air Waybill No' }, version: 1 });
    expect((teach!.entries as { key: string }[]).map((e) => e.key)).toContain('Air Waybill No');

    // The answer maps this sheet only.
    const answered = await answer(client, first, 'Air Waybill No');
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(answered).result.columns.waybill).toBe('Air Waybill No');
    expect(resultOf(answered).result.rows[0]).toMatchObject({ waybill: '17675326473' });
    expect((await authority.client.history('mappings')).activations).toHaveLength(1);

    // The lesson, through the same authority path as the email agent's.
    const outcome = await authority.client.postLesson({
      collection: 'mappings',
      entry: 'waybill',
      value: { column: 'Air Waybill No' },
      taughtBy: 'dana@warehouse.example',
      reason: 'the new forwarder heads it that way',
    });
    expect(outcome.audit).toBe("reads waybill from the 'Air Waybill No' column");
    const [latest] = (await authority.client.history('mappings')).activations;
    expect(latest).toMatchObject({ version: 2, author: 'dana@warehouse.example', audit: "reads waybill from the 'Air Waybill No' column" });

    const show = await reread(agent.url, first.id);
    expect(show.waybill).toEqual({
      settled: true,
      reads: "reads waybill from the 'Air Waybill No' column; 6 of 6 values in 'Air Waybill No' are air waybill numbers with a valid check digit",
      version: 2,
    });

    // A second task, another manifest with that heading: mapped without asking.
    const second = await sendFile(client, sheet('09-air-waybill-no-second.xlsx'), XLSX, '09-air-waybill-no-second.xlsx');
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(second)).toMatchObject({ versions: { mappings: 2 }, result: { columns: { waybill: 'Air Waybill No' } } });
    expect(resultOf(second).result.rows[0]).toMatchObject({ waybill: '006-90723474', consignee: 'Orchard Lane Foods' });
  });

  it('takes a correction of one field of a mapped sheet in words (a column is not an entry), and counts it as decided without asking', async () => {
    const { client, agent } = stack;
    const task = await sendFile(client, sheet('01-basic.xlsx'), XLSX, '01-basic.xlsx');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const findings = Object.keys((said(task).extension as { findings: Record<string, unknown> }).findings);
    expect(findings.length).toBeGreaterThan(1);
    const correct = async (params: Record<string, unknown>) => {
      const response = await fetch(`${agent.url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'learnables/correct',
          params: { taskId: task.id, correctedBy: 'dana', reason: 'that column holds the house numbers', ...params },
        }),
      });
      return (await response.json()) as { result?: Record<string, unknown>; error?: { data?: { error: string; field?: string; message: string } } };
    };
    // Several fields were read: which one was wrong must be said.
    const unnamed = await correct({ entry: 'Ref' });
    expect(unnamed.error?.data).toMatchObject({ error: 'malformed', field: 'finding' });
    expect(unnamed.error?.data?.message).toBe(`This task decided ${findings.length} things (${findings.join(', ')}); say which one was wrong.`);

    const fixed = await correct({ finding: 'waybill', entry: 'Master AWB' });
    expect(fixed.result).toMatchObject({ finding: 'waybill', entry: 'Master AWB', changed: true, corrections: 1 });
    expect(fixed.result).not.toHaveProperty('decided.winner');
    const stats = (await (await fetch(`${agent.url}/learnables/stats?by=week`)).json()) as { corrected: number; correctedUnasked: number };
    expect(stats).toMatchObject({ corrected: 1, correctedUnasked: 1 });
  });

  it('refuses bad spreadsheets with a sentence and keeps serving', async () => {
    for (const name of ['14-truncated.xlsx', '15-not-a-spreadsheet.xlsx', '17-zip-bomb.xlsx', '18-encrypted.xlsx', '13-empty-sheet.xlsx']) {
      const task = await sendFile(stack.client, sheet(name), XLSX, name);
      expect(task.status?.state, name).toBe(TaskState.TASK_STATE_FAILED);
      expect(said(task).text, name).toMatch(/^\S.* .*\.$/s);
    }
    const ok = await sendFile(stack.client, sheet('01-basic.xlsx'), XLSX, '01-basic.xlsx');
    expect(ok.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
