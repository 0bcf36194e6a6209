import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { emailAgent } from '@learnables/email-agent';
import { largeEmail } from '@learnables/testing';
import type { LoopStack } from './support/loop-stack.ts';
import { answer, fixture, reread, said, sendFile, sendText, startLoop } from './support/loop-stack.ts';

const eml = (name: string) => fixture(`email/${name}`);

describe('the email agent, the whole loop over HTTP: ask, teach, settle, roll back', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
  });
  afterAll(async () => stack.close());

  it('asks, learns from a lesson, decides the next message from that sender about that customer, and asks again after a rollback', async () => {
    const { client, authority, agent } = stack;

    // 1. A pre-alert from Origin's billing desk for Northgate: no mark knows that sender, so the agent
    // asks. Origin writes about its consignee by name (a forwarder bills for several customers), so
    // what it offers is Origin's sender AND Northgate's name, not Origin's address alone.
    const first = await sendFile(client, eml('northgate-billing-prealert.eml'), 'message/rfc822', 'northgate-billing-prealert.eml');
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { text, extension: teach } = said(first);
    expect(text).toContain('Which customer does this message belong to?');
    const northgateName = '(?:^|[^0-9a-z])Northgate\\s+Motors(?:$|[^0-9a-z])';
    expect(teach).toMatchObject({
      collection: 'customers',
      version: 1,
      suggested: { pattern: northgateName, where: 'any', sender: '<billing@origin\\.example>' },
    });
    expect((teach!.entries as { key: string }[]).map((e) => e.key)).toContain('northgate');

    // 2. The operator answers; answering alone writes nothing.
    const answered = await answer(client, first, 'northgate');
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await authority.client.history('customers')).activations).toHaveLength(1);

    // 3. The application posts the lesson (the suggestion, confirmed) to the authority.
    const outcome = await authority.client.postLesson({
      collection: 'customers',
      entry: 'northgate',
      value: teach!.suggested as Record<string, unknown>,
      taughtBy: 'dana@warehouse.example',
      reason: "Northgate's billing desk sends the pre-alerts",
    });
    expect(outcome).toEqual({
      collection: 'customers',
      entry: 'northgate',
      changed: true,
      version: 2,
      audit: `northgate learned: matches '${northgateName}' in the any of mail from '<billing@origin\\.example>'`,
      says: "the words 'Northgate Motors' anywhere in mail from billing@origin.example",
    });

    // 4. Reread of the same message now settles, on version 2, in the agent's words.
    expect(await reread(agent.url, first.id)).toEqual({
      customer: { settled: true, winner: 'northgate', reads: expect.stringContaining('Northgate Motors Ltd') as string, version: 2 },
    });

    // 5. A second task — another message from the same sender, naming Northgate in its attached statement — is decided without asking.
    const second = await sendFile(client, eml('northgate-billing-statement-csv.eml'), 'message/rfc822', 'statement.eml');
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(second).extension).toMatchObject({ versions: { customers: 2 }, decidedBy: 'rules' });

    // The look-alike domain is not claimed by the lesson.
    const lookalike = await sendFile(client, eml('hollis-toys-origin-example-near-miss.eml'), 'message/rfc822', 'near-miss.eml');
    expect(said(lookalike).extension?.winner ?? said(lookalike).text).not.toContain('Northgate');

    // 6. Roll back to version 1: a third message from that sender asks again.
    await authority.client.rollback('customers', { version: 1, author: 'sam', reason: 'taught too early' });
    const third = await sendFile(client, eml('northgate-billing-storage-invoice-html.eml'), 'message/rfc822', 'invoice.eml');
    expect(third.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(said(third).extension).toMatchObject({ version: 1 });
  });

  it('accepts the plain text of a whole message too', async () => {
    const task = await sendText(stack.client, eml('brightwell-bw-88213-chilled-pallets.eml').toString('utf8'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(task).text).toContain('Brightwell');
  });

  it('reads a message with a 25 MB attachment over HTTP, and keeps serving', async () => {
    const big = largeEmail();
    const task = await sendFile(stack.client, big, 'message/rfc822', 'scans.eml');
    expect([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED]).toContain(task.status?.state);
    const next = await sendFile(stack.client, eml('kestrel-qa-coa-pdf.eml'), 'message/rfc822', 'ok.eml');
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  }, 60_000);

  it('fails an unparseable message with a sentence, changes nothing, and keeps serving', async () => {
    for (const name of ['malformed-empty.eml', 'malformed-garbage-no-headers.eml']) {
      const task = await sendFile(stack.client, eml(name), 'message/rfc822', name);
      expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
      expect(said(task).text).toMatch(/\w+ .*\./);
    }
    const junk = await sendFile(stack.client, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)), 'message/rfc822', 'junk.eml');
    expect(junk.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const history = (await stack.authority.client.history('customers')).activations;
    expect(history.every((a) => a.kind !== 'lesson' || a.author === 'dana@warehouse.example')).toBe(true);
    const ok = await sendFile(stack.client, eml('kestrel-qa-coa-pdf.eml'), 'message/rfc822', 'ok.eml');
    expect(ok.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
