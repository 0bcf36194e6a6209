// The completed task's `metadata[URI]` (SPEC §4.4) is published as the Outcome schema, and what the
// agents send validates against it — both the zod schema and the committed JSON Schema file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { validate } from '@learnables/conformance';
import { emailAgent } from '@learnables/email-agent';
import { LEARNABLES_URI } from '@learnables/protocol';
import type { LoopStack } from './support/loop-stack.ts';
import { answer, fixture, said, sendFile, startLoop } from './support/loop-stack.ts';

describe('the outcome of a completed task', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
  });
  afterAll(async () => stack.close());

  it('is a TeachBlock while asking and an Outcome once completed, by the operator or by the rules', async () => {
    const { client, authority } = stack;
    const asked = await sendFile(client, fixture('email/northgate-billing-prealert.eml'), 'message/rfc822', 'a.eml');
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(validate('teach-block', said(asked).extension)).toEqual({ ok: true, problems: '' });
    expect(validate('outcome', said(asked).extension).ok).toBe(false);

    const byOperator = await answer(client, asked, 'northgate');
    expect(byOperator.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const operatorOutcome = said(byOperator).extension;
    expect(validate('outcome', operatorOutcome)).toEqual({ ok: true, problems: '' });
    expect(operatorOutcome).toMatchObject({
      versions: { customers: 1 },
      decidedBy: 'operator',
      findings: { customer: { settled: true, winner: 'northgate', collection: 'customers' } },
    });

    await authority.client.postLesson({
      collection: 'customers',
      entry: 'northgate',
      value: said(asked).extension!.suggested as Record<string, unknown>,
      taughtBy: 'dana',
      reason: 'billing desk',
    });
    const byRules = await sendFile(client, fixture('email/northgate-billing-statement-csv.eml'), 'message/rfc822', 'b.eml');
    expect(byRules.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(validate('outcome', said(byRules).extension)).toEqual({ ok: true, problems: '' });
    expect(said(byRules).extension).toMatchObject({ versions: { customers: 2 }, decidedBy: 'rules' });
    // The artifact repeats the versions under the same key.
    expect(byRules.artifacts[0]?.metadata?.[LEARNABLES_URI]).toEqual({ versions: { customers: 2 } });
  });
});
