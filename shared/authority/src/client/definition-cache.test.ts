import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir, wordListKind } from '@learnables/testing';
import { Authority } from '../authority.ts';
import { authorityService } from '../http/authority-service.ts';
import { openStore } from '../store/open-store.ts';
import { AuthorityClient } from './authority-client.ts';
import { silentLogger } from '../observe/logger.ts';

// A client keeps the versions it fetched, least recently used out past `cacheBytes`: an agent
// that follows a collection through thousands of lessons held every one of them before. A version
// put out is fetched again when a task pinned to it asks, and reads exactly as before.

const COLLECTION = 'lists';
const VERSIONS = 40;
const dir = scratchDir('definition-cache-');
let authority: Authority;
let server: Server;
let url: string;

beforeAll(async () => {
  authority = new Authority({ store: await openStore(`sqlite:${dir.path}/a.db`), kinds: [wordListKind(COLLECTION)] });
  await authority.seed(COLLECTION, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`e${i}`, { words: [`w${i}`] }])), 'test');
  for (let i = 0; i < VERSIONS - 1; i += 1) {
    await authority.absorb({ collection: COLLECTION, entry: `e${i % 30}`, value: { word: `taught${i}` }, taughtBy: 'd', reason: 'r' }, 'c');
  }
  server = authorityService({ authority, tokens: { t: 'console' }, logger: silentLogger() }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await authority.close();
  dir.remove();
});

const kinds = [wordListKind(COLLECTION)];
const state = (definition: { version: number; entries: readonly { key: string; toState(): unknown }[] }) => ({
  version: definition.version,
  entries: definition.entries.map((entry) => [entry.key, JSON.stringify(entry.toState())]),
});
/** What one version weighs in a client's cache, fetched whole. */
async function weightOfOne(): Promise<number> {
  const client = new AuthorityClient({ url, kinds });
  await client.definition(COLLECTION, VERSIONS);
  return client.cached.bytes;
}

describe('the versions an authority client keeps', () => {
  it('weigh no more than cacheBytes, the least recently used put out first, the newest always kept', async () => {
    const one = await weightOfOne();
    const client = new AuthorityClient({ url, kinds, cacheBytes: 4 * one });
    const kept = await client.definition(COLLECTION, 1);
    const second = await client.definition(COLLECTION, 2);
    for (let version = 3; version <= VERSIONS; version += 1) {
      await client.definition(COLLECTION, version);
      // Version 1 asked for again each time: the most recently used, never put out.
      expect(await client.definition(COLLECTION, 1)).toBe(kept);
      expect(client.cached.bytes).toBeLessThanOrEqual(4 * one);
    }
    expect(client.cached.versions).toBeLessThan(8);
    const newest = await client.definition(COLLECTION, VERSIONS);
    expect(await client.definition(COLLECTION, VERSIONS)).toBe(newest);
    // Version 2 was put out long ago: fetched again, a new object, read exactly as before.
    const again = await client.definition(COLLECTION, 2);
    expect(again).not.toBe(second);
    expect(state(again)).toEqual(state(await new AuthorityClient({ url, kinds }).definition(COLLECTION, 2)));
  });

  it('weigh the newest as it is, however many versions were fetched as changes to the one before', async () => {
    const one = await weightOfOne();
    const client = new AuthorityClient({ url, kinds, cacheBytes: 1 });
    for (let version = 1; version <= VERSIONS; version += 1) await client.definition(COLLECTION, version);
    expect(client.cached.versions).toBe(1);
    expect(client.cached.bytes).toBeGreaterThan(0.8 * one);
    expect(client.cached.bytes).toBeLessThan(1.2 * one);
  });

  it('keep every version when the budget allows (the default, 64 MiB)', async () => {
    const client = new AuthorityClient({ url, kinds });
    const all = [];
    for (let version = 1; version <= VERSIONS; version += 1) all.push(await client.definition(COLLECTION, version));
    for (let version = 1; version <= VERSIONS; version += 1) expect(await client.definition(COLLECTION, version)).toBe(all[version - 1]);
    expect(client.cached.versions).toBe(VERSIONS);
  });

  it('resolve every pinned version exactly as fetched whole, fetched at once or in any order, with a budget smaller than one version', async () => {
    const truth = new Map<number, ReturnType<typeof state>>();
    const whole = new AuthorityClient({ url, kinds });
    for (let version = 1; version <= VERSIONS; version += 1) truth.set(version, state(await whole.definition(COLLECTION, version)));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: VERSIONS }), { minLength: 1, maxLength: 30 }), fc.boolean(), async (pins, atOnce) => {
        const client = new AuthorityClient({ url, kinds, cacheBytes: 1 });
        // Tasks in flight, each pinned to its version: asked for together (fetches under way are
        // never put out), or one after the other (each put out as the next comes).
        const definitions = atOnce
          ? await Promise.all(pins.map((version) => client.definition(COLLECTION, version)))
          : await pins.reduce(
              async (done, version) => [...(await done), await client.definition(COLLECTION, version)],
              Promise.resolve([] as Awaited<ReturnType<AuthorityClient['definition']>>[]),
            );
        for (const [i, definition] of definitions.entries()) expect(state(definition)).toEqual(truth.get(pins[i]!));
        // The newest fetched stays (the next version is asked for as changes to it); little else does.
        expect(client.cached.versions).toBeLessThanOrEqual(1);
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('refuses a budget that is not a number of bytes', () => {
    expect(() => new AuthorityClient({ url, kinds, cacheBytes: -1 })).toThrow(/0 or more/);
    expect(() => new AuthorityClient({ url, kinds, cacheBytes: Number.NaN })).toThrow(/0 or more/);
  });
});
