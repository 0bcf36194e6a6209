// A client author's v0.3 view of the extension, driven with the SDK's own 0.3.14 client
// (installed under the alias @a2a-js/sdk-03): the question, reread by message with a v0.3 file
// part, teach, and the activation header echoed as v0.3 names it (SPEC §6.1, §7.1).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, Task } from '@a2a-js/sdk-03';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransport, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk-03/client';
import { emailAgent } from '@learnables/email-agent';
import { LEARNABLES_URI } from '@learnables/protocol';
import type { LoopStack } from './support/loop-stack.ts';
import { fixture, startLoop } from './support/loop-stack.ts';

/** What the 0.3 transport hands back from an extension method: the JSON-RPC response as sent. */
type Answer = { result?: unknown; error?: { message: string } };

const EML = fixture('email/northgate-billing-prealert.eml');

/** The pre-alert as a v0.3 message: a `kind: "file"` part with base64 bytes, a MIME type and a name. */
const v03Message = (): Message => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'file', file: { bytes: EML.toString('base64'), mimeType: 'message/rfc822', name: 'prealert.eml' } }],
});

describe('a v0.3 client (the SDK 0.3.14 client) and the extension methods', () => {
  let stack: LoopStack;
  let seen: Headers[];
  let fetchImpl: typeof fetch;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
    seen = [];
    // A v0.3 client activates with X-A2A-Extensions and sends no A2A-Version header.
    fetchImpl = async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', 'Bearer console-token');
      headers.set('X-A2A-Extensions', LEARNABLES_URI);
      const response = await fetch(input, { ...init, headers });
      seen.push(response.headers);
      return response;
    };
  });
  afterAll(async () => stack.close());

  it('asks, rereads the same mail sent as a v0.3 file part, teaches, and rereads it settled — on JSON-RPC', async () => {
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] }),
    ).createFromUrl(stack.agent.url);
    const asked = (await client.sendMessage({ message: v03Message() })) as Task;
    expect(asked.status.state).toBe('input-required');
    const block = asked.status.message?.metadata?.[LEARNABLES_URI] as { suggested: Record<string, unknown> };
    // Origin's desk names its consignee: Northgate's name on Origin's mail (SPEC §2.3.3).
    expect(block.suggested).toEqual({ pattern: '(?:^|[^0-9a-z])Northgate\\s+Motors(?:$|[^0-9a-z])', where: 'any', sender: '<billing@origin\\.example>' });

    const transport = new JsonRpcTransport({ endpoint: `${stack.agent.url}/a2a/jsonrpc`, fetchImpl });
    seen.length = 0;
    const before = (await transport.callExtensionMethod('learnables/reread', { message: v03Message() }, 1)) as Answer;
    expect(before.error).toBeUndefined();
    expect(before.result).toMatchObject({ customer: { settled: false } });
    expect(seen[0]!.get('x-a2a-extensions')).toBe(LEARNABLES_URI);
    expect(seen[0]!.get('a2a-extensions')).toBeNull();

    seen.length = 0;
    const taught = (await transport.callExtensionMethod(
      'learnables/teach',
      { collection: 'customers', entry: 'northgate', value: block.suggested, taughtBy: 'dana@warehouse.example', reason: 'billing desk' },
      2,
    )) as Answer;
    expect(taught.result).toMatchObject({ changed: true, version: 2 });
    expect(seen[0]!.get('x-a2a-extensions')).toBe(LEARNABLES_URI);

    const after = (await transport.callExtensionMethod('learnables/reread', { message: v03Message() }, 3)) as Answer;
    expect(after.result).toMatchObject({ customer: { settled: true, winner: 'northgate', version: 2 } });
    // Rolled back (version 1 active again) so the REST case below starts from the same rules.
    await stack.authority.client.rollback('customers', { version: 1, author: 'test', reason: 'start over' });
  });

  it('rereads a v0.3 file part on REST too, and echoes X-A2A-Extensions there', async () => {
    // The 0.3 REST client has no extension-method call; a v0.3 request is one without A2A-Version.
    const response = await fetch(`${stack.agent.url}/a2a/rest/learnables:reread`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer console-token', 'X-A2A-Extensions': LEARNABLES_URI },
      body: JSON.stringify({ message: v03Message() }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ customer: { settled: false, version: 1 } });
    expect(response.headers.get('x-a2a-extensions')).toBe(LEARNABLES_URI);
    // The 0.3 REST client still drives the core loop (so both bindings are covered by the old client).
    const rest = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new RestTransportFactory({ fetchImpl })],
        preferredTransports: ['HTTP+JSON'],
      }),
    ).createFromUrl(stack.agent.url);
    expect(((await rest.sendMessage({ message: v03Message() })) as Task).status.state).toBe('input-required');
  });

  it('a v1.0 request still gets the v1.0 header, and its v1.0 message read', async () => {
    const response = await fetch(`${stack.agent.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', 'A2A-Extensions': LEARNABLES_URI, authorization: 'Bearer console-token' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'learnables/reread',
        params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ raw: EML.toString('base64'), mediaType: 'message/rfc822' }] } },
      }),
    });
    expect(response.headers.get('a2a-extensions')).toBe(LEARNABLES_URI);
    expect(response.headers.get('x-a2a-extensions')).toBeNull();
    expect(((await response.json()) as { result: unknown }).result).toMatchObject({ customer: { settled: false } });
  });
});
