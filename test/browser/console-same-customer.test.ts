// "A new customer…" in the console, named as one that is there (issue 34, finding 8): the clerk
// who types "Northgate Motors Limited" beside the seed's "Northgate Motors Ltd" is answered with
// northgate, told it was there already, and the task is decided for it; nothing is written. It
// failed on the code before the fix (a second entry, northgate-motors-limited, was added).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import { loadSeeds } from '@learnables/authority';
import { emailAgent } from '@learnables/email-agent';
import type { LearnableAgent } from '@learnables/runtime';
import { learnableKinds, seedFolders } from '@learnables/stack';
import { fixture } from '../support/loop-stack.ts';
import type { ConsoleStack } from './console-harness.ts';
import { signInCookie, startConsoleStack } from './console-harness.ts';

describe('the console, adding a customer that is there', () => {
  let stack: ConsoleStack;
  let cookie = '';
  beforeAll(async () => {
    stack = await startConsoleStack({
      agents: [emailAgent as LearnableAgent<unknown, unknown>],
      kinds: learnableKinds,
      seed: async (authority) => {
        for (const folder of seedFolders) await loadSeeds(authority, folder);
      },
    });
    cookie = await signInCookie(stack.console.url, 'dana');
  });
  afterAll(async () => stack?.close());

  it('answers with the entry there, says so, and writes nothing', async () => {
    const client = await stack.sdk(stack.agents[0]!);
    const asking = (await client.sendMessage(
      SendMessageRequest.fromJSON({
        message: {
          messageId: randomUUID(),
          role: 'ROLE_USER',
          parts: [{ raw: fixture('email/northgate-billing-prealert.eml').toString('base64'), mediaType: 'message/rfc822', filename: 'prealert.eml' }],
        },
      }),
    )) as Task;
    expect(asking.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const before = (await stack.authority.client.history('customers')).activations.length;
    const agentId = new URL(stack.agents[0]!.url).host.replace(/[^a-z0-9]+/g, '-');
    const response = await fetch(`${stack.console.url}/api/agents/${agentId}/tasks/${asking.id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cookie.split(';')[0]!, origin: stack.console.url },
      body: JSON.stringify({ newEntry: { label: 'Northgate Motors Limited' } }),
    });
    const body = (await response.json()) as { added?: { entry: string; changed: boolean; audit: string }; task?: { state: string } };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.added).toMatchObject({
      entry: 'northgate',
      changed: false,
      audit: 'customers already has northgate ("Northgate Motors Ltd"), which is how "Northgate Motors Limited" reads; nothing was added',
    });
    expect((await stack.authority.client.history('customers')).activations.length).toBe(before);
    const task = await client.getTask({ tenant: '', id: asking.id, historyLength: 1 });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(task.artifacts)).toContain('"northgate"');
  });
});
