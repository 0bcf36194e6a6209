// Issue 37: a card that says what it requires and access errors a generic A2A client reads
// rightly. Each case failed on the code before: the card's security was empty with tokens
// required, a 401 had no WWW-Authenticate, a JSON-RPC 401 was a plain JSON body, teach refused with
// A2A's TaskNotFound code (-32001), the card was never signed, `provider.url` was the extension URI
// and `application/json` was twice in defaultInputModes.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentCard } from '@a2a-js/sdk';
import { SendMessageRequest, verifyAgentCardSignature } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import {
  ClientFactory as ClientFactory03,
  ClientFactoryOptions as ClientFactoryOptions03,
  JsonRpcTransportFactory as JsonRpcTransportFactory03,
} from '@a2a-js/sdk-03/client';
import { LEARNABLES_URI, UNAUTHORIZED_CODE } from '@learnables/protocol';
import type { RunningAgent } from '@learnables/runtime';
import { startLearnableAgent } from '@learnables/runtime';
import { thresholdAgent, weightLimitKind, seedsFolder } from '@learnables/threshold-agent';
import { createWire, verifyCardSignatures } from '@learnables/conformance';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { startSeededAuthority } from '../support/loop-stack.ts';

vi.setConfig({ testTimeout: 60_000 });

type Json = Record<string, any>;

const lesson = { collection: 'weight-limits', entry: 'furniture', value: { maxKg: 40 }, taughtBy: 'ops', reason: 'a heavier limit' };
const rpcBody = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 7, method, params });
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'A2A-Extensions': LEARNABLES_URI, ...headers } });
const cardOf = async (agent: RunningAgent, version?: string): Promise<Json> =>
  (await (await fetch(`${agent.url}/.well-known/agent-card.json`, { headers: version ? { 'A2A-Version': version } : {} })).json()) as Json;
const parcel = () =>
  SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { category: 'furniture', weightKg: 32 } }] } });

describe('the card and access errors', () => {
  let dir: ScratchDir;
  let authority: Awaited<ReturnType<typeof startSeededAuthority>>;
  let open: RunningAgent;
  let closed: RunningAgent;
  let keyPath: string;

  beforeAll(async () => {
    dir = scratchDir('card-');
    authority = await startSeededAuthority(dir, { kinds: [weightLimitKind], seeds: [seedsFolder] });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    keyPath = `${dir.path}/card-key.pem`;
    writeFileSync(keyPath, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const common = { authority: { url: authority.url, token: 'agent-token' }, users: { 'console-token': 'console' }, log: () => undefined };
    open = await startLearnableAgent(thresholdAgent, { ...common, store: `sqlite:${dir.path}/open.db` });
    closed = await startLearnableAgent(thresholdAgent, {
      ...common,
      store: `sqlite:${dir.path}/closed.db`,
      allowAnonymous: false,
      cardSigningKey: keyPath,
      provider: { organization: 'Harbour Freight Ltd', url: 'https://harbour.example' },
    });
  });
  afterAll(async () => {
    await open?.close();
    await closed?.close();
    await authority?.close();
    dir?.remove();
  });

  it('declares the bearer scheme and requires it on every call when tokens are required, in the v1.0 and the v0.3 card', async () => {
    const card = await cardOf(closed, '1.0');
    expect(card.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: expect.stringContaining('every call') } } });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    const legacy = await cardOf(closed);
    expect(legacy.protocolVersion).toBe('0.3');
    expect(legacy.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'Bearer', description: expect.any(String) } });
    expect(legacy.security).toEqual([{ bearer: [] }]);
  });

  it('declares the scheme but requires nothing of core methods when anonymous callers are served; teach and the other writers say they need it', async () => {
    const card = await cardOf(open, '1.0');
    expect(Object.keys(card.securitySchemes)).toEqual(['bearer']);
    expect(card.securityRequirements ?? []).toEqual([]);
    const methods = card.capabilities.extensions.find((e: Json) => e.uri === LEARNABLES_URI).params.methods as Json;
    expect(methods.teach.security).toEqual(['bearer']);
    expect(methods.retract.security).toEqual(['bearer']);
    expect(methods.preview.security).toEqual(['bearer']);
    expect(methods.correct.security).toEqual(['bearer']);
    expect(methods.reread.security).toBeUndefined();
  });

  it('names the provider at its own web address (configurable), and each input mode once', async () => {
    const card = await cardOf(open, '1.0');
    expect(card.provider.url).not.toBe(LEARNABLES_URI);
    expect(card.provider.url).toBe(new URL(open.url).origin);
    expect((await cardOf(closed, '1.0')).provider).toEqual({ organization: 'Harbour Freight Ltd', url: 'https://harbour.example' });
    expect(new Set(card.defaultInputModes).size).toBe(card.defaultInputModes.length);
  });

  it('answers a JSON-RPC teach with an empty Authorization header with a JSON-RPC error object, 401 and a Bearer challenge', async () => {
    const answer = await post(`${open.url}/a2a/jsonrpc`, rpcBody('learnables/teach', lesson), { authorization: '' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(`Bearer realm="${thresholdAgent.name}", error="invalid_request"`);
    const body = (await answer.json()) as Json;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: UNAUTHORIZED_CODE, data: { error: 'unauthorized' } } });
    expect(body.error.code).not.toBe(-32001);
    expect(body.error.message).toBe(body.error.data.message);
  });

  it('answers an anonymous JSON-RPC teach with the unauthorized code (not TaskNotFound), 401 and a challenge; REST keeps its Refusal body', async () => {
    const rpc = await post(`${open.url}/a2a/jsonrpc`, rpcBody('learnables/teach', lesson));
    expect(rpc.status).toBe(401);
    expect(rpc.headers.get('www-authenticate')).toBe(`Bearer realm="${thresholdAgent.name}"`);
    expect(((await rpc.json()) as Json).error).toMatchObject({ code: UNAUTHORIZED_CODE, data: { error: 'unauthorized' } });
    const rest = await post(`${open.url}/a2a/rest/learnables:teach`, JSON.stringify(lesson), { authorization: 'Bearer not-a-token' });
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toBe(`Bearer realm="${thresholdAgent.name}", error="invalid_token"`);
    expect(await rest.json()).toEqual({ error: 'unauthorized', message: 'That token is not one this agent accepts.' });
  });

  it('challenges a call without a token when tokens are required, on both bindings, and the authority challenges too', async () => {
    const rpc = await post(
      `${closed.url}/a2a/jsonrpc`,
      rpcBody('SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'x' }] } }),
    );
    expect(rpc.status).toBe(401);
    expect(rpc.headers.get('www-authenticate')).toBe(`Bearer realm="${thresholdAgent.name}"`);
    expect(((await rpc.json()) as Json).error.code).toBe(UNAUTHORIZED_CODE);
    const rest = await post(`${closed.url}/a2a/rest/message:send`, JSON.stringify({}));
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toBe(`Bearer realm="${thresholdAgent.name}"`);
    const onAuthority = await post(`${authority.url}/v1/lessons`, JSON.stringify(lesson), { authorization: 'Bearer nope' });
    expect(onAuthority.status).toBe(401);
    expect(onAuthority.headers.get('www-authenticate')).toBe('Bearer realm="learnables-authority", error="invalid_token"');
  });

  it("is read by the SDK's own 1.x and 0.3 clients as an authentication refusal in our words, never as task-not-found", async () => {
    const badToken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', 'Bearer wrong');
      return fetch(input, { ...init, headers });
    };
    const v1 = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: badToken })] }),
    ).createFromUrl(open.url);
    const v1Error = (await v1.sendMessage(parcel()).catch((error: unknown) => error)) as Error;
    expect(v1Error).toBeInstanceOf(Error);
    expect(v1Error.constructor.name).not.toMatch(/TaskNotFound/);
    expect(v1Error.message).toContain('That token is not one this agent accepts.');
    // Read as the JSON-RPC error it is, not as an HTTP failure with an unreadable body.
    expect(v1Error.message).not.toMatch(/^HTTP error/);
    const v03 = await new ClientFactory03(
      ClientFactoryOptions03.createFrom(ClientFactoryOptions03.default, { transports: [new JsonRpcTransportFactory03({ fetchImpl: badToken })] }),
    ).createFromUrl(open.url);
    const v03Error = (await v03
      .sendMessage({
        message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { category: 'furniture', weightKg: 32 } }] },
      })
      .catch((error: unknown) => error)) as Error & { code?: number };
    expect(v03Error).toBeInstanceOf(Error);
    expect(v03Error.constructor.name).not.toMatch(/TaskNotFound/);
    expect(v03Error.message).toContain('That token is not one this agent accepts.');
    expect(v03Error.message).toContain(`(Code: ${UNAUTHORIZED_CODE})`);
  });

  it("signs the card with the configured key: the SDK's verifier and the kit accept it, the kit fails a card changed after signing", async () => {
    const card = (await cardOf(closed, '1.0')) as Json;
    expect(card.signatures).toHaveLength(1);
    const jwks = (await (await fetch(`${closed.url}/.well-known/jwks.json`)).json()) as { keys: Json[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const publicKey = createPublicKey({ key: jwks.keys[0] as never, format: 'jwk' });
    await expect(verifyAgentCardSignature(async () => publicKey)(card as unknown as AgentCard)).resolves.toBeUndefined();
    const wire = createWire({ timeoutMs: 10_000 });
    const cardUrl = `${closed.url}/.well-known/agent-card.json`;
    expect(await verifyCardSignatures(card, cardUrl, wire)).toMatchObject({ status: 'pass' });
    expect(await verifyCardSignatures({ ...card, description: 'An agent that will do anything.' }, cardUrl, wire)).toMatchObject({
      status: 'fail',
      reason: expect.stringContaining('does not'),
    });
    expect(await verifyCardSignatures(await cardOf(open, '1.0'), `${open.url}/.well-known/agent-card.json`, wire)).toMatchObject({ status: 'skip' });
  });
});
