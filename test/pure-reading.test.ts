import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { createEmailAgent } from '@learnables/email-agent';
import type { LoopStack } from './support/loop-stack.ts';
import { answer, callMethod, mailboxEmail, reread, said, sendFile, startLoop } from './support/loop-stack.ts';

/**
 * Issue 35, class 10: reading is pure and reread writes nothing (SPEC §4.6, the runtime's contract),
 * so what a later message is asked cannot depend on what was reread or previewed meanwhile. The email
 * agent remembers whom a sender's mail was decided for (it steers the suggestion), and that memory is
 * written only when a task completes: never by a reread, a preview, or a reading that asked.
 */

const email = mailboxEmail;

const call = callMethod;

/** Reread a message that was never sent as a task. */
const rereadMessage = (agentUrl: string, bytes: Buffer) =>
  call(agentUrl, 'learnables/reread', {
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw: bytes.toString('base64'), mediaType: 'message/rfc822' }] },
  });

/** What a question put to the person is, byte for byte: its words, its entries, its suggestion. */
function asked(task: Task): string {
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const { text, extension } = said(task);
  return JSON.stringify({ text, question: extension?.['question'], entries: extension?.['entries'], suggested: extension?.['suggested'] });
}

describe('reading is pure: rereads and previews leave the next question as it was (issue 35, class 10)', () => {
  let stack: LoopStack;
  let client: Client;
  beforeAll(async () => {
    // An agent of its own, so that no other test's messages are in its memory.
    stack = await startLoop(createEmailAgent());
    client = stack.client;
  });
  afterAll(async () => stack.close());

  // A desk of Brightwell's own (its domain bears the name), so Brightwell's reference format decides its mail (issue 35:
  // a stranger's format-only mail asks).
  const desk = 'Desk <ops@brightwell-desk.example>';
  const message = email(desk, 'Booking for Thursday');

  it('sends a message, rereads many others from the same sender and previews lessons, sends it again: the same question and suggestion', async () => {
    const first = await sendFile(client, message, 'message/rfc822', 'a.eml');
    const before = asked(first);
    expect(before).toContain('<ops@brightwell-desk\\\\.example>');

    // Messages from the same desk, each reread, never sent: two the seed's Brightwell format decides, two it
    // asks about (Northgate's and Kestrel's formats do not decide a Brightwell desk's mail); and the asking
    // task itself, reread by its id.
    const others: [ReturnType<typeof email>, boolean][] = [
      [email(desk, 'Chilled pallets BW-12345'), true],
      [email(desk, 'Pre-alert NGM/2026/1142'), false],
      [email(desk, 'Samples', 'Batch KP/2026/0042 arrives Friday.'), false],
      [email(desk, 'Dry goods BW-54321'), true],
    ];
    for (let round = 0; round < 5; round += 1) {
      for (const [other, decides] of others) {
        const reading = (await rereadMessage(stack.agent.url, other)) as { customer: { settled: boolean } };
        expect(reading.customer.settled).toBe(decides);
      }
      await reread(stack.agent.url, first.id);
    }
    // Lessons only previewed: one that would settle the asking message, one for another customer.
    for (const entry of ['northgate', 'brightwell-foods']) {
      await call(stack.agent.url, 'learnables/preview', {
        lesson: { collection: 'customers', entry, value: { pattern: '<ops@brightwell-desk\\.example>', where: 'from' }, taughtBy: 'dana', reason: 'tried' },
      });
    }

    const again = await sendFile(client, message, 'message/rfc822', 'a.eml');
    expect(asked(again)).toBe(before);
  });

  it('a task that completes is remembered: a message from that desk decided for Brightwell changes what the desk is offered', async () => {
    const decided = await sendFile(client, email(desk, 'Chilled pallets BW-12345'), 'message/rfc822', 'b.eml');
    expect(decided.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const next = await sendFile(client, message, 'message/rfc822', 'a.eml');
    expect(asked(next)).toContain('earlier mail for Brightwell Foods plc');
  });

  it('an answered task is remembered too, and a question left unanswered is not', async () => {
    const other = 'Yard <yard@another-desk.example>';
    const left = await sendFile(client, email(other, 'Collection Monday'), 'message/rfc822', 'c.eml');
    const before = asked(left);
    // A second question from the same sender, left unanswered: nothing was decided, nothing remembered.
    const unanswered = await sendFile(client, email(other, 'Collection Monday'), 'message/rfc822', 'c.eml');
    expect(asked(unanswered)).toBe(before);
    const answered = await answer(client, left, 'northgate');
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const after = await sendFile(client, email(other, 'Collection Monday'), 'message/rfc822', 'c.eml');
    expect(asked(after)).toContain('earlier mail for Northgate Motors Ltd');
  });
});
