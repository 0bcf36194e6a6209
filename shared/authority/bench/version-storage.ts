// Benchmark: 10,000 entries × 10,000 versions. Storage of the delta layout versus a full copy per
// version, and time to resolve versions cold and warm. Run: pnpm --filter @learnables/authority bench
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wordListKind } from '@learnables/testing';
import { Authority, openStore } from '../src/index.ts';
import { percentile, report } from './report.ts';

export async function versionStorage(entries = 10_000, versions = 10_000): Promise<Record<string, string | number>[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-versions-'));
  const file = join(dir, 'a.db');
  const kinds = [wordListKind()];
  const seeder = new Authority({ store: await openStore(file), kinds });
  await seeder.seed('lists', Object.fromEntries(Array.from({ length: entries }, (_, i) => [`e${i}`, { words: [] }])), 'bench');
  await seeder.close();
  // Closing checkpoints the write-ahead log, so the file alone holds the seed.
  const seedBytes = statSync(file).size;
  const writer = new Authority({ store: await openStore(file), kinds });
  const started = performance.now();
  for (let i = 1; i < versions; i += 1) {
    await writer.absorb({ collection: 'lists', entry: `e${i % entries}`, value: { word: `w${i}` }, taughtBy: 'bench', reason: 'bench' }, 'bench');
  }
  const writeMs = performance.now() - started;
  await writer.close();
  const deltaBytes = statSync(file).size;

  const timings = async (version: number, times: number) => {
    const samples: number[] = [];
    for (let i = 0; i < times; i += 1) {
      const reader = new Authority({ store: await openStore(file), kinds });
      const t = performance.now();
      await reader.resolve('lists', version);
      samples.push(performance.now() - t);
      await reader.close();
    }
    return samples;
  };
  const cold = await timings(versions, 5);
  const coldMiddle = await timings(Math.floor(versions / 2), 5);
  const warmReader = new Authority({ store: await openStore(file), kinds });
  await warmReader.resolve('lists', versions - 1);
  const warm: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t = performance.now();
    await warmReader.resolve('lists', versions - 1);
    warm.push(performance.now() - t);
  }
  await warmReader.close();
  rmSync(dir, { recursive: true, force: true });
  // The naive layout stores every entry of every version: the seed's size once per version.
  const naiveBytes = seedBytes * versions;
  return [
    {
      layout: 'delta (this store)',
      entries,
      versions,
      'bytes on disk': deltaBytes,
      'vs full copy': `1 : ${Math.round(naiveBytes / deltaBytes)}`,
      'lesson write avg ms': Math.round((writeMs / (versions - 1)) * 100) / 100,
      'resolve newest, cold, p50 ms': percentile(cold, 50),
      'resolve middle, cold, p50 ms': percentile(coldMiddle, 50),
      'resolve cached p50 ms': percentile(warm, 50),
    },
    {
      layout: 'full copy per version (estimated: seed size × versions)',
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
