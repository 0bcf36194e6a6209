import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wordListKind } from '@learnables/testing';
import { Authority } from './authority.ts';
import { AuthorityClient, COMMIT_WAIT_HEADER } from './client/authority-client.ts';
import { DelayedDelivery } from './commit-wait.ts';
import { engines } from './engines.test-support.ts';
import { authorityService } from './http/authority-service.ts';
import type { Activation, DefinitionStore } from './store/definition-store.ts';
import { openStore } from './store/open-store.ts';
import { silentLogger } from './observe/logger.ts';

// Long against any write's own time, so that a lower bound says the wait was waited; only lower
// bounds are asserted (these machines are shared and loaded: nothing here is an upper bound).
const WAIT = 300;

const lesson = (word: string, entry = 'alpha') => ({ collection: 'lists', entry, value: { word }, taughtBy: 'dana', reason: `teach ${word}` });

/** The store, noting on the monotonic clock when each write's commit returned. */
function timingCommits(store: DefinitionStore, committed: number[]): DefinitionStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'write') {
        return async (...args: Parameters<DefinitionStore['write']>) => {
          const result = await target.write(...args);
          committed.push(performance.now());
          return result;
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe.each(engines)('commit wait on $name', (engine) => {
  let dispose: () => Promise<void>;
  let authority: Authority;
  let committed: number[];
  let server: Server;
  let base: string;
  /** How many requests for the active version reached the authority. */
  let activeReads: number;
  /** Whether the authority's answers leave out the commit wait header (an authority from before it). */
  let withoutHeader: boolean;

  /** The store's URL, for a second connection of the test's own. */
  let url: string;

  beforeEach(async () => {
    ({ url, dispose } = await engine.fresh());
    committed = [];
    authority = new Authority({ store: timingCommits(await openStore(url), committed), kinds: [wordListKind()], commitWaitMs: WAIT });
    await authority.seed('lists', { alpha: { words: [] }, beta: { words: [] } }, 'lists.json');
    const app = authorityService({ authority, tokens: { s3cret: 'console' }, logger: silentLogger() });
    activeReads = 0;
    withoutHeader = false;
    server = createServer((req, res) => {
      if (req.url?.endsWith('/active')) activeReads += 1;
      if (withoutHeader) {
        const set = res.setHeader.bind(res);
        res.setHeader = (name, value) => (name.toLowerCase() === COMMIT_WAIT_HEADER ? res : set(name, value));
      }
      app(req, res);
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await authority.close();
    await dispose();
  });

  it('answers a write that activates a version, in process, no sooner than the wait after its commit', async () => {
    const writes: [string, () => Promise<{ changed: boolean }>][] = [
      ['lesson', () => authority.absorb(lesson('a'), 'console')],
      ['new entry', () => authority.addEntry({ collection: 'lists', newEntry: { label: 'Gamma' }, taughtBy: 'dana', reason: 'new list' }, 'console')],
      ['retraction', () => authority.retract({ collection: 'lists', version: 2, author: 'sam', reason: 'wrong' }, 'console')],
      ['rollback', () => authority.rollback('lists', { version: 1, author: 'sam', reason: 'back' }, 'console')],
    ];
    for (const [name, write] of writes) {
      const outcome = await write();
      const answered = performance.now();
      expect(outcome.changed, name).toBe(true);
      expect(answered - committed.at(-1)!, name).toBeGreaterThanOrEqual(WAIT);
    }
  });

  it('answers a lesson over HTTP no sooner than the wait after its commit, and advertises the wait', async () => {
    const client = new AuthorityClient({ url: base, token: 's3cret' });
    const outcome = await client.postLesson(lesson('a'));
    const answered = performance.now();
    expect(outcome).toMatchObject({ changed: true, version: 2 });
    expect(answered - committed.at(-1)!).toBeGreaterThanOrEqual(WAIT);
    const active = await fetch(`${base}/v1/collections/lists/active`);
    expect(active.headers.get(COMMIT_WAIT_HEADER)).toBe(String(WAIT));
    expect(((await active.json()) as Activation).version).toBe(2);
  });

  it('announces an activation on the feed no sooner than the wait after the store reported it, in order, and its snapshot the wait after reading it', async () => {
    // Registered before the feed's own listener, so it notes each activation no later than the feed heard it.
    const reported = new Map<number, number>();
    authority.store.onActivation((activation) => reported.set(activation.version, performance.now()));
    const client = new AuthorityClient({ url: base, token: 's3cret' });
    const watching = new AbortController();
    const heard: { version: number; at: number }[] = [];
    let snapshot: number | undefined;
    const connected = performance.now();
    const ready = new Promise<void>((resolve) => {
      void client.watch({
        collection: 'lists',
        signal: watching.signal,
        onActive: () => {
          snapshot = performance.now();
          resolve();
        },
        onActivation: (activation) => heard.push({ version: activation.version, at: performance.now() }),
      });
    });
    try {
      await ready;
      expect(snapshot! - connected).toBeGreaterThanOrEqual(WAIT);
      // Two activations in quick succession: each is held back on its own, and they keep their order.
      await Promise.all([client.postLesson(lesson('a')), client.postLesson(lesson('b', 'beta'))]);
      await expect.poll(() => heard.length, { timeout: 10_000 }).toBe(2);
      expect(heard.map((h) => h.version)).toEqual([2, 3]);
      for (const { version, at } of heard) expect(at - reported.get(version)!, `version ${version}`).toBeGreaterThanOrEqual(WAIT);
    } finally {
      watching.abort();
    }
  });

  it('does not announce again an activation its snapshot holds, when its notice comes after the snapshot was read', async () => {
    const client = new AuthorityClient({ url: base, token: 's3cret' });
    const watching = new AbortController();
    const heard: number[] = [];
    let snapshot: Activation[] = [];
    const ready = new Promise<void>((resolve) => {
      void client.watch({
        collection: 'lists',
        signal: watching.signal,
        onActive: (actives) => {
          snapshot = actives;
          resolve();
        },
        onActivation: (activation) => heard.push(activation.version),
      });
    });
    try {
      await ready;
      expect(snapshot.map((a) => a.version)).toEqual([1]);
      // The seed's notice again, late: on PostgreSQL a real NOTIFY from another connection, as a
      // write committed just before the watch began may send it; on SQLite notices are in process.
      if (engine.name === 'PostgreSQL') {
        const pg = (await import('pg')).default;
        const other = new pg.Client({ connectionString: url });
        await other.connect();
        await other.query(`select pg_notify('learnables_activations', $1)`, [JSON.stringify(snapshot[0])]);
        await other.end();
      } else {
        (authority.store as unknown as { events: { emit(event: string, activation: Activation): void } }).events.emit('activation', snapshot[0]!);
      }
      await client.postLesson(lesson('a'));
      await expect.poll(() => heard.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual([2]);
    } finally {
      watching.abort();
    }
  });

  it('lets the client reuse an answer of the active version within the wait advertised, and ask again once it has run out', async () => {
    // The clock stands still while a request is out: each answer covers calls until WAIT after it.
    let now = 0;
    const client = new AuthorityClient({ url: base, clock: () => now });
    const first = await Promise.all(Array.from({ length: 20 }, () => client.active('lists')));
    expect(first.map((a) => a.version)).toEqual(Array.from({ length: 20 }, () => 1));
    for (let i = 0; i < 10; i += 1) {
      now += (WAIT - 1) / 10;
      expect((await client.active('lists')).version).toBe(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Twenty-one calls over the whole window: one request, none ahead of need.
    expect(activeReads).toBe(1);
    // Run out: the caller sends, and waits for it; the next answer covers the window after it.
    now = WAIT;
    expect((await client.active('lists')).version).toBe(1);
    expect(activeReads).toBe(2);
    now = 2 * WAIT - 1;
    await client.active('lists');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(activeReads).toBe(2);
    now = 10 * WAIT;
    await client.active('lists');
    expect(activeReads).toBe(3);
  });

  it('sends a request per call not covered by one sent after it, as before, when the authority advertises no wait', async () => {
    withoutHeader = true;
    const now = 0;
    const client = new AuthorityClient({ url: base, clock: () => now });
    for (let i = 0; i < 5; i += 1) await client.active('lists');
    expect(activeReads).toBe(5);
    // Calls made together share the next request (FreshRead's way): one sent, one shared by the other nine.
    await Promise.all(Array.from({ length: 10 }, () => client.active('lists')));
    expect(activeReads).toBe(7);
  });
});

describe('delayed delivery', () => {
  it('delivers in order, each no sooner than the wait after it was pushed, and not what was dropped before it was due', async () => {
    const delivered: [number, number][] = [];
    const started = performance.now();
    const feed = new DelayedDelivery<number>(60, (item) => delivered.push([item, performance.now() - started]));
    feed.push(1);
    feed.push(2);
    feed.push(3);
    feed.drop((item) => item === 2);
    feed.push(4);
    await expect.poll(() => delivered.length, { timeout: 5_000 }).toBe(3);
    expect(delivered.map(([item]) => item)).toEqual([1, 3, 4]);
    for (const [, at] of delivered) expect(at).toBeGreaterThanOrEqual(59);
  });
});
