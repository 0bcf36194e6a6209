// Benchmark: 10,000 entries × 10,000 versions. Storage of the delta + snapshot layout versus a
// full copy per version, and time to resolve versions cold (from a snapshot, and by walking the
// whole chain of deltas as before snapshots, on the same file) and warm.
// Run: node --import tsx shared/authority/bench/version-storage.ts
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { defineCollection } from '@learnables/learnable';
import { wordListKind } from '@learnables/testing';
import type { DefinitionStore } from '../src/index.ts';
import { Authority, openStore } from '../src/index.ts';
import { percentile, report } from './report.ts';

/** The same store offering no snapshots, so the authority walks the chain as it did before them. */
const walkingOnly = (store: DefinitionStore): DefinitionStore =>
  new Proxy(store, {
    get(target, property) {
      if (property === 'snapshotLineage') return async () => undefined;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

export async function versionStorage(entries = 10_000, versions = 10_000): Promise<Record<string, string | number>[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-versions-'));
  const file = join(dir, 'a.db');
  const kinds = [wordListKind()];
  const seeder = new Authority({ store: await openStore(file), kinds });
  await seeder.seed('lists', Object.fromEntries(Array.from({ length: entries }, (_, i) => [`e${i}`, { words: [] }])), 'bench');
  await seeder.close();
  const writer = new Authority({ store: await openStore(file), kinds });
  const started = performance.now();
  for (let i = 1; i < versions; i += 1) {
    await writer.absorb({ collection: 'lists', entry: `e${i % entries}`, value: { word: `w${i}` }, taughtBy: 'bench', reason: 'bench' }, 'bench');
  }
  const writeMs = performance.now() - started;
  await writer.close();
  // Closing checkpoints the write-ahead log, so the file alone holds everything.
  const bytes = statSync(file).size;
  const sqlite = new Database(file, { readonly: true });
  const snapshots = sqlite.prepare('select count(*) as n, sum(length(entries)) as bytes from authority_snapshots').get() as { n: number; bytes: number };
  const seedJson = (sqlite.prepare('select entries from authority_snapshots where version = 1').get() as { entries: string }).entries;
  sqlite.close();

  const timings = async (version: number, times: number, walk = false) => {
    const samples: number[] = [];
    for (let i = 0; i < times; i += 1) {
      const store = await openStore(file);
      const reader = new Authority({ store: walk ? walkingOnly(store) : store, kinds });
      const t = performance.now();
      await reader.resolve('lists', version);
      samples.push(performance.now() - t);
      await reader.close();
    }
    return samples;
  };
  const middle = Math.floor(versions / 2);
  const cold = await timings(versions, 7);
  const coldMiddle = await timings(middle, 7);
  const walkCold = await timings(versions, 5, true);
  const walkMiddle = await timings(middle, 5, true);
  const warmReader = new Authority({ store: await openStore(file), kinds });
  await warmReader.resolve('lists', versions - 1);
  const warm: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t = performance.now();
    await warmReader.resolve('lists', versions - 1);
    warm.push(performance.now() - t);
  }
  await warmReader.close();
  // The floor under any cold resolve: parse one snapshot already in memory and build and freeze
  // its learnables, nothing read from disk.
  const floor: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const t = performance.now();
    const [keys, states] = JSON.parse(seedJson) as [string[], unknown[]];
    defineCollection('lists', keys.map((key, at) => kinds[0]!.fromState(key, states[at])));
    floor.push(performance.now() - t);
  }
  rmSync(dir, { recursive: true, force: true });
  // A full copy per version stores every entry every time: the seed's snapshot once per version.
  const naiveBytes = Buffer.byteLength(seedJson) * versions;
  console.log(
    `\nSnapshots: ${snapshots.n}, ${snapshots.bytes} bytes of the ${bytes} on disk (without them, i.e. deltas only as before: about ${bytes - snapshots.bytes} bytes). ` +
      `Floor: building and freezing the ${entries} learnables from a snapshot already in memory, p50 ${percentile(floor, 50)} ms.\n`,
  );
  return [
    {
      layout: 'deltas + a snapshot every max(64, entries/16) changed rows (this store)',
      entries,
      versions,
      'bytes on disk': bytes,
      'vs full copy': `1 : ${Math.round(naiveBytes / bytes)}`,
      'lesson write avg ms': Math.round((writeMs / (versions - 1)) * 100) / 100,
      'resolve newest, cold, p50 ms': percentile(cold, 50),
      'resolve middle, cold, p50 ms': percentile(coldMiddle, 50),
      'resolve cached p50 ms': percentile(warm, 50),
    },
    {
      layout: 'same file, walking the whole chain of deltas (as before snapshots)',
      entries,
      versions,
      'bytes on disk': bytes - snapshots.bytes,
      'vs full copy': '—',
      'lesson write avg ms': '—',
      'resolve newest, cold, p50 ms': percentile(walkCold, 50),
      'resolve middle, cold, p50 ms': percentile(walkMiddle, 50),
      'resolve cached p50 ms': '—',
    },
    {
      layout: 'full copy per version (estimated: one snapshot × versions)',
      entries,
      versions,
      'bytes on disk': naiveBytes,
      'vs full copy': '1 : 1',
      'lesson write avg ms': '—',
      'resolve newest, cold, p50 ms': '—',
      'resolve middle, cold, p50 ms': '—',
      'resolve cached p50 ms': '—',
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  report('version storage and resolve time', await versionStorage(Number(process.env.BENCH_ENTRIES ?? 10_000), Number(process.env.BENCH_VERSIONS ?? 10_000)));
}
