// How much of its input a task keeps (issue 15): the message a client sent is kept whole only up to
// a limit, past it as the size and SHA-256 of each large part; what the agent read is journaled only
// up to another, past it the message is refused and nothing is kept. Before the bound, a 37 MB email
// was stored whole, as a 49 MB row written four times (an agent's database grew 430 MB in 8 messages).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetTaskRequest, Role, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { createEmailAgent } from '@learnables/email-agent';
import { largeEmail } from '@learnables/testing';
import type { LoopStack } from '../support/loop-stack.ts';
import { answer, fixture, reread, said, sendFile, sendText, startLoop } from '../support/loop-stack.ts';

const NOT_KEPT = 'learnables-runtime/not-kept';

describe('the input a task keeps', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(createEmailAgent(), { keptInput: { message: 64 * 1024, input: 32 * 1024 } });
  });
  afterAll(async () => stack?.close());

  const stored = async (task: Task): Promise<Task> => stack.client.getTask(GetTaskRequest.fromJSON({ id: task.id, historyLength: 100 }));

  it('keeps a message larger than the limit as its digest, and still reads, rereads and answers it', async () => {
    const email = largeEmail({ attachmentBytes: 1_000_000 });
    const task = await sendFile(stack.client, email, 'message/rfc822', 'scans.eml');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    const kept = await stored(task);
    expect(JSON.stringify(kept).length).toBeLessThan(64 * 1024);
    const [part, ...others] = kept.history.find((message) => message.role === Role.ROLE_USER)!.parts;
    expect(others).toEqual([]);
    expect(part?.metadata?.[NOT_KEPT]).toEqual({
      bytes: email.byteLength,
      sha256: createHash('sha256').update(email).digest('hex'),
      mediaType: 'message/rfc822',
    });
    expect(part?.content).toEqual({
      $case: 'text',
      value: expect.stringMatching(
        /^scans\.eml, message\/rfc822 \(1\.4 MB\) was read when it arrived and is not kept: this agent keeps 66 kB of a message\. SHA-256 [0-9a-f]{64}\.$/,
      ),
    });
    // The client that sent it is not sent its 1.4 MB back either.
    expect(JSON.stringify(task).length).toBeLessThan(64 * 1024);

    // What the agent read is in the journal, so rereading and answering need nothing more.
    const read = (await stack.agent.journal.recordedFor([task.id], 'parse')).get(task.id);
    expect(read).toMatchObject({ subject: 'Scans for OB-55120' });
    expect(await reread(stack.agent.url, task.id)).toMatchObject({ customer: { settled: false } });
    const answered = await answer(stack.client, task, 'northgate');
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('keeps a message within the limit whole', async () => {
    const task = await sendFile(stack.client, fixture('email/kestrel-qa-coa-pdf.eml'), 'message/rfc822', 'coa.eml');
    const [part] = (await stored(task)).history.find((message) => message.role === Role.ROLE_USER)!.parts;
    expect(part?.metadata?.[NOT_KEPT]).toBeUndefined();
    expect(part?.content?.$case).toBe('raw');
  });

  it('refuses a message whose reading is larger than the journal keeps, in a sentence, and journals nothing of it', async () => {
    const words = Array.from({ length: 8_000 }, (_, at) => `word${at}`).join(' ');
    const task = await sendText(stack.client, `From: Kestrel QA <qa@kestrel.example>\nSubject: Long notes\n\n${words}`);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(said(task).text).toBe(
      'What this agent read from this message takes more than 33 kB to keep, the most it keeps for one task; nothing was decided. Send it in smaller pieces.',
    );
    expect((await stack.agent.journal.recordedFor([task.id], 'parse')).size).toBe(0);
  });
});
