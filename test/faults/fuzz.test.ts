import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { CustomerMarks, emailAgent, matchMarks, messageFields } from '@learnables/email-agent';
import { defineCollection } from '@learnables/learnable';
import { manifestAgent } from '@learnables/manifest-agent';
import type { LoopStack } from '../support/loop-stack.ts';
import { fixture, said, sendFile, startLoop } from '../support/loop-stack.ts';

/** A refusal a person can read: words and spaces, a sentence, not a status code or a stack trace. */
function expectSentence(message: unknown): void {
  expect(typeof message).toBe('string');
  const text = message as string;
  expect(text.length).toBeGreaterThan(10);
  expect(text).toMatch(/\s/);
  expect(text).not.toMatch(/^\d{3}\b|\n\s+at /);
}

const postRaw = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('bad input, tried at scale', () => {
  let email: LoopStack;
  let manifest: LoopStack;
  beforeAll(async () => {
    [email, manifest] = await Promise.all([startLoop(emailAgent), startLoop(manifestAgent)]);
  });
  afterAll(async () => {
    await email.close();
    await manifest.close();
  });

  it('takes any lesson value without crashing: each is either learned (one new version) or refused in a sentence, writing nothing', async () => {
    const value = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 }),
      fc.record({
        pattern: fc.oneof(fc.string(), fc.string({ minLength: 2000, maxLength: 20_000 }), fc.constantFrom('(', 'a**', '[', '\\', '(?<n>x)', '.*', 'x{2,1}')),
        where: fc.constantFrom('from', 'subject', 'any', 'headers', '', 42),
      }),
      fc.letrec((tie) => ({ nested: fc.oneof({ depthSize: 'small' }, fc.string(), fc.dictionary(fc.string(), tie('nested'), { maxKeys: 3 })) })).nested,
      fc.jsonValue(),
    );
    const authority = email.authority;
    await fc.assert(
      fc.asyncProperty(value, async (candidate) => {
        const before = (await authority.client.history('customers', { limit: 1 })).activations[0]!.version;
        const response = await postRaw(
          `${authority.url}/v1/lessons`,
          JSON.stringify({ collection: 'customers', entry: 'northgate', value: candidate, taughtBy: 'fuzz', reason: 'fuzz' }),
          { authorization: 'Bearer console-token' },
        );
        const body = (await response.json()) as { changed?: boolean; version?: number; message?: string };
        const after = (await authority.client.history('customers', { limit: 1 })).activations[0]!.version;
        if (response.ok) {
          expect(after).toBe(body.changed ? before + 1 : before);
        } else {
          expect([400, 413, 422]).toContain(response.status);
          expectSentence(body.message);
          expect(after).toBe(before);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('treats __proto__ in a lesson value as data: refused, nothing polluted, nothing written', async () => {
    const before = (await email.authority.client.history('customers')).activations.length;
    const response = await postRaw(
      `${email.authority.url}/v1/lessons`,
      '{"collection":"customers","entry":"northgate","value":{"__proto__":{"polluted":true},"pattern":"x","where":"from"},"taughtBy":"fuzz","reason":"r"}',
      { authorization: 'Bearer console-token' },
    );
    expect(response.status).toBe(422);
    expectSentence(((await response.json()) as { message: string }).message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await email.authority.client.history('customers')).activations).toHaveLength(before);
  });

  it('answers any JSON-RPC body with a JSON-RPC answer, never a crash, and keeps serving', async () => {
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          jsonrpc: fc.constantFrom('2.0', '1.0', 2),
          id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
          method: fc.oneof(fc.string(), fc.constantFrom('SendMessage', 'GetTask', 'learnables/reread', 'learnables/teach', 'message/send')),
          params: fc.jsonValue(),
        })
        .map((v) => JSON.stringify(v)),
      fc.string(),
    );
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        const response = await postRaw(`${email.agent.url}/a2a/jsonrpc`, raw, { 'A2A-Version': '1.0' });
        expect(response.status).toBeLessThan(500);
        const text = await response.text();
        if (response.headers.get('content-type')?.includes('json')) {
          const answer = JSON.parse(text) as { error?: { message?: string } };
          if (answer.error) expect(typeof answer.error.message).toBe('string');
        }
      }),
      { numRuns: 150 },
    );
    expect((await fetch(`${email.agent.url}/healthz`)).ok).toBe(true);
  });

  it('reads or refuses mangled emails with a sentence, and asks or decides the rest', async () => {
    const names = readdirSync(fileURLToPath(new URL('../../fixtures/email/', import.meta.url))).filter((n) => n.endsWith('.eml'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 40 }),
        fc.nat(),
        async (name, flips, cut) => {
          const bytes = Buffer.from(fixture(`email/${name}`));
          for (const [at, byte] of flips) if (bytes.length > 0) bytes[at % bytes.length] = byte;
          const mangled = bytes.subarray(0, bytes.length === 0 ? 0 : Math.max(1, cut % (bytes.length + 1)));
          const task = await sendFile(email.client, mangled, 'message/rfc822', name);
          const state = task.status?.state;
          expect([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_FAILED]).toContain(state);
          if (state === TaskState.TASK_STATE_FAILED) expectSentence(said(task).text);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads or refuses mangled spreadsheets with a sentence, never hanging', async () => {
    const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('01-basic.xlsx', '02-title-blank-rows.xlsx', '04-excel-types.xlsx', '06-semicolon-latin1.csv'),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 20 }),
        fc.nat(),
        async (name, flips, cut) => {
          const bytes = Buffer.from(fixture(`manifests/${name}`));
          for (const [at, byte] of flips) bytes[at % bytes.length] = byte;
          const mangled = bytes.subarray(0, Math.max(1, cut % (bytes.length + 1)));
          const task = await sendFile(manifest.client, mangled, name.endsWith('.csv') ? 'text/csv' : XLSX, name);
          if (task.status?.state === TaskState.TASK_STATE_FAILED) expectSentence(said(task).text);
          else expect([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED]).toContain(task.status?.state);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('matches a pattern built to backtrack catastrophically against a 1 MB message in linear time', () => {
    const evil = defineCollection('customers', [
      new CustomerMarks('evil', 'Evil Ltd', [
        { pattern: '(a+)+$', where: 'body' },
        { pattern: '(a|aa)+b', where: 'body' },
        { pattern: '(.*a){12}', where: 'body' },
      ]),
    ]);
    const message = (size: number) => ({ from: { address: 'x@y.example', name: 'X' }, subject: 's', body: `${'a'.repeat(size)}!`, attachments: [] });
    const time = (size: number) => {
      const started = performance.now();
      const verdict = matchMarks(evil, messageFields(message(size)), 1);
      expect(verdict).toBeDefined();
      return performance.now() - started;
    };
    time(10_000);
    const small = Math.min(time(100_000), time(100_000));
    const large = Math.min(time(1_000_000), time(1_000_000));
    // Backtracking would take longer than the universe has; linear time takes ten times as long for ten times the text.
    expect(large / Math.max(small, 0.5)).toBeLessThan(40);
  });
});
