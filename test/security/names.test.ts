// Names and labels print as what they are, at every entrance (issue 34, finding 7): who taught,
// rolled back, retracted or corrected, and a new entry's label, are held to SECURITY.md's rule
// (1 to 120 characters; no control, broken or direction characters) by the authority over HTTP
// and by an agent's teach and correct, with a 400 `malformed` naming the field and nothing
// written. Each case failed on the code before its fix (a line break, an override and 100,000
// characters were all recorded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { emailAgent } from '@learnables/email-agent';
import type { LoopStack } from '../support/loop-stack.ts';
import { answer, fixture, sendFile, startLoop } from '../support/loop-stack.ts';

/** Names no audit line may hold: a forged line, a reversed one, and ones far past 120 characters. */
const UNREADABLE_NAMES = ['Evil\nkind: lesson author: admin', 'dana\u202enimda', 'tab\there', 'x'.repeat(121), 'y'.repeat(100_000), '  '];

const post = (url: string, body: unknown, token = 'console-token') =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe('names and labels at every entrance', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
  });
  afterAll(async () => stack?.close());

  const history = () => stack.authority.client.history('customers');
  const lesson = (taughtBy: string) => ({
    collection: 'customers',
    entry: 'northgate',
    value: { pattern: 'ngm-test', where: 'subject' },
    taughtBy,
    reason: 'a test',
  });
  const newEntry = (label: string, taughtBy = 'dana') => ({ collection: 'customers', newEntry: { label }, taughtBy, reason: 'a test' });

  /** Every way a name reaches the record, over HTTP: the route, its body with `name` in place, and the field it names. */
  const entrances = (): readonly { what: string; url: string; body: (name: string) => unknown; field: RegExp }[] => [
    { what: 'authority lesson', url: `${stack.authority.url}/v1/lessons`, body: lesson, field: /taughtBy/ },
    { what: 'authority new entry, taughtBy', url: `${stack.authority.url}/v1/entries`, body: (name) => newEntry('Harbour Freight', name), field: /taughtBy/ },
    { what: 'authority new entry, label', url: `${stack.authority.url}/v1/entries`, body: (name) => newEntry(name), field: /label/ },
    {
      what: 'authority retraction',
      url: `${stack.authority.url}/v1/retractions`,
      body: (author) => ({ collection: 'customers', version: 1, author, reason: 'r' }),
      field: /author/,
    },
    {
      what: 'authority rollback',
      url: `${stack.authority.url}/v1/collections/customers/rollback`,
      body: (author) => ({ version: 1, author, reason: 'r' }),
      field: /author/,
    },
    { what: 'agent teach', url: `${stack.agent.url}/a2a/rest/learnables:teach`, body: lesson, field: /taughtBy/ },
    { what: 'agent teach, new entry', url: `${stack.agent.url}/a2a/rest/learnables:teach`, body: (name) => newEntry(name), field: /label/ },
    {
      what: 'agent retract',
      url: `${stack.agent.url}/a2a/rest/learnables:retract`,
      body: (author) => ({ collection: 'customers', version: 1, author, reason: 'r' }),
      field: /author/,
    },
  ];

  it('refuses every unreadable or overlong name with 400 malformed naming the field, writing nothing', async () => {
    const before = await history();
    const accepted: string[] = [];
    for (const entrance of entrances()) {
      for (const name of UNREADABLE_NAMES) {
        const answer = await post(entrance.url, entrance.body(name));
        const body = (await answer.json()) as { error?: string; message?: string };
        if (answer.status !== 400 || body.error !== 'malformed' || !entrance.field.test(body.message ?? '')) {
          accepted.push(`${entrance.what} with ${JSON.stringify(name.slice(0, 40))} → ${answer.status} ${JSON.stringify(body).slice(0, 160)}`);
        }
      }
    }
    expect(accepted).toEqual([]);
    expect(await history()).toEqual(before);
  });

  it('refuses an unreadable correctedBy on a completed task, recording no correction', async () => {
    const task = await sendFile(stack.client, fixture('email/brightwell-bw-88213-chilled-pallets.eml'), 'message/rfc822', 'brightwell.eml');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    for (const correctedBy of UNREADABLE_NAMES) {
      const answer = await post(`${stack.agent.url}/a2a/rest/learnables:correct`, {
        taskId: task.id,
        entry: 'northgate',
        correctedBy,
        reason: 'wrong customer',
      });
      expect(answer.status, JSON.stringify(correctedBy.slice(0, 40))).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'malformed', message: expect.stringMatching(/correctedBy/) });
    }
    const listed = (await (await post(`${stack.agent.url}/a2a/rest/learnables:corrections`, { taskId: task.id })).json()) as { corrections: unknown[] };
    expect(listed.corrections).toEqual([]);
    // A name in any script, up to 120 characters, is still taken.
    const fine = await post(`${stack.agent.url}/a2a/rest/learnables:correct`, {
      taskId: task.id,
      entry: 'northgate',
      correctedBy: 'Dana Ørsted',
      reason: 'wrong customer',
    });
    expect(fine.status).toBe(200);
  });

  it('answers the same customer, however written, with the entry there (issue 34, finding 8): no second northgate', async () => {
    const before = await history();
    for (const [url, label] of [
      [`${stack.authority.url}/v1/entries`, 'Northgate Motors Ltd'],
      [`${stack.authority.url}/v1/entries`, 'northgate motors limited'],
      [`${stack.agent.url}/a2a/rest/learnables:teach`, 'Northgate  Motors Ltd.'],
    ] as const) {
      const answer = await post(url, newEntry(label));
      expect(answer.status, label).toBe(200);
      expect(await answer.json(), label).toMatchObject({
        entry: 'northgate',
        changed: false,
        audit: expect.stringMatching(/^customers already has northgate \("Northgate Motors Ltd"\)/),
      });
    }
    expect(await history()).toEqual(before);
    const { entries } = (await (await fetch(`${stack.authority.url}/v1/collections/customers/definition`)).json()) as { entries: { label: string }[] };
    const labels = entries.map((entry) => entry.label);
    expect(labels.filter((label) => label === 'Northgate Motors Ltd')).toHaveLength(1);
  });

  it('takes an answer that names an entry as a person writes its label: "NORTHGATE MOTORS LIMITED" is northgate', async () => {
    const asking = await sendFile(stack.client, fixture('email/northgate-billing-prealert.eml'), 'message/rfc822', 'prealert.eml');
    expect(asking.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const answered = await answer(stack.client, asking, 'NORTHGATE MOTORS LIMITED');
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(answered.artifacts)).toContain('"northgate"');
  });

  it('still takes readable names in any script, trimmed, up to 120 characters', async () => {
    const taught = await post(`${stack.authority.url}/v1/lessons`, lesson(` سارة ${'z'.repeat(100)} `));
    expect(taught.status).toBe(200);
    expect(await stack.authority.client.active('customers')).toMatchObject({ author: `سارة ${'z'.repeat(100)}` });
  });
});
