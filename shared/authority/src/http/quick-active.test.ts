import { request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scratchDir, wordListKind } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { Authority } from '../authority.ts';
import { COMMIT_WAIT_HEADER } from '../client/authority-client.ts';
import { openStore } from '../store/open-store.ts';
import { authorityService } from './authority-service.ts';
import { silentLogger } from '../observe/logger.ts';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A raw request (node:http), so that the Host header, the method and a GET's body are the test's. */
function send(base: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers, ...(options.body !== undefined && { 'content-length': String(Buffer.byteLength(options.body)) }) };
    const req = request(`${base}${path}`, { method: options.method ?? 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** What a client reads of an answer: status, body, its type and the commit wait it advertises. */
const readable = (answer: Answer) => ({
  status: answer.status,
  body: answer.body === '' ? '' : (JSON.parse(answer.body) as unknown),
  type: answer.headers['content-type'],
  commitWait: answer.headers[COMMIT_WAIT_HEADER],
});

// GET …/active in its plain spelling is answered before express's routing (quick-active.ts). These
// hold the quick answer to the route's own, reached by spellings express alone serves (its routes
// are case-insensitive and take a trailing slash), and check that what express would answer
// otherwise still reaches it. The quick answer is the one without an ETag (express adds one).
describe('the quick answer about the active version', () => {
  let dir: ScratchDir;
  let authority: Authority;
  let server: Server;
  let base: string;

  const serve = async (app: express.Express) => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeEach(async () => {
    dir = scratchDir('authority-quick-');
    authority = new Authority({ store: await openStore(`${dir.path}/a.db`), kinds: [wordListKind()], commitWaitMs: 40 });
    await authority.seed('lists', { alpha: { words: [] } }, 'lists.json');
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await authority.close();
    dir.remove();
  });

  it("answers as the route does, without express's ETag, and never from a copy kept", async () => {
    await serve(authorityService({ authority, tokens: { s3cret: 'console' }, logger: silentLogger() }));
    const quick = await send(base, '/v1/collections/lists/active');
    const routed = await send(base, '/V1/Collections/lists/active/');
    expect(quick.headers.etag).toBeUndefined();
    expect(routed.headers.etag).toBeDefined();
    expect(readable(quick)).toEqual(readable(routed));
    expect(readable(quick)).toMatchObject({
      status: 200,
      type: 'application/json; charset=utf-8',
      commitWait: '40',
      body: { collection: 'lists', version: 1 },
    });
    // A query is the route's too (it reads none).
    expect(readable(await send(base, '/v1/collections/lists/active?fresh=1'))).toEqual(readable(routed));

    await authority.absorb({ collection: 'lists', entry: 'alpha', value: { word: 'a' }, taughtBy: 'dana', reason: 'seen' }, 'console');
    expect(readable(await send(base, '/v1/collections/lists/active'))).toMatchObject({ status: 200, body: { version: 2, author: 'dana' } });
  });

  it("refuses an unknown collection with the route's refusal, commit wait included", async () => {
    await serve(authorityService({ authority, tokens: { s3cret: 'console' }, logger: silentLogger() }));
    const quick = await send(base, '/v1/collections/nothing-here/active');
    const routed = await send(base, '/v1/collections/nothing-here/active/');
    expect(quick.headers.etag).toBeUndefined();
    expect(readable(quick)).toEqual(readable(routed));
    expect(readable(quick)).toMatchObject({ status: 404, commitWait: '40', body: { error: 'unknown-collection', known: ['lists'] } });
    // A name an object would find on its prototype is a collection like any other: unknown.
    for (const name of ['__proto__', 'constructor', 'toString']) {
      expect(readable(await send(base, `/v1/collections/${name}/active`))).toMatchObject({ status: 404, body: { error: 'unknown-collection' } });
    }
  });

  it('leaves to express what express answers otherwise: a foreign host, a body, a conditional request, HEAD', async () => {
    await serve(authorityService({ authority, tokens: { s3cret: 'console' }, logger: silentLogger() }));
    const foreign = await send(base, '/v1/collections/lists/active', { headers: { host: 'evil.example' } });
    expect(foreign.status).toBe(421);
    const withBody = await send(base, '/v1/collections/lists/active', { headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(readable(withBody)).toMatchObject({ status: 400, body: { error: 'malformed' } });
    const { etag } = (await send(base, '/V1/collections/lists/active')).headers;
    expect((await send(base, '/v1/collections/lists/active', { headers: { 'if-none-match': String(etag) } })).status).toBe(304);
    const head = await send(base, '/v1/collections/lists/active', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBeDefined();
  });

  it('answers the same mounted in another app, as the conformance kit mounts it', async () => {
    const outer = express();
    outer.get('/outer', (_req, res) => res.json({ outer: true }));
    outer.use(authorityService({ authority, tokens: { s3cret: 'console' }, logger: silentLogger() }));
    await serve(outer);
    const quick = await send(base, '/v1/collections/lists/active');
    expect(quick.headers.etag).toBeUndefined();
    expect(readable(quick)).toEqual(readable(await send(base, '/v1/collections/lists/active/')));
    expect(readable(await send(base, '/outer'))).toMatchObject({ status: 200, body: { outer: true } });
  });
});
