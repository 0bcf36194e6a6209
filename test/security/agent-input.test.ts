// What hostile input costs an agent, one finding of issue 15 (and 34) per case: lessons that claim every
// message or freeze matching, and inputs that cost far more to read than they weigh. Each case
// failed on the code before its fix; SECURITY.md says what each limit is and why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { emailAgent } from '@learnables/email-agent';
import { manifestAgent } from '@learnables/manifest-agent';
import type { LoopStack } from '../support/loop-stack.ts';
import { fixture, said, sendFile, startLoop } from '../support/loop-stack.ts';
// The manifest package's own builders of hostile workbooks (test support, not its public face).
import { longCellWorkbook, sparseWideWorkbook, wideWorkbook } from '../../agents/manifest/src/hostile-workbooks.test-support.ts';

/** An email carrying `forwards` base64 forwards of `parts` MIME parts each: each under the limit, all together over it. */
function forwardsOfParts(forwards: number, parts: number): string {
  const forward = (n: number) =>
    [
      'From: f@x.example',
      `Subject: forward ${n}`,
      'Content-Type: multipart/mixed; boundary="in"',
      '',
      ...Array.from({ length: parts }, (_, at) => `--in\nContent-Type: text/plain\n\npart ${at}`),
      '--in--',
    ].join('\n');
  const attached = Array.from({ length: forwards }, (_, n) =>
    [
      '--out',
      'Content-Type: message/rfc822',
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="f${n}.eml"`,
      '',
      Buffer.from(forward(n)).toString('base64'),
    ].join('\n'),
  );
  return [
    'From: a@b.example',
    'Subject: s',
    'Content-Type: multipart/mixed; boundary="out"',
    '',
    '--out',
    'Content-Type: text/plain',
    '',
    'see attached',
    ...attached,
    '--out--',
  ].join('\n');
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const teach = (stack: LoopStack, value: Record<string, unknown>) =>
  fetch(`${stack.agent.url}/a2a/rest/learnables:teach`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token' },
    body: JSON.stringify({ collection: 'customers', entry: 'northgate', value, taughtBy: 'mallory', reason: 'claim everything' }),
    signal: AbortSignal.timeout(30_000),
  });

describe('email agent: lessons that cost every later message', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
  });
  afterAll(async () => stack?.close());

  it('refuses every pattern that matches every message, in a sentence, and other customers keep their mail', async () => {
    const before = await stack.authority.client.history('customers');
    const taken: string[] = [];
    for (const pattern of ['.', '\\S', '[\\s\\S]', '(?s).', '@', '\\b', '[^\\x{0}]']) {
      for (const where of ['from', 'any']) {
        const answer = await teach(stack, { pattern, where });
        const body = (await answer.json()) as { message?: string };
        if (answer.status !== 422 || !/claim messages without evidence|no evidence of one customer/.test(body.message ?? '')) {
          taken.push(`${pattern} in the ${where} → ${answer.status} ${JSON.stringify(body)}`);
        }
      }
    }
    expect(taken).toEqual([]);
    expect(await stack.authority.client.history('customers')).toEqual(before);
    for (const [name, customer] of [
      ['brightwell-bw-88213-chilled-pallets.eml', 'brightwell-foods'],
      ['corvid-returns-rma-alternative.eml', 'corvid-electronics'],
      ['kestrel-qa-coa-pdf.eml', 'kestrel-pharma'],
    ]) {
      const task = await sendFile(stack.client, fixture(`email/${name}`), 'message/rfc822', name as string);
      expect(task.status?.state, name).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(said(task).extension, name).toMatchObject({ decidedBy: 'rules' });
      expect(JSON.stringify(task.artifacts), name).toContain(`"${customer}"`);
    }
  });

  it('counts the parts of forwarded messages against the one 1,000-part budget of the email', async () => {
    const task = await sendFile(stack.client, Buffer.from(forwardsOfParts(30, 60)), 'message/rfc822', 'forwards.eml');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(said(task).text).toBe('This email has more than 1,000 parts, counting those of the messages forwarded in it; I read at most 1,000 in all.');
  });

  it('refuses a short pattern that expands to too many states, so it never reaches the sets', async () => {
    const before = await stack.authority.client.history('customers');
    const answer = await teach(stack, { pattern: 'qN\\pL{300}', where: 'body' });
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { message: string }).message).toBe(
      '"qN\\pL{300}": this pattern expands to too many states to be matched quickly; use fewer repeats or a smaller class of characters.',
    );
    expect(await stack.authority.client.history('customers')).toEqual(before);
  });
});

describe('manifest agent: sheets that cost far more than they weigh', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(manifestAgent);
  });
  afterAll(async () => stack?.close());

  it('refuses 16,384 headings in a sentence instead of padding every row to them and journalling it', async () => {
    const task = await sendFile(stack.client, Buffer.from(wideWorkbook(16_384, 200)), XLSX, 'wide.xlsx');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(said(task).text).toBe(
      "'wide.xlsx' has 16,384 columns in its heading row; I read manifests of at most 256 columns. Delete the columns that are not part of the manifest and send it again.",
    );
  });

  it('reads 6,000 rows with a cell in column XFD as the three-column manifest they are', async () => {
    const task = await sendFile(stack.client, Buffer.from(sparseWideWorkbook(6_000)), XLSX, 'sparse.xlsx');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(task).text).toContain("reads weight from the 'Weight (kg)' column");
  }, 120_000);
});

describe('manifest agent: small files of long cells (issue 34)', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(manifestAgent);
  });
  afterAll(async () => stack?.close());

  const parsed = async (taskId: string) => (await stack.agent.journal.recordedFor([taskId], 'parse')).get(taskId);

  it('refuses a 14 kB workbook of 3.5-million-character cells in a sentence, and journals nothing of it', async () => {
    for (const rows of [1, 2]) {
      const bomb = Buffer.from(longCellWorkbook(rows, 3_500_000));
      expect(bomb.byteLength).toBeLessThan(24_000);
      const task = await sendFile(stack.client, bomb, XLSX, 'bomb.xlsx');
      expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
      expect(said(task).text).toBe(
        "'bomb.xlsx' has 3,500,000 characters in cell A2; I read cells of at most 32,767 characters, and no manifest's cell comes near that. Delete what is not part of the manifest and send it again.",
      );
      expect(await parsed(task.id)).toBeUndefined();
    }
  }, 120_000);

  it('keeps the rows of long cells it reads only up to two million characters; the rest are counted', async () => {
    // 200 rows of two 30,000-character cells (each one Excel holds): 12 million characters in 18 kB.
    const sheet = Buffer.from(longCellWorkbook(200, 30_000));
    const task = await sendFile(stack.client, sheet, XLSX, 'long.xlsx');
    expect([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED]).toContain(task.status?.state);
    const input = (await parsed(task.id)) as { rows: unknown[]; rowCount: number; truncated: boolean };
    expect(JSON.stringify(input).length).toBeLessThan(2_001_000);
    expect(input).toMatchObject({ rowCount: 200, truncated: true });
    expect(input.rows.length).toBe(33);
  }, 120_000);

  it('holds a CSV to the same: a cell longer than Excel holds is refused, long cells are kept up to two million characters', async () => {
    const huge = Buffer.from(`Waybill,Consignee\n176-00000010,${'y'.repeat(900_000)}\n`);
    const refused = await sendFile(stack.client, huge, 'text/csv', 'huge.csv');
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(said(refused).text).toBe(
      "'huge.csv' has 900,000 characters in cell B2; I read cells of at most 32,767 characters, and no manifest's cell comes near that. Delete what is not part of the manifest and send it again.",
    );
    expect(await parsed(refused.id)).toBeUndefined();
    const rows = Array.from({ length: 200 }, (_, at) => `176-${at},${'y'.repeat(30_000)}`);
    const long = await sendFile(stack.client, Buffer.from(['Waybill,Consignee', ...rows].join('\n')), 'text/csv', 'long.csv');
    const input = (await parsed(long.id)) as { rows: unknown[]; rowCount: number };
    expect(JSON.stringify(input).length).toBeLessThan(2_001_000);
    expect(input).toMatchObject({ rowCount: 200, truncated: true });
  }, 120_000);
});
