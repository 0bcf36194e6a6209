// Every error a service answers is a JSON sentence, in every NODE_ENV (issue 34, finding 9):
// express's own page answered `GET /a2a/rest/tasks/%E0%A4%A` with the stack and the install's
// node_modules paths. Each case failed on the code before its fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailAgent } from '@learnables/email-agent';
import type { LoopStack } from '../support/loop-stack.ts';
import { startLoop } from '../support/loop-stack.ts';

/** What a caller learns from an answer: its status, content type and body as text. */
async function asked(url: string, init: RequestInit = {}) {
  const answer = await fetch(url, init);
  return { status: answer.status, type: answer.headers.get('content-type') ?? '', text: await answer.text() };
}

/** Nothing of the machine: no stack frame, no path of the install. */
const tellsNothingOfTheMachine = (text: string) => {
  expect(text).not.toMatch(/node_modules|\bat [\w.<>]+ \(|\/work\/|<html|<pre>/i);
};

describe('error answers', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
  });
  afterAll(async () => stack?.close());

  it("on the REST binding: a path that is not percent-encoded text is a JSON problem in A2A's shape, not a page with the stack", async () => {
    for (const path of ['/a2a/rest/tasks/%E0%A4%A', '/a2a/rest/v1/tasks/%E0%A4%A', '/a2a/rest/tasks/%E0%A4%A:cancel']) {
      const answer = await asked(`${stack.agent.url}${path}`, { headers: { authorization: 'Bearer console-token' } });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.type, path).toMatch(/json/);
      tellsNothingOfTheMachine(answer.text);
      expect(JSON.parse(answer.text), path).toMatchObject({ error: { code: answer.status, message: expect.stringMatching(/\w+ \w+/) } });
    }
  });

  it('on the JSON-RPC binding: a JSON-RPC error object', async () => {
    const answer = await asked(`${stack.agent.url}/a2a/jsonrpc/%E0%A4%A`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.type).toMatch(/json/);
    tellsNothingOfTheMachine(answer.text);
    expect(JSON.parse(answer.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.any(String) } });
  });

  it('elsewhere: a refusal with a sentence, for a path it does not have', async () => {
    for (const path of ['/nothing-here', '/%E0%A4%A', '/learnables/%E0%A4%A']) {
      const answer = await asked(`${stack.agent.url}${path}`);
      expect(answer.type, path).toMatch(/json/);
      tellsNothingOfTheMachine(answer.text);
      expect(JSON.parse(answer.text), path).toMatchObject({ error: expect.any(String), message: expect.stringMatching(/\w+ \w+/) });
    }
  });

  it('the authority answers a path that is not percent-encoded text as malformed, in JSON', async () => {
    for (const path of ['/v1/collections/%E0%A4%A/history', '/v1/collections/%E0%A4%A/versions/1', '/v1/collections/%E0%A4%A/active']) {
      const answer = await asked(`${stack.authority.url}${path}`);
      expect(answer.status, path).toBe(400);
      expect(answer.type, path).toMatch(/json/);
      tellsNothingOfTheMachine(answer.text);
      expect(JSON.parse(answer.text), path).toEqual({ error: 'malformed', message: expect.stringMatching(/percent-encoded/) });
    }
  });
});
