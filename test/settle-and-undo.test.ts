import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { emailAgent } from '@learnables/email-agent';
import { LEARNABLES_URI, PreviewResultSchema, RetractionOutcomeSchema } from '@learnables/protocol';
import type { PreviewResult, Refusal } from '@learnables/protocol';
import { seedsFolder, thresholdAgent, weightLimitKind } from '@learnables/threshold-agent';
import type { LoopStack } from './support/loop-stack.ts';
import { answer, mailboxEmail, reread, said, sendFile, startLoop } from './support/loop-stack.ts';

const email = mailboxEmail;

const sendEmail = (client: Client, from: string, subject: string) => sendFile(client, email(from, subject), 'message/rfc822', 'message.eml');

/** One extension method on the agent's JSON-RPC endpoint, as a client names it from the card. */
async function call<T>(agentUrl: string, method: string, params: unknown): Promise<{ result?: T; error?: { code: number; message: string; data: Refusal } }> {
  const response = await fetch(`${agentUrl}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: 'Bearer console-token' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: T; error?: { code: number; message: string; data: Refusal } };
}

async function ok<T>(agentUrl: string, method: string, params: unknown): Promise<T> {
  const body = await call<T>(agentUrl, method, params);
  if (body.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Answer a question with a data part (an extension-aware client) or with words (any client). */
async function reply(client: Client, task: Task, part: { data: Record<string, unknown> } | { text: string }): Promise<Task> {
  return (await client.sendMessage(
    SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: task.id, contextId: task.contextId, parts: [part] } }),
  )) as Task;
}

/** Everything a read-only method must leave as it was: tasks, journal rows, ledger rows, versions. */
async function footprint(stack: LoopStack, collection: string) {
  // The SDK's own tasks table, beside the runtime's: untyped here, counted only.
  const db = stack.agent.database.db as unknown as {
    selectFrom(table: string): {
      select(pick: (eb: { fn: { countAll(): { as(name: string): unknown } } }) => unknown): { executeTakeFirst(): Promise<{ n: number | string }> };
    };
  };
  const count = async (table: string) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      ).n,
    );
  return {
    tasks: await count('tasks'),
    journal: await stack.agent.journal.count(),
    ledger: await stack.agent.ledger.count(),
    activations: (await stack.authority.client.history(collection)).activations.length,
    active: (await stack.authority.client.active(collection)).version,
  };
}

const methods = (stack: LoopStack) =>
  (stack.agent.card.capabilities!.extensions.find((e) => e.uri === LEARNABLES_URI)!.params as { methods: Record<string, { jsonrpc: string }> }).methods;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`every question settled and every mistake undone, email agent over HTTP on ${engine}`, () => {
    let stack: LoopStack;
    let m: Record<string, { jsonrpc: string }>;
    beforeAll(async () => {
      stack = await startLoop(emailAgent, { engine });
      m = methods(stack);
    });
    afterAll(async () => stack.close());

    it('publishes retract and preview in the card, and says new customers may be added and a message may belong to none', () => {
      const declaration = stack.agent.card.capabilities?.extensions.find((e) => e.uri === LEARNABLES_URI)?.params as Record<string, unknown>;
      expect(declaration).toMatchObject({ addsEntries: true, admitsNone: true });
      expect(m).toMatchObject({ retract: { jsonrpc: 'learnables/retract' }, preview: { jsonrpc: 'learnables/preview' } });
    });

    it('a new customer: added and taught through the teach method, the question answered with it, the next message decided unasked', async () => {
      const { client, agent } = stack;
      const first = await sendEmail(client, 'Harbour Ops <ops@harbour-sons.example>', 'Booking for Thursday');
      expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const teach = said(first).extension!;
      const pinned = teach.version as number;
      expect((teach.entries as { key: string }[]).map((e) => e.key)).not.toContain('harbour-sons-ltd');

      const added = await ok<{ entry: string; changed: boolean; version: number }>(agent.url, m.teach!.jsonrpc, {
        collection: 'customers',
        newEntry: { label: 'Harbour & Sons Ltd' },
        taughtBy: 'dana@warehouse.example',
        reason: 'a new customer since Monday',
      });
      expect(added).toMatchObject({ entry: 'harbour-sons-ltd', changed: true, version: pinned + 1 });
      // Adding it again (a double click) changes nothing.
      expect(
        await ok(agent.url, m.teach!.jsonrpc, { collection: 'customers', newEntry: { label: 'Harbour & Sons Ltd' }, taughtBy: 'dana', reason: 'again' }),
      ).toMatchObject({
        changed: false,
        version: added.version,
      });
      const taught = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, {
        collection: 'customers',
        entry: 'harbour-sons-ltd',
        value: teach.suggested,
        taughtBy: 'dana@warehouse.example',
        reason: 'their operations desk',
      });

      // The task stays on its pinned version; the answer names the entry added since, and says so.
      const answered = await answer(client, first, 'harbour-sons-ltd');
      expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(said(answered).extension).toMatchObject({
        versions: { customers: pinned },
        decidedBy: 'operator',
        addedIn: { entry: 'harbour-sons-ltd', version: taught.version },
        findings: { customer: { settled: true, winner: 'harbour-sons-ltd' } },
      });

      const second = await sendEmail(client, 'Harbour Ops <ops@harbour-sons.example>', 'Another booking');
      expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(said(second).extension).toMatchObject({ decidedBy: 'rules', findings: { customer: { winner: 'harbour-sons-ltd' } } });
    });

    it('an answer naming an entry that exists nowhere is asked again', async () => {
      const task = await sendEmail(stack.client, 'someone@nowhere.example', 'Hello');
      const again = await answer(stack.client, task, 'no-such-customer');
      expect(again.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(said(again).text).toContain('"no-such-customer" is not one of the choices');
    });

    it('"none of these", as data or as words, completes the task with no winner and writes nothing', async () => {
      for (const part of [{ data: { none: true, answeredBy: 'dana' } }, { text: 'None of these' }]) {
        const task = await sendEmail(stack.client, 'noreply@pcs.example', 'Port Community System maintenance');
        expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
        const before = await footprint(stack, 'customers');
        const done = await reply(stack.client, task, part);
        expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(said(done).extension).toMatchObject({ decidedBy: 'operator', none: true });
        expect((said(done).extension!.findings as { customer: { winner?: string } }).customer.winner).toBeUndefined();
        const after = await footprint(stack, 'customers');
        expect({ activations: after.activations, active: after.active }).toEqual({ activations: before.activations, active: before.active });
      }
    });

    it('a typo taught, the fix taught, the typo retracted: the fix stays, the typo alone asks again; retracting twice makes one version', async () => {
      const { client, agent, authority } = stack;
      const lesson = (pattern: string) => ({
        collection: 'customers',
        entry: 'northgate',
        value: { pattern, where: 'from' },
        taughtBy: 'dana',
        reason: 'pre-alerts',
      });
      const typo = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, lesson('<billing@orign\\.example>'));
      const fix = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, lesson('<billing@origin\\.example>'));
      const onlyTypo = await sendEmail(client, 'billing@orign.example', 'Pre-alert');
      expect(said(onlyTypo).extension).toMatchObject({ findings: { customer: { winner: 'northgate' } } });

      const before = await footprint(stack, 'customers');
      const retracted = RetractionOutcomeSchema.parse(
        await ok(agent.url, m.retract!.jsonrpc, { collection: 'customers', version: typo.version, author: 'sam', reason: 'a typo' }),
      );
      expect(retracted).toEqual({
        collection: 'customers',
        entry: 'northgate',
        retracted: typo.version,
        changed: true,
        version: fix.version + 1,
        audit: "northgate no longer matches '<billing@orign\\.example>' in the from",
        says: 'mail from billing@orign.example',
      });
      const after = await footprint(stack, 'customers');
      // Retraction wrote one activation at the authority, and nothing at the agent.
      expect(after).toEqual({ ...before, activations: before.activations + 1, active: retracted.version });

      expect(await ok(agent.url, m.retract!.jsonrpc, { collection: 'customers', version: typo.version, author: 'sam', reason: 'again' })).toMatchObject({
        changed: false,
        version: retracted.version,
      });
      expect((await authority.client.history('customers')).activations).toHaveLength(after.activations);

      // v5 decides like v4 without the typo: the fix still decides, the typo alone asks again.
      const entries = await authority.client.entries('customers', retracted.version);
      const fixed = await authority.client.entries('customers', fix.version);
      const marksOf = (list: typeof entries) =>
        (list.entries.find((e) => e.key === 'northgate')!.state as { marks: { pattern: string }[] }).marks.map((mark) => mark.pattern);
      expect(marksOf(entries)).toEqual(marksOf(fixed).filter((pattern) => pattern !== '<billing@orign\\.example>'));
      expect(said(await sendEmail(client, 'billing@origin.example', 'Pre-alert')).extension).toMatchObject({ findings: { customer: { winner: 'northgate' } } });
      expect((await sendEmail(client, 'billing@orign.example', 'Pre-alert')).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    });

    it("a rollback's answer lists the activations it takes out of effect", async () => {
      const { authority } = stack;
      const active = await authority.client.active('customers');
      const preview = await authority.client.rollbackPreview('customers', active.version - 1);
      expect(preview.undoes.map((a) => a.version)).toEqual([active.version]);
      const rolled = await authority.client.rollback('customers', { version: active.version - 1, author: 'sam', reason: 'checking' });
      expect(rolled.undoes).toEqual(preview.undoes);
      await authority.client.rollback('customers', { version: active.version, author: 'sam', reason: 'back again' });
    });

    it('preview leaves nothing behind in memory either: the senders it reads are not remembered as seen with the customers it tries', async () => {
      const { client, agent } = stack;
      // A desk of Brightwell's own (its domain bears the name): its reference format decides its mail (issue 35).
      const desk = `ops-${engine}@brightwell-desk.example`;
      // Decided for Brightwell by its reference: the agent remembers the desk as writing for Brightwell.
      const decided = await sendEmail(client, `Desk <${desk}>`, 'Chilled pallets BW-12345');
      expect(said(decided).extension).toMatchObject({ findings: { customer: { winner: 'brightwell-foods' } } });
      const asked = await sendEmail(client, `Desk <${desk}>`, 'Hello');
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      // A lesson that would settle the second message for Northgate, only previewed.
      const lesson = {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: `<${desk.replace(/\./g, '\\.')}>`, where: 'from' },
        taughtBy: 'dana',
        reason: 'tried',
      };
      const preview = PreviewResultSchema.parse(await ok(agent.url, m.preview!.jsonrpc, { lesson }));
      expect(preview.examples.find((e) => e.taskId === asked.id)).toMatchObject({ effect: 'settles', after: { winner: 'northgate' } });
      // The desk has still written for one customer only, so its address is what the next question offers.
      const next = await sendEmail(client, `Desk <${desk}>`, 'Booking for Friday');
      expect(said(next).text).not.toContain('lately written');
      expect(said(next).extension).toMatchObject({ suggested: { pattern: `<${desk.replace(/\./g, '\\.')}>`, where: 'from' } });
    });

    it('preview reports the recent message of another customer a lesson would claim, writes nothing, and agrees with a reread once taught', async () => {
      const { client, agent } = stack;
      const brightwell = await sendEmail(client, 'orders@brightwell-foods.example', 'Chilled pallets');
      expect(said(brightwell).extension).toMatchObject({ findings: { customer: { winner: 'brightwell-foods' } } });

      const lesson = {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: 'brightwell-foods\\.example', where: 'from' },
        taughtBy: 'dana',
        reason: 'a shared portal',
      };
      const before = await footprint(stack, 'customers');
      const preview: PreviewResult = PreviewResultSchema.parse(await ok(agent.url, m.preview!.jsonrpc, { lesson }));
      expect(await footprint(stack, 'customers')).toEqual(before);
      expect(preview).toMatchObject({ collection: 'customers', entry: 'northgate', changed: true, version: before.active });
      expect(preview.examined).toBeGreaterThanOrEqual(1);
      const example = preview.examples.find((e) => e.taskId === brightwell.id);
      expect(example).toMatchObject({
        finding: 'customer',
        effect: 'unsettles',
        now: { settled: true, winner: 'brightwell-foods' },
        after: { settled: false },
      });
      expect(preview.counts.unsettles).toBeGreaterThanOrEqual(1);

      // A refusal comes back word for word as teach gives it.
      const bad = { ...lesson, value: { pattern: 'brightwell-foods\\.example(', where: 'from' } };
      const refusedPreview = await call(agent.url, m.preview!.jsonrpc, { lesson: bad });
      const refusedTeach = await call(agent.url, m.teach!.jsonrpc, bad);
      expect(refusedPreview.error!.data).toEqual(refusedTeach.error!.data);
      expect(refusedPreview.error!.data.error).toBe('unlearnable');

      await ok(agent.url, m.teach!.jsonrpc, lesson);
      const reading = await reread(agent.url, brightwell.id);
      expect({ settled: reading.customer!.settled, winner: reading.customer!.winner, reads: reading.customer!.reads }).toEqual({
        settled: example!.after.settled,
        winner: example!.after.winner,
        reads: example!.after.reads,
      });
    });
  });

  describe(`the same paths with a learnable whose value has no text (threshold agent) on ${engine}`, () => {
    let stack: LoopStack;
    let m: Record<string, { jsonrpc: string }>;
    beforeAll(async () => {
      stack = await startLoop(thresholdAgent, { kinds: [weightLimitKind], seeds: [seedsFolder], engine });
      m = methods(stack);
    });
    afterAll(async () => stack.close());

    const sendParcel = async (category: string, weightKg: number): Promise<Task> =>
      (await stack.client.sendMessage(
        SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { category, weightKg } }] } }),
      )) as Task;

    it('adds a category, teaches its limit, decides unasked; retracting the limit asks again; retracting twice makes one version', async () => {
      const { agent } = stack;
      const added = await ok<{ entry: string; version: number }>(agent.url, m.teach!.jsonrpc, {
        collection: 'weight-limits',
        newEntry: { label: 'Glassware' },
        taughtBy: 'dana',
        reason: 'we take glassware now',
      });
      expect(added).toMatchObject({ entry: 'glassware', version: 2 });
      expect((await sendParcel('glassware', 7)).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const limit = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, {
        collection: 'weight-limits',
        entry: 'glassware',
        value: { maxKg: 5 },
        taughtBy: 'dana',
        reason: 'fragile',
      });
      expect(said(await sendParcel('glassware', 7)).extension).toMatchObject({ decidedBy: 'rules', findings: { secondCheck: { winner: 'check' } } });

      const before = await footprint(stack, 'weight-limits');
      const retracted = await ok<{ changed: boolean; version: number; audit: string }>(agent.url, m.retract!.jsonrpc, {
        collection: 'weight-limits',
        version: limit.version,
        author: 'sam',
        reason: 'not agreed yet',
      });
      expect(retracted).toMatchObject({ changed: true, version: 4, audit: 'glassware parcels no longer have a 5 kg limit' });
      expect(await footprint(stack, 'weight-limits')).toEqual({ ...before, activations: before.activations + 1, active: 4 });
      expect(await ok(agent.url, m.retract!.jsonrpc, { collection: 'weight-limits', version: limit.version, author: 'sam', reason: 'again' })).toMatchObject({
        changed: false,
        version: 4,
      });
      expect((await sendParcel('glassware', 7)).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      // The added category holds no lesson any more, so it can be taken back too.
      expect(
        await ok(agent.url, m.retract!.jsonrpc, { collection: 'weight-limits', version: added.version, author: 'sam', reason: 'no glassware after all' }),
      ).toMatchObject({
        changed: true,
        version: 5,
      });
    });

    it('a limit typed wrong, fixed, and a later limit on another category: retracting the typo changes nothing, retracting the fix keeps the later limit', async () => {
      const { agent } = stack;
      const limit = (entry: string, maxKg: number | string) => ({
        collection: 'weight-limits',
        entry,
        value: { maxKg },
        taughtBy: 'dana',
        reason: 'house rule',
      });
      const typo = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, limit('tyres', '300 kg'));
      const fix = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, limit('tyres', 30));
      const later = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, limit('electronics', 10));
      expect([fix.version, later.version]).toEqual([typo.version + 1, typo.version + 2]);
      expect(said(await sendParcel('tyres', 35)).extension).toMatchObject({ findings: { secondCheck: { winner: 'check' } } });

      // The typo's value is no longer the limit (the fix replaced it): taking it back takes nothing, and says why.
      const before = await footprint(stack, 'weight-limits');
      expect(await ok(agent.url, m.retract!.jsonrpc, { collection: 'weight-limits', version: typo.version, author: 'sam', reason: 'a typo' })).toEqual({
        collection: 'weight-limits',
        entry: 'tyres',
        retracted: typo.version,
        changed: false,
        version: later.version,
        audit: 'tyres parcels no longer have a 300 kg limit (their limit is 30 kg now)',
      });
      expect(await footprint(stack, 'weight-limits')).toEqual(before);

      // Retracting the fix (earlier than the electronics limit) keeps that later lesson.
      const retracted = await ok<{ changed: boolean; version: number }>(agent.url, m.retract!.jsonrpc, {
        collection: 'weight-limits',
        version: fix.version,
        author: 'sam',
        reason: 'not agreed',
      });
      expect(retracted).toMatchObject({ changed: true, version: later.version + 1 });
      expect(await footprint(stack, 'weight-limits')).toEqual({ ...before, activations: before.activations + 1, active: retracted.version });
      const entries = (await stack.authority.client.entries('weight-limits', retracted.version)).entries;
      expect(Object.fromEntries(entries.map((e) => [e.key, (e.state as { maxKg: number | null }).maxKg]))).toMatchObject({
        tyres: null,
        electronics: 10,
        books: 25,
      });
      expect((await sendParcel('tyres', 35)).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(said(await sendParcel('electronics', 12)).extension).toMatchObject({ decidedBy: 'rules', findings: { secondCheck: { winner: 'check' } } });
    });

    it("a rollback's answer lists every activation it takes out of effect, oldest first, and rolling forward lists what it restores", async () => {
      const { agent, authority } = stack;
      const start = (await authority.client.active('weight-limits')).version;
      const added = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, {
        collection: 'weight-limits',
        newEntry: { label: 'Garden tools' },
        taughtBy: 'dana',
        reason: 'new line',
      });
      const taught = await ok<{ version: number }>(agent.url, m.teach!.jsonrpc, {
        collection: 'weight-limits',
        entry: 'garden-tools',
        value: { maxKg: 40 },
        taughtBy: 'dana',
        reason: 'house rule',
      });
      const retracted = await ok<{ version: number }>(agent.url, m.retract!.jsonrpc, {
        collection: 'weight-limits',
        version: taught.version,
        author: 'sam',
        reason: 'not yet',
      });
      const preview = await authority.client.rollbackPreview('weight-limits', start);
      expect(preview.undoes.map((a) => [a.version, a.kind])).toEqual([
        [added.version, 'entry-added'],
        [taught.version, 'lesson'],
        [retracted.version, 'retraction'],
      ]);
      const back = await authority.client.rollback('weight-limits', { version: start, author: 'sam', reason: 'start over' });
      expect(back).toMatchObject({ changed: true, version: start, undoes: preview.undoes, restores: [] });
      const forward = await authority.client.rollback('weight-limits', { version: retracted.version, author: 'sam', reason: 'as it was' });
      expect(forward.restores.map((a) => a.version)).toEqual([added.version, taught.version, retracted.version]);
      expect(forward.undoes).toEqual([]);
      // Rolling back to the version already active writes nothing.
      const history = (await authority.client.history('weight-limits')).activations.length;
      expect(await authority.client.rollback('weight-limits', { version: retracted.version, author: 'sam', reason: 'again' })).toMatchObject({
        changed: false,
        undoes: [],
        restores: [],
      });
      expect((await authority.client.history('weight-limits')).activations).toHaveLength(history);
    });

    it('preview of a lower limit reports the recent parcel it would change from pass to check, and agrees with a reread once taught', async () => {
      const { agent } = stack;
      const passed = await sendParcel('books', 22);
      expect(said(passed).extension).toMatchObject({ findings: { secondCheck: { winner: 'pass' } } });
      const lesson = { collection: 'weight-limits', entry: 'books', value: { maxKg: 20 }, taughtBy: 'dana', reason: 'lighter shelves' };
      const before = await footprint(stack, 'weight-limits');
      const preview = PreviewResultSchema.parse(await ok(agent.url, m.preview!.jsonrpc, { lesson }));
      expect(await footprint(stack, 'weight-limits')).toEqual(before);
      const example = preview.examples.find((e) => e.taskId === passed.id);
      expect(example).toMatchObject({
        finding: 'secondCheck',
        effect: 'changes',
        now: { settled: true, winner: 'pass' },
        after: { settled: true, winner: 'check' },
      });

      // A refusal comes back word for word as teach gives it.
      const bad = { ...lesson, value: { maxKg: 'heavy' } };
      expect((await call(agent.url, m.preview!.jsonrpc, { lesson: bad })).error!.data).toEqual((await call(agent.url, m.teach!.jsonrpc, bad)).error!.data);

      await ok(agent.url, m.teach!.jsonrpc, lesson);
      const reading = await reread(agent.url, passed.id);
      expect({ settled: reading.secondCheck!.settled, winner: reading.secondCheck!.winner, reads: reading.secondCheck!.reads }).toEqual({
        settled: example!.after.settled,
        winner: example!.after.winner,
        reads: example!.after.reads,
      });
    });

    it('"none of these" is not an answer to a yes-or-no question: it is asked again and nothing is written', async () => {
      const task = await sendParcel('tyres', 40);
      const before = await footprint(stack, 'weight-limits');
      const again = await reply(stack.client, task, { data: { none: true } });
      expect(again.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(said(again).text).toContain('"none of these" is not one here');
      const after = await footprint(stack, 'weight-limits');
      expect({ activations: after.activations, active: after.active }).toEqual({ activations: before.activations, active: before.active });
    });

    it('preview of a limit reports the parcels it would settle, writes nothing, and agrees with a reread once taught', async () => {
      const { agent } = stack;
      const asked = await sendParcel('furniture', 32);
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const lesson = { collection: 'weight-limits', entry: 'furniture', value: { maxKg: 30 }, taughtBy: 'dana', reason: 'house rule' };
      const before = await footprint(stack, 'weight-limits');
      const preview = PreviewResultSchema.parse(await ok(agent.url, m.preview!.jsonrpc, { lesson }));
      expect(await footprint(stack, 'weight-limits')).toEqual(before);
      const example = preview.examples.find((e) => e.taskId === asked.id);
      expect(example).toMatchObject({ effect: 'settles', now: { settled: false }, after: { settled: true, winner: 'check' } });
      expect(preview.counts.settles).toBeGreaterThanOrEqual(1);
      await ok(agent.url, m.teach!.jsonrpc, lesson);
      const reading = await reread(agent.url, asked.id);
      expect({ settled: reading.secondCheck!.settled, winner: reading.secondCheck!.winner, reads: reading.secondCheck!.reads }).toEqual({
        settled: example!.after.settled,
        winner: example!.after.winner,
        reads: example!.after.reads,
      });
    });
  });
}
