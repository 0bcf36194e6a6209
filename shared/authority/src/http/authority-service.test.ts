import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scratchDir, wordListKind } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { Authority } from '../authority.ts';
import { AuthorityClient, AuthorityRefused } from '../client/authority-client.ts';
import type { Activation } from '../store/definition-store.ts';
import { openStore } from '../store/open-store.ts';
import { authorityService } from './authority-service.ts';
import { silentLogger } from '../observe/logger.ts';

const lesson = (word: string, entry = 'alpha') => ({ collection: 'lists', entry, value: { word }, taughtBy: 'dana', reason: 'seen twice' });

interface Answer {
  status: number;
  json(): Promise<{ error?: string; message?: string; known?: string[] }>;
}

const fetchJson = async (url: string, init?: RequestInit): Promise<Answer> => {
  const response = await fetch(url, init);
  const body = await response.text();
  return { status: response.status, json: async () => JSON.parse(body) };
};

describe('the authority over HTTP', () => {
  let dir: ScratchDir;
  let authority: Authority;
  let server: Server;
  let base: string;
  let client: AuthorityClient;

  beforeEach(async () => {
    dir = scratchDir('authority-http-');
    authority = new Authority({ store: await openStore(`${dir.path}/a.db`), kinds: [wordListKind()] });
    await authority.seed('lists', { alpha: { words: [] }, beta: { words: [] } }, 'lists.json');
    const app = authorityService({ authority, tokens: { s3cret: 'console' }, bodyLimit: '8kb', logger: silentLogger() });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new AuthorityClient({ url: base, token: 's3cret', kinds: [wordListKind()] });
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await authority.close();
    dir.remove();
  });

  const post = (path: string, body: unknown, token: string | null = 's3cret') =>
    fetchJson(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('takes a lesson and records the authenticated client beside taughtBy', async () => {
    expect(await client.postLesson(lesson('a'))).toEqual({ collection: 'lists', entry: 'alpha', changed: true, version: 2, audit: "alpha knows the word 'a'" });
    expect(await client.active('lists')).toMatchObject({ version: 2, author: 'dana', client: 'console', kind: 'lesson' });
    const definition = await client.definition('lists', 2);
    expect(definition.entries.map((e) => e.toState())).toEqual([{ words: ['a'] }, { words: [] }]);
  });

  it("refuses with 422 and the learnable's words, untouched", async () => {
    const response = await post('/v1/lessons', { ...lesson('x'), value: { colour: 'red' } });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: 'unlearnable', message: 'a word list needs a word', field: 'word' });
  });

  it('refuses a malformed lesson with 400 naming the bad field', async () => {
    const response = await post('/v1/lessons', { ...lesson('x'), reason: undefined });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'malformed', message: 'That lesson cannot be read: reason is missing.' });
    const notJson = await post('/v1/lessons', '{"collection": ');
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).message).toMatch(/^The body is not valid JSON/);
  });

  it('answers 404 naming what exists for an unknown collection or entry', async () => {
    const entry = await post('/v1/lessons', lesson('x', 'gamma'));
    expect(entry.status).toBe(404);
    expect(await entry.json()).toEqual({
      error: 'unknown-entry',
      message: '"gamma" is not in lists; the entries are: alpha, beta.',
      known: ['alpha', 'beta'],
    });
    const collection = await post('/v1/lessons', { ...lesson('x'), collection: 'customers' });
    expect(collection.status).toBe(404);
    expect((await collection.json()).known).toEqual(['lists']);
  });

  it('answers 413 for a body over the limit, and writes nothing', async () => {
    const response = await post('/v1/lessons', lesson('x'.repeat(20_000)));
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe('too-large');
    expect((await client.history('lists')).activations).toHaveLength(1);
  });

  it('answers 401 to a write without a token or with a wrong one, and writes nothing', async () => {
    for (const token of [null, 'guess']) {
      const response = await post('/v1/lessons', lesson('a'), token);
      expect(response.status).toBe(401);
      expect((await response.json()).error).toBe('unauthorized');
      const rollback = await post('/v1/collections/lists/rollback', { version: 1, author: 'x', reason: 'y' }, token);
      expect(rollback.status).toBe(401);
    }
    expect((await client.history('lists')).activations).toHaveLength(1);
  });

  it('rolls back over HTTP, and refuses a rollback to a version that never existed', async () => {
    await client.postLesson(lesson('a'));
    expect(await client.rollback('lists', { version: 1, author: 'sam', reason: 'wrong customer' })).toMatchObject({ version: 1, kind: 'rollback' });
    const missing = client.rollback('lists', { version: 7, author: 'sam', reason: 'r' });
    await expect(missing).rejects.toBeInstanceOf(AuthorityRefused);
    await expect(missing).rejects.toMatchObject({ status: 404, message: 'lists has no version 7; its versions are 1 to 2.' });
    const unreadable = await post('/v1/collections/lists/rollback', { version: 'one' });
    expect(await unreadable.json()).toEqual({
      error: 'malformed',
      message: 'That rollback cannot be read: version must be a number; author is missing; reason is missing.',
    });
  });

  it('answers history, a version by number, and what was active at a time', async () => {
    await client.postLesson(lesson('a'));
    const { activations } = await client.history('lists');
    expect(activations.map((a) => a.version)).toEqual([2, 1]);
    expect((await client.activeAt('lists', activations[1]!.at)).version).toBe(1);
    expect((await client.entries('lists', 1)).entries).toEqual([
      { key: 'alpha', label: 'List alpha', state: { words: [] } },
      { key: 'beta', label: 'List beta', state: { words: [] } },
    ]);
    const bad = await fetchJson(`${base}/v1/collections/lists/versions/abc`);
    expect(bad.status).toBe(400);
    const early = await fetchJson(`${base}/v1/collections/lists/active-at?time=2001-01-01T00:00:00Z`);
    expect(early.status).toBe(404);
  });

  it('pushes each new activation to a subscribed client through the change feed', async () => {
    const stop = new AbortController();
    const heard: Activation[] = [];
    let snapshot: Activation[] = [];
    const connected = new Promise<void>((resolve) => {
      void client.watch({
        signal: stop.signal,
        onActive: (actives) => {
          snapshot = actives;
          resolve();
        },
        onActivation: (activation) => heard.push(activation),
      });
    });
    await connected;
    expect(snapshot.map((a) => [a.collection, a.version])).toEqual([['lists', 1]]);
    await client.postLesson(lesson('a'));
    await client.rollback('lists', { version: 1, author: 'sam', reason: 'r' });
    await expect
      .poll(() => heard.map((a) => [a.version, a.kind]))
      .toEqual([
        [2, 'lesson'],
        [1, 'rollback'],
      ]);
    stop.abort();
  });
});
