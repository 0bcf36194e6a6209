import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { CorrectionOutcomeSchema, StatsSchema } from '@learnables/protocol';
import { scratchDir, scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase, ScratchDir } from '@learnables/testing';
import { rpc, said, sdkClient, send, startAuthority, userData, userText } from './harness.test-support.ts';
import type { RunningAgent } from './start-agent.ts';
import { startLearnableAgent } from './start-agent.ts';
import { wordAgent } from './word-agent.test-support.ts';
import { MOST_CORRECTIONS } from './storage/corrections.ts';
import { silentLogger } from '@learnables/authority';

/** Corrections (SPEC §6.7) and the numbers that count them (§6.8), on a real agent over HTTP, on both stores. */
for (const engine of ['sqlite', 'postgres'] as const)
  describe(`correcting a completed task’s decision (${engine})`, () => {
    let dir: ScratchDir;
    let database: ScratchDatabase | undefined;
    let authority: Awaited<ReturnType<typeof startAuthority>>;
    let agent: RunningAgent;
    const alice = { authorization: 'Bearer alice-token' };

    beforeAll(async () => {
      dir = scratchDir('runtime-correct-');
      authority = await startAuthority();
      database = engine === 'postgres' ? await scratchPostgres('learnables_correct') : undefined;
      agent = await startLearnableAgent(wordAgent, {
        store: database?.url ?? `sqlite:${dir.path}/agent.db`,
        authority: { url: authority.url, token: 'agent-token' },
        users: { 'alice-token': 'alice', 'bob-token': 'bob' },
        logger: silentLogger(),
      });
    });

    afterAll(async () => {
      await agent.close();
      await authority.close();
      await database?.drop();
      authority.dir.remove();
      dir.remove();
    });

    const stats = async () => StatsSchema.parse(await (await fetch(`${agent.url}/learnables/stats?by=week`)).json());
    const week = async (period: string) => (await stats()).periods.find((p) => p.period === period);

    it('publishes correct and corrections among the declaration’s methods', async () => {
      const card = (await (await fetch(`${agent.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as {
        capabilities: { extensions: { params: { methods: Record<string, unknown> } }[] };
      };
      expect(card.capabilities.extensions[0]?.params.methods).toMatchObject({
        correct: { jsonrpc: 'learnables/correct', rest: '/learnables:correct' },
        corrections: { jsonrpc: 'learnables/corrections', rest: '/learnables:corrections' },
      });
    });

    it('records who said a decision was wrong, and why, leaves the task as decided, and counts it in the week of the message', async () => {
      const { client } = await sdkClient(agent.url, { token: 'alice-token' });
      // Decided without asking: 'banana' is beta's word.
      const task = await send(client, userText('date:2026-09-07 banana cake'));
      expect(said(task).extension).toMatchObject({ decidedBy: 'rules', findings: { list: { winner: 'beta' } } });
      await send(client, userText('date:2026-09-08 banana pie'));
      expect(await week('2026-09-07')).toEqual({ period: '2026-09-07', messages: 2, questions: 0, questionsPer100: 0, corrected: 0, correctedUnasked: 0 });

      const answered = await rpc(
        agent.url,
        'learnables/correct',
        { taskId: task.id, entry: 'List alpha', correctedBy: 'Dana', reason: 'The cake order is alpha’s.' },
        alice,
      );
      const outcome = CorrectionOutcomeSchema.parse(answered.body.result);
      expect(outcome).toMatchObject({
        taskId: task.id,
        finding: 'list',
        decided: { winner: 'beta', reads: 'Belongs to List beta' },
        entry: 'alpha',
        changed: true,
        correctedBy: 'Dana',
        reason: 'The cake order is alpha’s.',
        corrections: 1,
      });

      // The task itself is not rewritten: it still says what its pinned version decided.
      const again = await client.getTask({ tenant: '', id: task.id, historyLength: 1 });
      expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(said(again).extension).toMatchObject({ decidedBy: 'rules', findings: { list: { winner: 'beta' } } });

      expect(await week('2026-09-07')).toMatchObject({ messages: 2, questions: 0, corrected: 1, correctedUnasked: 1 });
      expect(await stats()).toMatchObject({ corrected: 1, correctedUnasked: 1 });
      // This instance's count of corrections it recorded (the shared database's standing ones are the stats above).
      expect(await (await fetch(`${agent.url}/metrics`)).text()).toMatch(/^learnables_corrections_total\{[^}]*agent="word-lists"[^}]*\} 1$/m);

      // The same correction twice records one.
      const twice = await rpc(agent.url, 'learnables/correct', { taskId: task.id, entry: 'alpha', correctedBy: 'Dana', reason: 'again' }, alice);
      expect(twice.body.result).toMatchObject({ changed: false, entry: 'alpha', corrections: 1, reason: 'The cake order is alpha’s.' });

      // On REST too, and read back in order; corrected back to what it decided, it no longer counts.
      const back = await fetch(`${agent.url}/a2a/rest/learnables:correct`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...alice },
        body: JSON.stringify({ taskId: task.id, entry: 'beta', correctedBy: 'Eli', reason: 'Dana misread it: beta after all.' }),
      });
      expect(back.status).toBe(200);
      expect(await back.json()).toMatchObject({ changed: true, entry: 'beta', corrections: 2 });
      const listed = await rpc(agent.url, 'learnables/corrections', { taskId: task.id }, alice);
      expect((listed.body.result as { corrections: { entry: string; correctedBy: string }[] }).corrections.map((c) => [c.entry, c.correctedBy])).toEqual([
        ['alpha', 'Dana'],
        ['beta', 'Eli'],
      ]);
      expect(await week('2026-09-07')).toMatchObject({ corrected: 0, correctedUnasked: 0 });
    });

    it('counts an operator’s answer corrected later apart from decisions made without asking', async () => {
      const { client } = await sdkClient(agent.url, { token: 'alice-token' });
      const asking = await send(client, userText('date:2026-09-14 kiwi'));
      expect(asking.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const notYet = await rpc(agent.url, 'learnables/correct', { taskId: asking.id, entry: 'alpha', correctedBy: 'Dana', reason: 'r' }, alice);
      expect(notYet.body.error).toMatchObject({ code: -32602, data: { error: 'not-correctable' } });
      expect((notYet.body.error!.data as { message: string }).message).toMatch(/still waiting for an answer/);

      const done = await send(client, userData({ entry: 'alpha' }, asking));
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const fixed = await rpc(
        agent.url,
        'learnables/correct',
        { taskId: asking.id, finding: 'list', entry: 'beta', correctedBy: 'Dana', reason: 'Kiwis are beta’s.' },
        alice,
      );
      expect(fixed.body.result).toMatchObject({ changed: true, decided: { winner: 'alpha' }, entry: 'beta' });
      expect(await week('2026-09-14')).toMatchObject({ messages: 1, questions: 1, corrected: 1, correctedUnasked: 0 });
    });

    it('refuses in words: no token, another’s task, an entry that does not exist, a finding the task did not decide, neither entry nor none', async () => {
      const { client } = await sdkClient(agent.url, { token: 'alice-token' });
      const task = await send(client, userText('banana split'));
      const base = { taskId: task.id, correctedBy: 'Dana', reason: 'wrong' };

      const anonymous = await rpc(agent.url, 'learnables/correct', { ...base, entry: 'alpha' });
      expect(anonymous.body.error).toMatchObject({ data: { error: 'unauthorized' } });
      const bob = await rpc(agent.url, 'learnables/correct', { ...base, entry: 'alpha' }, { authorization: 'Bearer bob-token' });
      expect(bob.body.error).toMatchObject({ data: { error: 'unknown-task' } });
      const bobReads = await rpc(agent.url, 'learnables/corrections', { taskId: task.id }, { authorization: 'Bearer bob-token' });
      expect(bobReads.body.error).toMatchObject({ data: { error: 'unknown-task' } });
      const nobody = await rpc(agent.url, 'learnables/correct', { ...base, entry: 'gamma' }, alice);
      expect(nobody.body.error).toMatchObject({ data: { error: 'unknown-entry', known: ['alpha', 'beta'] } });
      expect((nobody.body.error!.data as { message: string }).message).toBe(
        '"gamma" is not one of the lists now; name one of them (by its key or name), or correct it to none.',
      );
      const finding = await rpc(agent.url, 'learnables/correct', { ...base, finding: 'colour', entry: 'alpha' }, alice);
      expect(finding.body.error).toMatchObject({ data: { error: 'malformed', field: 'finding', message: 'This task decided no "colour"; it decided list.' } });
      const neither = await rpc(agent.url, 'learnables/correct', base, alice);
      expect(neither.body.error).toMatchObject({ code: -32602, data: { error: 'malformed' } });
      expect((neither.body.error!.data as { message: string }).message).toMatch(/exactly one of entry .* or none/);
      const long = await rpc(agent.url, 'learnables/correct', { ...base, entry: 'alpha', reason: 'x'.repeat(2001) }, alice);
      expect(long.body.error).toMatchObject({ data: { error: 'malformed' } });
      expect((long.body.error!.data as { message: string }).message).toMatch(/reason must be at most 2,000 characters/);
      const unknown = await rpc(agent.url, 'learnables/correct', { ...base, taskId: 'no-such-task', entry: 'alpha' }, alice);
      expect(unknown.body.error).toMatchObject({ data: { error: 'unknown-task' } });

      // None of those wrote anything.
      const listed = await rpc(agent.url, 'learnables/corrections', { taskId: task.id }, alice);
      expect(listed.body.result).toEqual({ taskId: task.id, corrections: [] });
    });

    it('two corrections at once: each is recorded or refused in words, none lost silently', async () => {
      const { client } = await sdkClient(agent.url, { token: 'alice-token' });
      const task = await send(client, userText('date:2026-09-28 banana jam'));
      const answers = await Promise.all(
        [{ entry: 'alpha' }, { none: true }, { entry: 'alpha' }, { none: true }].map((to, i) =>
          rpc(agent.url, 'learnables/correct', { taskId: task.id, ...to, correctedBy: `clerk ${i}`, reason: 'at once' }, alice),
        ),
      );
      for (const answer of answers) {
        if (answer.body.error)
          expect(answer.body.error.data).toMatchObject({
            error: 'conflict',
            message: 'Someone corrected this decision at the same moment; look at the task again before correcting it.',
          });
      }
      const recorded = ((await rpc(agent.url, 'learnables/corrections', { taskId: task.id }, alice)).body.result as { corrections: { correctedBy: string }[] })
        .corrections;
      const changed = answers.filter((answer) => (answer.body.result as { changed?: boolean } | undefined)?.changed === true);
      expect(recorded.length).toBe(changed.length);
      expect(recorded.length).toBeGreaterThan(0);
    });

    it('bounds how many times one decision is corrected, so what corrections returns and each correction costs stay bounded', async () => {
      const { client } = await sdkClient(agent.url, { token: 'alice-token' });
      const task = await send(client, userText('date:2026-10-05 banana bread'));
      // Back and forth: each one says something other than what stands, so each is recorded.
      for (let i = 0; i < MOST_CORRECTIONS; i++) {
        const answer = await rpc(
          agent.url,
          'learnables/correct',
          { taskId: task.id, entry: i % 2 === 0 ? 'alpha' : 'beta', correctedBy: 'Dana', reason: `round ${i}` },
          alice,
        );
        expect(answer.body.result).toMatchObject({ changed: true, corrections: i + 1 });
      }
      const past = await rpc(agent.url, 'learnables/correct', { taskId: task.id, none: true, correctedBy: 'Dana', reason: 'once more' }, alice);
      expect(past.body.error).toMatchObject({ code: -32602, data: { error: 'not-correctable' } });
      expect((past.body.error!.data as { message: string }).message).toBe(
        `This decision has been corrected ${MOST_CORRECTIONS} times already, the most one decision takes; nothing was written. Settle it among the people correcting it, then teach or take back a lesson instead.`,
      );
      // Saying what stands already still answers, writing nothing.
      const same = await rpc(agent.url, 'learnables/correct', { taskId: task.id, entry: 'beta', correctedBy: 'Dana', reason: 'same' }, alice);
      expect(same.body.result).toMatchObject({ changed: false, corrections: MOST_CORRECTIONS });
      const listed = (await rpc(agent.url, 'learnables/corrections', { taskId: task.id }, alice)).body.result as { corrections: unknown[] };
      expect(listed.corrections).toHaveLength(MOST_CORRECTIONS);
    });

    it('corrects to "none of these": the decision should have named nobody', async () => {
      const { client } = await sdkClient(agent.url, { token: 'alice-token' });
      const task = await send(client, userText('date:2026-09-21 banana newsletter'));
      const none = await rpc(agent.url, 'learnables/correct', { taskId: task.id, none: true, correctedBy: 'Dana', reason: 'A newsletter; nobody’s.' }, alice);
      expect(none.body.result).toMatchObject({ changed: true, none: true, decided: { winner: 'beta' } });
      expect(none.body.result).not.toHaveProperty('entry');
      expect(await week('2026-09-21')).toMatchObject({ corrected: 1, correctedUnasked: 1 });
    });
  });
