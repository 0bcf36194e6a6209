import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnknownCollection, UnknownEntry, UnlearnableValue } from '@learnables/learnable';
import type { WordList } from '@learnables/testing';
import { wordListKind } from '@learnables/testing';
import { Authority } from './authority.ts';
import { engines } from './engines.test-support.ts';
import { UnknownVersion } from './errors.ts';
import { openStore } from './store/open-store.ts';
import type { SqlStore } from './store/sql-store.ts';

const lesson = (entry: string, word: string, taughtBy = 'dana@warehouse.example') => ({
  collection: 'lists',
  entry,
  value: { word },
  taughtBy,
  reason: `teach ${word}`,
});

const wordsOf = async (authority: Authority, version: number, key: string) =>
  ((await authority.resolve('lists', version)).entries.find((e) => e.key === key) as WordList).words;

describe.each(engines)('the authority on $name', (engine) => {
  let url: string;
  let dispose: () => Promise<void>;
  const opened: Authority[] = [];

  const open = async (options: { afterPublish?: () => Promise<void> } = {}) => {
    const authority = new Authority({ store: await openStore(url), kinds: [wordListKind()], ...options });
    opened.push(authority);
    return authority;
  };

  beforeEach(async () => {
    ({ url, dispose } = await engine.fresh());
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((a) => a.close()));
    await dispose();
  });

  const seeded = async () => {
    const authority = await open();
    await authority.seed('lists', { alpha: { words: [] }, beta: { words: ['b'] } }, 'lists.json');
    return authority;
  };

  it('seeds version 1 once, with a seed activation; a second start keeps what is there', async () => {
    const authority = await seeded();
    expect(await authority.active('lists')).toMatchObject({ version: 1, kind: 'seed', author: 'seed', reason: 'loaded from lists.json' });
    expect(await authority.seed('lists', { other: { words: [] } }, 'lists.json')).toBe(false);
    expect((await authority.resolve('lists', 1)).entries.map((e) => e.key)).toEqual(['alpha', 'beta']);
  });

  it('turns a lesson into version 2 with an activation naming author, reason, audit and client', async () => {
    const authority = await seeded();
    const outcome = await authority.absorb(lesson('alpha', 'a'), 'console');
    expect(outcome).toEqual({ collection: 'lists', entry: 'alpha', changed: true, version: 2, audit: "alpha knows the word 'a'" });
    expect(await authority.active('lists')).toMatchObject({
      version: 2,
      kind: 'lesson',
      author: 'dana@warehouse.example',
      reason: 'teach a',
      audit: "alpha knows the word 'a'",
      client: 'console',
    });
    expect(await wordsOf(authority, 2, 'alpha')).toEqual(['a']);
    expect(await wordsOf(authority, 1, 'alpha')).toEqual([]);
  });

  it('writes nothing for a lesson already known and answers changed: false with the active version', async () => {
    const authority = await seeded();
    await authority.absorb(lesson('alpha', 'a'), 'console');
    const again = await authority.absorb(lesson('alpha', 'a'), 'console');
    expect(again).toMatchObject({ changed: false, version: 2 });
    expect(await authority.history('lists')).toHaveLength(2);
  });

  it("refuses in the learnable's words and writes nothing", async () => {
    const authority = await seeded();
    const refusal = authority.absorb({ ...lesson('alpha', ''), value: { word: '' } }, 'console');
    await expect(refusal).rejects.toBeInstanceOf(UnlearnableValue);
    await expect(refusal).rejects.toMatchObject({ message: 'a word list needs a word', field: 'word' });
    await expect(authority.absorb(lesson('gamma', 'g'), 'console')).rejects.toThrow(UnknownEntry);
    await expect(authority.absorb({ ...lesson('alpha', 'a'), collection: 'customers' }, 'console')).rejects.toThrow(UnknownCollection);
    await expect(authority.absorb({ ...lesson('alpha', 'a'), taughtBy: ' ' }, 'console')).rejects.toThrow(
      'That lesson cannot be read: taughtBy must not be empty.',
    );
    expect(await authority.history('lists')).toHaveLength(1);
    expect((await authority.active('lists')).version).toBe(1);
  });

  it('rolls back by activating an earlier version; nothing is deleted; the next lesson builds on what is active', async () => {
    const authority = await seeded();
    await authority.absorb(lesson('alpha', 'wrong'), 'console');
    const rolled = await authority.rollback('lists', { version: 1, author: 'sam', reason: 'taught by mistake' }, 'console');
    expect(rolled).toMatchObject({ version: 1, kind: 'rollback', author: 'sam', reason: 'taught by mistake', client: 'console' });
    expect((await authority.active('lists')).version).toBe(1);
    expect(await wordsOf(authority, 2, 'alpha')).toEqual(['wrong']);

    const next = await authority.absorb(lesson('alpha', 'right'), 'console');
    expect(next.version).toBe(3);
    expect(await wordsOf(authority, 3, 'alpha')).toEqual(['right']);
    expect((await authority.history('lists')).map((a) => [a.version, a.kind])).toEqual([
      [3, 'lesson'],
      [1, 'rollback'],
      [2, 'lesson'],
      [1, 'seed'],
    ]);
    await expect(authority.rollback('lists', { version: 9, author: 'sam', reason: 'r' }, 'console')).rejects.toThrow(new UnknownVersion('lists', 9, 3));
  });

  it('answers which version was active at a given time', async () => {
    const authority = await seeded();
    const seed = await authority.active('lists');
    await new Promise((r) => setTimeout(r, 5));
    const between = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    await authority.absorb(lesson('alpha', 'a'), 'console');
    expect((await authority.activeAt('lists', between))?.version).toBe(1);
    expect((await authority.activeAt('lists', Date.now()))?.version).toBe(2);
    expect(await authority.activeAt('lists', seed.at - 1)).toBeUndefined();
  });

  it('stores what a version changed, not a copy of the whole collection', async () => {
    const authority = await open();
    const entries = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`e${i}`, { words: [] }]));
    await authority.seed('lists', entries, 'big.json');
    for (let i = 0; i < 20; i += 1) await authority.absorb(lesson(`e${i % 7}`, `w${i}`), 'console');
    const store = authority.store as SqlStore;
    const deltas = await store.deltas(
      'lists',
      Array.from({ length: 21 }, (_, i) => i + 1),
    );
    expect([...deltas.values()].reduce((n, rows) => n + rows.length, 0)).toBe(200 + 20);
    // A fresh authority (cold cache) resolves an old and the newest version from the deltas.
    const cold = await open();
    expect(await wordsOf(cold, 21, 'e6')).toEqual(['w6', 'w13']);
    expect(await wordsOf(cold, 8, 'e0')).toEqual(['w0']);
    expect(await wordsOf(cold, 9, 'e0')).toEqual(['w0', 'w7']);
    expect((await cold.resolve('lists', 21)).entries).toHaveLength(200);
  });

  it('loses no lesson when fifty writers on separate connections race', async () => {
    await seeded();
    const writers = await Promise.all(Array.from({ length: 5 }, () => open()));
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => writers[i % writers.length]!.absorb(lesson('alpha', `w${i}`, `author-${i}`), `client-${i % 5}`)),
    );
    expect(outcomes.every((o) => o.changed)).toBe(true);
    expect(outcomes.map((o) => o.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
    const history = (await writers[0]!.history('lists', { limit: 1000 })).reverse();
    expect(history.map((a) => a.version)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    expect(new Set(history.slice(1).map((a) => a.author))).toEqual(new Set(Array.from({ length: 50 }, (_, i) => `author-${i}`)));
    expect(await wordsOf(writers[0]!, 51, 'alpha')).toHaveLength(50);
  });

  it('leaves no half-written version when the write fails between publish and activate', async () => {
    await seeded();
    const failing = await open({
      afterPublish: async () => {
        throw new Error('power cut');
      },
    });
    await expect(failing.absorb(lesson('alpha', 'a'), 'console')).rejects.toThrow('power cut');
    const fresh = await open();
    expect((await fresh.store.versions('lists')).map((v) => v.version)).toEqual([1]);
    expect(await fresh.history('lists')).toHaveLength(1);
    expect((await fresh.absorb(lesson('alpha', 'a'), 'console')).version).toBe(2);
  });

  it('leaves no half-written version when the process is killed between publish and activate', async () => {
    await seeded();
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./crash-child.test-support.ts', import.meta.url)), url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal, output: output.includes('published version 2') }).toEqual({ code: null, signal: 'SIGKILL', output: true });
    const fresh = await open();
    expect((await fresh.store.versions('lists')).map((v) => v.version)).toEqual([1]);
    expect(await fresh.history('lists')).toHaveLength(1);
    expect((await fresh.absorb(lesson('alpha', 'a'), 'console')).version).toBe(2);
    expect(await wordsOf(fresh, 2, 'alpha')).toEqual(['a']);
  });

  it('announces each activation to subscribers of every authority sharing the store', async () => {
    const one = await seeded();
    const two = await open();
    const heard: number[] = [];
    const arrived = new Promise<void>((resolve) => {
      two.store.onActivation((activation) => {
        heard.push(activation.version);
        if (heard.length === 2) resolve();
      });
    });
    await one.absorb(lesson('alpha', 'a'), 'console');
    await one.rollback('lists', { version: 1, author: 'sam', reason: 'r' }, 'console');
    if (engine.name === 'SQLite') {
      // On SQLite the feed is in-process: each authority hears its own writes only.
      const own: number[] = [];
      one.store.onActivation((a) => own.push(a.version));
      await one.absorb(lesson('beta', 'c'), 'console');
      expect(own).toEqual([3]);
      expect(heard).toEqual([]);
    } else {
      await arrived;
      expect(heard).toEqual([2, 1]);
    }
  });
});
