import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { LEARNABLES_URI, fieldsToRender } from '@learnables/protocol';
import { seedsFolder, thresholdAgent, weightLimitKind } from '@learnables/threshold-agent';
import type { LoopStack } from './support/loop-stack.ts';
import { answer, reread, said, sendText, startLoop } from './support/loop-stack.ts';

async function sendParcel(client: Client, parcel: { category: string; weightKg: number }): Promise<Task> {
  const result = await client.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: parcel }] } }));
  if (!('status' in result)) throw new Error('the agent answered with a message, not a task');
  return result as Task;
}

const postLessonOverHttp = (url: string, path: string, value: Record<string, unknown>) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer console-token' },
    body: JSON.stringify({ collection: 'weight-limits', entry: 'furniture', value, taughtBy: 'dana@warehouse.example', reason: 'typed in words' }),
  });

describe('the threshold agent, the whole loop over HTTP, on the same runtime and authority paths as the others', () => {
  let stack: LoopStack;
  let authority: LoopStack['authority'];
  let agent: LoopStack['agent'];
  let client: LoopStack['client'];

  beforeAll(async () => {
    stack = await startLoop(thresholdAgent, { kinds: [weightLimitKind], seeds: [seedsFolder] });
    ({ authority, agent, client } = stack);
  });
  afterAll(async () => stack.close());

  it('asks about furniture, learns the limit "30" typed in a text box, and checks the next heavy parcel without asking', async () => {
    // The card declares a field of kind "number"; a client draws it as a text box.
    const declaration = agent.card.capabilities?.extensions.find((e) => e.uri === LEARNABLES_URI)?.params as { lessonFields: unknown };
    expect(fieldsToRender(declaration.lessonFields)).toEqual([expect.objectContaining({ name: 'maxKg', control: 'text', declaredKind: 'number' })]);

    // 1. Furniture has no limit yet: the agent asks, with a teach block naming the category and suggesting nothing.
    const first = await sendParcel(client, { category: 'furniture', weightKg: 32 });
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { text, extension: teach } = said(first);
    expect(text).toBe('Does a 32 kg furniture parcel need a second check?');
    expect(teach).toEqual({
      collection: 'weight-limits',
      question: 'Does a 32 kg furniture parcel need a second check?',
      entries: [
        { key: 'check', label: 'Yes, check it' },
        { key: 'pass', label: 'No, let it through' },
      ],
      entry: 'furniture',
      version: 1,
    });

    // 2. The operator types 30 in the text box: the lesson carries the string "30".
    const outcome = await authority.client.postLesson({
      collection: 'weight-limits',
      entry: 'furniture',
      value: { maxKg: '30' },
      taughtBy: 'dana@warehouse.example',
      reason: 'the house rule for furniture',
    });
    expect(outcome).toEqual({
      collection: 'weight-limits',
      entry: 'furniture',
      changed: true,
      version: 2,
      audit: 'furniture parcels over 30 kg get a second check',
      says: 'parcels over 30 kg get a second check',
    });
    const again = await authority.client.postLesson({
      collection: 'weight-limits',
      entry: 'furniture',
      value: { maxKg: 30 },
      taughtBy: 'sam',
      reason: 'same rule',
    });
    expect(again).toMatchObject({ changed: false, version: 2 });

    // 3. Reread of the first parcel settles under version 2, and leaves its task asking.
    expect(await reread(agent.url, first.id)).toEqual({
      secondCheck: { settled: true, winner: 'check', reads: '32 kg is over the 30 kg limit for furniture: second check', version: 2 },
    });
    expect((await client.getTask({ id: first.id, historyLength: 10, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    // 4. The first task stays pinned to version 1: the operator's answer decides it.
    const answered = await answer(client, first, 'check');
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(answered)).toMatchObject({
      text: '32 kg furniture parcel: second check, as the operator answered',
      extension: { versions: { 'weight-limits': 1 }, decidedBy: 'operator', answeredBy: 'dana' },
    });

    // 5. A second task settles without asking, on version 2, by the rule.
    const second = await sendText(client, 'furniture 41 kg');
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(second)).toMatchObject({
      text: '41 kg is over the 30 kg limit for furniture: second check',
      extension: { versions: { 'weight-limits': 2 }, decidedBy: 'rules' },
    });
    const light = await sendParcel(client, { category: 'furniture', weightKg: 12 });
    expect(said(light).text).toBe('12 kg is within the 30 kg limit for furniture: no second check');
  });

  it('refuses the limit "thirty" with 422 in the learnable\'s own words, at the authority and through the agent, and writes nothing', async () => {
    const before = (await authority.client.history('weight-limits')).activations.length;
    const refusal = {
      error: 'unlearnable',
      message: '"thirty" is not a weight in kilograms; give it in figures, e.g. 30.',
      field: 'maxKg',
    };
    const atAuthority = await postLessonOverHttp(authority.url, '/v1/lessons', { maxKg: 'thirty' });
    expect(atAuthority.status).toBe(422);
    expect(await atAuthority.json()).toEqual(refusal);
    const throughAgent = await postLessonOverHttp(agent.url, '/a2a/rest/learnables:teach', { maxKg: 'thirty' });
    expect(throughAgent.status).toBe(422);
    expect(await throughAgent.json()).toEqual(refusal);
    expect((await authority.client.history('weight-limits')).activations).toHaveLength(before);
  });

  it('fails a parcel of a category it keeps no limit for, naming the categories, and keeps serving', async () => {
    const toys = await sendText(client, 'toys 3');
    expect(toys.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(said(toys).text).toBe('I keep no weight limit for "toys" parcels; the categories I know are books, electronics, furniture, tyres.');
    const books = await sendText(client, 'books 26');
    expect(said(books).text).toBe('26 kg is over the 25 kg limit for books: second check');
  });
});
