import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Learnable } from '@learnables/learnable';
import type { WordList } from '@learnables/testing';
import { wordListKind } from '@learnables/testing';
import { Authority } from './authority.ts';
import { engines } from './engines.test-support.ts';
import { ResolvedVersion } from './resolved-version.ts';
import type { DefinitionStore } from './store/definition-store.ts';
import { openStore } from './store/open-store.ts';
import { decodeKeys, decodeSnapshot, encodeSnapshot } from './store/sql-store.ts';

// Snapshots are a faster way to resolve a version; these tests hold it to giving exactly what
// walking the whole chain of deltas from the seed gives, for every version of generated histories
// with branches (lessons after rollbacks).

type Step = { teach: number; word: string } | { rollbackTo: number };

const steps = fc.array(
  fc.oneof(
    { weight: 5, arbitrary: fc.record({ teach: fc.nat({ max: 5 }), word: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g') }) },
    { weight: 1, arbitrary: fc.record({ rollbackTo: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  ),
  { minLength: 1, maxLength: 40 },
);

/** The same store, but offering no snapshots: the authority walks every version's chain. */
const withoutSnapshots = (store: DefinitionStore): DefinitionStore =>
  new Proxy(store, {
    get(target, property) {
      if (property === 'snapshotLineage' || property === 'snapshotChain') return async () => undefined;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

/** A version's chain as a cold resolve reads it is its lineage as the recursive query walks it, with each version's deltas. */
const expectChainAsWalked = async (store: DefinitionStore, collection: string, version: number) => {
  const lineage = await store.snapshotLineage(collection, version);
  const chain = await store.snapshotChain(collection, version);
  expect(chain?.lineage).toEqual(lineage);
  if (lineage) expect([...chain!.deltas]).toEqual([...(await store.deltas(collection, lineage.slice(1)))]);
};

const readings = async (authority: Authority, collection: string, version: number) =>
  (await authority.resolve(collection, version)).entries.map((entry) => [entry.key, JSON.stringify(entry.toState())]);

describe.each(engines)('snapshot resolve on $name', (engine) => {
  let url: string;
  let dispose: () => Promise<void>;
  let run = 0;
  beforeAll(async () => {
    ({ url, dispose } = await engine.fresh());
  });
  afterAll(async () => dispose());

  const play = async (collection: string, history: readonly Step[], every = 2) => {
    const kinds = [wordListKind(collection)];
    // No commit wait: what is checked here is what versions hold, and the histories are written
    // one lesson after another (25 ms each would be most of this suite's time).
    const writer = new Authority({ store: await openStore(url, { snapshotEvery: () => every }), kinds, commitWaitMs: 0 });
    try {
      await writer.seed(collection, { e0: { words: [] }, e1: { words: ['x'] }, e2: { words: [] } }, 'test');
      let newest = 1;
      for (const step of history) {
        if ('teach' in step) {
          const outcome = await writer.absorb(
            { collection, entry: `e${step.teach % 3}`, value: { word: step.word }, taughtBy: 'dana', reason: 'test' },
            'test',
          );
          newest = Math.max(newest, outcome.version);
        } else {
          const version = 1 + Math.floor(step.rollbackTo * (newest - 1));
          await writer.rollback(collection, { version, author: 'sam', reason: 'test' }, 'test');
        }
      }
      return { kinds, newest };
    } finally {
      await writer.close();
    }
  };

  it('gives every version of a generated history exactly as walking the whole chain does', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (history) => {
        run += 1;
        const collection = `lists${run}`;
        const { kinds, newest } = await play(collection, history);
        const snapshots = new Authority({ store: await openStore(url), kinds });
        const walking = new Authority({ store: withoutSnapshots(await openStore(url)), kinds });
        try {
          // Cold for each version: a cache would hand back what the first path resolved.
          for (let version = newest; version >= 1; version -= 1) {
            const fresh = new Authority({ store: await openStore(url), kinds, cacheSize: 1 });
            try {
              const expected = await readings(walking, collection, version);
              // What an agent asks for when a version is announced: the entries changed since its
              // parent, built alone from a cold resolve; the same as filtering the whole version.
              const parent = (await walking.store.versions(collection, version - 1))[0]?.parent;
              if (parent != null) {
                const changedKeys = new Set([...(await walking.store.deltas(collection, [version])).values()].flat().map((stored) => stored.key));
                const whole = (await walking.resolve(collection, version)).entries;
                const changed = await fresh.changedSince(collection, parent, version);
                expect(changed?.size).toBe(whole.length);
                expect(changed?.entries.map((entry) => [entry.key, JSON.stringify(entry.toState())])).toEqual(
                  whole.filter((entry) => changedKeys.has(entry.key)).map((entry) => [entry.key, JSON.stringify(entry.toState())]),
                );
              }
              expect(await readings(fresh, collection, version)).toEqual(expected);
              expect(await readings(snapshots, collection, version)).toEqual(expected);
              await expectChainAsWalked(snapshots.store, collection, version);
            } finally {
              await fresh.close();
            }
          }
        } finally {
          await snapshots.close();
          await walking.close();
        }
      }),
      { numRuns: engine.name === 'SQLite' ? 25 : 8 },
    );
  }, 120_000);

  it('reads the chain back to a snapshot by range where it is one branch, and the slow way where branches are in the range', async () => {
    run += 1;
    const collection = `branches${run}`;
    // Snapshots far apart: versions 2-11 on one branch, a rollback to 6, then 12-21 from it; the
    // numbers from the base to 21 hold 7-11 of the other branch.
    const teach = (branch: string) => Array.from({ length: 10 }, (_, i) => ({ teach: i, word: `${branch}${i}` }));
    await play(collection, [...teach('a'), { rollbackTo: 0.5 }, ...teach('b')], 1000);
    const store = await openStore(url);
    try {
      expect((await store.versions(collection, 11)).map((row) => row.parent)).toEqual([6, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      for (let version = 1; version <= 21; version += 1) await expectChainAsWalked(store, collection, version);
      expect((await store.snapshotChain(collection, 21))?.lineage).toEqual([1, 2, 3, 4, 5, 6, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    } finally {
      await store.close();
    }
  });

  it('reads one snapshot and a bounded number of deltas, however long the chain behind it', async () => {
    run += 1;
    const collection = `long${run}`;
    const history = Array.from({ length: 60 }, (_, i) => ({ teach: i, word: `w${i}` }));
    const { kinds } = await play(collection, history);
    const store = await openStore(url);
    try {
      const lineage = await store.snapshotLineage(collection, 61);
      // every 2 delta rows a snapshot: the lineage is the snapshot's version and at most two more
      expect(lineage?.at(-1)).toBe(61);
      expect(lineage!.length).toBeLessThanOrEqual(3);
      expect((await store.snapshot(collection, lineage![0]!))?.keys).toHaveLength(3);
      // The same lineage and deltas in one query, as a cold resolve reads them.
      for (let version = 2; version <= 61; version += 1) {
        const line = (await store.snapshotLineage(collection, version))!;
        const chain = await store.snapshotChain(collection, version);
        expect(chain?.lineage).toEqual(line);
        expect([...chain!.deltas]).toEqual([...(await store.deltas(collection, line.slice(1)))]);
      }
      const authority = new Authority({ store, kinds });
      expect(await readings(authority, collection, 61)).toContainEqual([
        'e0',
        JSON.stringify({
          words: ['w0', 'w3', 'w6', 'w9', 'w12', 'w15', 'w18', 'w21', 'w24', 'w27', 'w30', 'w33', 'w36', 'w39', 'w42', 'w45', 'w48', 'w51', 'w54', 'w57'],
        }),
      ]);
    } finally {
      await store.close();
    }
  });

  it.runIf(engine.name === 'SQLite')('resolves versions written before snapshots by walking, and snapshots the next one', async () => {
    run += 1;
    const collection = `legacy${run}`;
    const { kinds } = await play(collection, [
      { teach: 0, word: 'a' },
      { teach: 1, word: 'b' },
      { teach: 0, word: 'c' },
    ]);
    const file = new Database(url.replace(/^sqlite:/, ''));
    file.prepare('delete from authority_snapshots where collection = ?').run(collection);
    file.prepare('update authority_versions set base = null, since_base = null where collection = ?').run(collection);
    file.close();
    const authority = new Authority({ store: await openStore(url), kinds });
    try {
      expect(await authority.store.snapshotLineage(collection, 4)).toBeUndefined();
      expect(await readings(authority, collection, 4)).toEqual([
        ['e0', JSON.stringify({ words: ['a', 'c'] })],
        ['e1', JSON.stringify({ words: ['x', 'b'] })],
        ['e2', JSON.stringify({ words: [] })],
      ]);
      await authority.absorb({ collection, entry: 'e2', value: { word: 'd' }, taughtBy: 'dana', reason: 'test' }, 'test');
      expect(await authority.store.snapshotLineage(collection, 5)).toEqual([5]);
    } finally {
      await authority.close();
    }
  });
});

describe('a snapshot as stored', () => {
  it('reads back the keys and states written, empty or not, and the one-array form written before states had lines', () => {
    const entries = [
      { key: 'a', state: { words: ['x', 'line\nbreak', '"quoted"'] } },
      { key: 'b\nc', state: { words: [] } },
      { key: 'd', state: 7 },
    ];
    const read = decodeSnapshot(encodeSnapshot(entries));
    expect(read.keys).toEqual(['a', 'b\nc', 'd']);
    expect(read.keys.map((_, at) => read.state(at))).toEqual(entries.map((entry) => entry.state));
    expect(decodeSnapshot(encodeSnapshot([])).keys).toEqual([]);
    const legacy = decodeSnapshot(
      JSON.stringify([
        ['a', 'b'],
        [{ words: ['x'] }, { words: [] }],
      ]),
    );
    expect(legacy.keys).toEqual(['a', 'b']);
    expect(legacy.state(0)).toEqual({ words: ['x'] });
    expect(() => decodeSnapshot('["a","b"]\n{}').state(0)).toThrow(/damaged/);
  });

  it('reads back any keys as JSON.parse does, split where nothing was escaped', () => {
    // Keys made of the characters that matter to the split: quotes, commas, brackets, backslashes,
    // line breaks, lone surrogates (which JSON.stringify escapes), and ordinary ones.
    const character = fc.constantFrom('"', ',', '\\', '[', ']', '\n', '\u2028', '\ud800', 'é', 'a', 'b', ' ', '","');
    const key = fc.oneof(fc.string({ unit: character, maxLength: 6 }), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 12 }), (keys) => {
        const line = JSON.stringify(keys);
        expect(decodeKeys(line)).toEqual(JSON.parse(line));
        expect(decodeSnapshot(encodeSnapshot(keys.map((k) => ({ key: k, state: null })))).keys).toEqual(keys);
      }),
      { numRuns: 2000 },
    );
    expect(decodeKeys('[]')).toEqual([]);
    expect(decodeKeys('[""]')).toEqual(['']);
    expect(decodeKeys('["",""]')).toEqual(['', '']);
  });
});

describe('a version resolved cold', () => {
  it('is frozen, builds each entry once, and gives the same frozen objects however they are read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resolved-'));
    const url = `sqlite:${join(dir, 'a.db')}`;
    const kinds = [wordListKind()];
    const writer = new Authority({ store: await openStore(url, { snapshotEvery: () => 2 }), kinds });
    try {
      await writer.seed('lists', { e0: { words: [] }, e1: { words: ['x'] }, e2: { words: [] } }, 'test');
      for (const word of ['a', 'b', 'c', 'd', 'e']) {
        await writer.absorb({ collection: 'lists', entry: 'e1', value: { word }, taughtBy: 'dana', reason: 'test' }, 'test');
      }
    } finally {
      await writer.close();
    }
    const reader = new Authority({ store: await openStore(url), kinds });
    try {
      const version = (await reader.resolve('lists', 6)) as ResolvedVersion;
      expect(version).toBeInstanceOf(ResolvedVersion);
      expect(Object.isFrozen(version)).toBe(true);
      expect(version.size).toBe(3);
      const e1 = version.entry('e1') as WordList;
      expect(Object.isFrozen(e1)).toBe(true);
      expect(Object.isFrozen(e1.words)).toBe(true);
      expect(e1.words).toEqual(['x', 'a', 'b', 'c', 'd', 'e']);
      expect(version.entry('nobody')).toBeUndefined();
      const entries = version.entries;
      expect(Object.isFrozen(entries)).toBe(true);
      expect(entries.map((entry) => entry.key)).toEqual(['e0', 'e1', 'e2']);
      expect(entries[1]).toBe(e1);
      expect(version.entries).toBe(entries);
      expect(entries.every((entry) => Object.isFrozen(entry))).toBe(true);
      expect(() => {
        (version as { version: number }).version = 1;
      }).toThrow(TypeError);
      expect(() => {
        (entries as Learnable[]).push(e1);
      }).toThrow(TypeError);
    } finally {
      await reader.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a version laid over its ground', () => {
  // What a version is: its ground's entries, then each later version's changes applied in turn as
  // to one Map (a changed key keeps its place, a new one goes last, a null state removes). The
  // store keeps no such Map; this holds what it keeps instead to giving exactly the same.
  const alphabet = Array.from({ length: 10 }, (_, i) => `k${i}`);
  const state = (n: number) => ({ words: [`w${n}`] });
  const change = fc.uniqueArray(fc.record({ key: fc.constantFrom(...alphabet), state: fc.option(fc.nat({ max: 99 }).map(state), { freq: 3 }) }), {
    selector: (stored) => stored.key,
    maxLength: 6,
  });
  const history = fc.record({
    ground: fc.uniqueArray(fc.constantFrom(...alphabet), { maxLength: 8 }),
    fromSnapshot: fc.boolean(),
    steps: fc.array(change, { maxLength: 8 }),
    // After which steps a version is resolved and the next laid over it (else they go at once).
    cuts: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    picked: fc.subarray(alphabet),
    readFirst: fc.constantFrom('entries', 'entry', 'pick'),
  });

  it('gives every version as one Map would, whether laid over a snapshot, a definition or the version before', () => {
    const kind = wordListKind();
    fc.assert(
      fc.property(history, ({ ground, fromSnapshot, steps, cuts, picked, readFirst }) => {
        const stored = ground.map((key, at) => ({ key, state: state(at) }));
        const model = new Map<string, unknown>(stored.map((entry) => [entry.key, entry.state]));
        const base = fromSnapshot
          ? decodeSnapshot(encodeSnapshot(stored))
          : { collection: kind.collection, entries: stored.map((entry) => kind.fromState(entry.key, entry.state)) };
        let version: ResolvedVersion | undefined;
        let pending: (typeof steps)[number][] = [];
        const lineage = [1];
        const check = (resolved: ResolvedVersion) => {
          const expected = [...model].map(([key, value]) => [key, JSON.stringify(value)]);
          const read = (entries: readonly Learnable[]) => entries.map((entry) => [entry.key, JSON.stringify(entry.toState())]);
          // Whatever is read first, the rest agrees with it (entries are built on first read).
          if (readFirst === 'entry') for (const key of alphabet) expect(resolved.entry(key)?.toState() ?? null).toEqual(model.get(key) ?? null);
          if (readFirst === 'pick') expect(read(resolved.pick(new Set(picked)))).toEqual(expected.filter(([key]) => picked.includes(key!)));
          expect(resolved.size).toBe(model.size);
          expect(read(resolved.entries)).toEqual(expected);
          for (const key of alphabet) expect(resolved.entry(key)?.toState() ?? null).toEqual(model.get(key) ?? null);
          expect(read(resolved.pick(new Set(picked)))).toEqual(expected.filter(([key]) => picked.includes(key!)));
          for (const key of alphabet) if (resolved.entry(key)) expect(resolved.entries).toContain(resolved.entry(key));
        };
        steps.forEach((step, at) => {
          for (const { key, state: value } of step) {
            if (value === null) model.delete(key);
            else model.set(key, value);
          }
          pending.push(step);
          lineage.push(lineage.length + 1);
          if (cuts[at] || at === steps.length - 1) {
            version = ResolvedVersion.overlay(kind, lineage, version ?? base, pending);
            pending = [];
            check(version);
          }
        });
        if (steps.length === 0) check(ResolvedVersion.overlay(kind, lineage, base, []));
      }),
      { numRuns: 500 },
    );
  });
});
