// Issue 37: one lesson's trace, followed across the console, an agent and the authority by W3C
// traceparent over real HTTP, with one trace id from the outside client's first request on. The
// three services run in this process (one tracer provider, spans collected in memory); each
// server span says which service answered it (`learnables.service`).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnableAgent } from '@learnables/runtime';
import type { ReadableSpan } from '../shared/tracing/src/index.ts';
import { flushTracing, startTracing } from '../shared/tracing/src/index.ts';
import { InMemorySpanExporter } from '../shared/tracing/src/testing.ts';
import { wordAgent } from '../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './browser/console-harness.ts';
import { sendText, signInCookie, startConsoleStack } from './browser/console-harness.ts';
import { SendMessageRequest } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';

const exporter = new InMemorySpanExporter();
const tracing = await startTracing('learnables-test', { exporter });

const hex = (bytes: number) =>
  randomUUID()
    .replace(/-/g, '')
    .padEnd(32, '0')
    .slice(0, bytes * 2);
const traceparentFor = (traceId: string) => `00-${traceId}-${hex(8)}-01`;
const inTrace = (traceId: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
const servicesOf = (spans: ReadableSpan[]) =>
  new Set(spans.filter((span) => span.attributes['learnables.service'] !== undefined).map((span) => String(span.attributes['learnables.service'])));

describe('traces across the console, an agent and the authority', () => {
  let stack: ConsoleStack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startConsoleStack({ agents: [wordAgent as LearnableAgent<unknown, unknown>] });
    cookie = await signInCookie(stack.console.url, 'dana');
  });
  afterAll(async () => {
    await stack?.close();
    await tracing.shutdown();
  });

  it("continues an outside client's traceparent through the agent's request, pin, parse and journal, and its pin read on the authority", async () => {
    const traceId = hex(16);
    const client = await stack.sdk(stack.agents[0]!);
    const asked = (await client.sendMessage(
      SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'quince jelly' }] } }),
      {
        serviceParameters: { traceparent: traceparentFor(traceId) },
      },
    )) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    await flushTracing();
    const spans = inTrace(traceId);
    const names = spans.map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(['A2A SendMessage', 'learnables.pin', 'learnables.parse', 'learnables.journal.step']));
    expect(servicesOf(spans)).toEqual(new Set(['agent', 'authority']));
    const pin = spans.find((span) => span.name === 'learnables.pin')!;
    expect(pin.attributes['learnables.pins']).toEqual(['lists@1']);
  });

  it("follows one lesson from the console's answer, through the agent that resumes the task and the authority that writes and publishes it, on one trace id", async () => {
    const client = await stack.sdk(stack.agents[0]!);
    const task = await sendText(client, 'medlar cheese');
    const agentId = new URL(stack.agents[0]!.url).host.replace(/[^a-z0-9]+/g, '-');
    const traceId = hex(16);
    const answered = await fetch(`${stack.console.url}/api/agents/${agentId}/tasks/${task.id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, traceparent: traceparentFor(traceId) },
      body: JSON.stringify({ entry: 'alpha', lesson: { value: { word: 'medlar' }, reason: 'medlars are alpha' } }),
    });
    expect(answered.status).toBe(200);
    await flushTracing();
    const spans = inTrace(traceId);
    expect(servicesOf(spans)).toEqual(new Set(['console', 'agent', 'authority']));
    const names = spans.map((span) => span.name);
    // The console reads the task from the agent, posts the lesson to the authority, and answers the task.
    expect(names).toEqual(
      expect.arrayContaining(['A2A GetTask', 'POST /v1/lessons', 'learnables.lesson.write', 'learnables.changes.publish', 'A2A SendMessage']),
    );
    const write = spans.find((span) => span.name === 'learnables.lesson.write')!;
    expect(write.attributes).toMatchObject({ 'learnables.collection': 'lists', 'learnables.changed': true, 'learnables.version': 2 });
    // Every span of it hangs off the one the console's request opened.
    const root = spans.find((span) => span.attributes['learnables.service'] === 'console')!;
    expect(root.parentSpanContext?.traceId ?? traceId).toBe(traceId);
  });
});
