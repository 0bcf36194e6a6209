// Benchmark: 10,000 entries × 10,000 versions. Storage of the delta + snapshot layout versus a
// full copy per version, and time to resolve versions cold (from a snapshot, and by walking the
// whole chain of deltas as before snapshots, on the same file) and warm. Cold: an authority opened
// on the file just before, nothing of the collection in its memory. Besides `resolve` itself (whose
// entries are built when first read), what waits on it: every entry built (a whole version sent),
// and an agent's wait for a newly announced version (HTTP, `?since=` its parent) from an authority
// restarted since the agent fetched the parent.
// Run: node --import tsx shared/authority/bench/version-storage.ts
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RequestListener } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wordListKind } from '@learnables/testing';
import type { DefinitionStore } from '../src/index.ts';
import { Authority, AuthorityClient, authorityService, openStore } from '../src/index.ts';
import { ResolvedVersion } from '../src/resolved-version.ts';
import { decodeSnapshot } from '../src/store/sql-store.ts';
import { percentile, report } from './report.ts';

/** The same store offering no snapshots, so the authority walks the chain as it did before them. */
const walkingOnly = (store: DefinitionStore): DefinitionStore =>
  new Proxy(store, {
    get(target, property) {
      if (property === 'snapshotLineage' || property === 'snapshotChain') return async () => undefined;
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
  // What is measured is the versions stored and resolved, not their acknowledgement: without the
  // commit wait (SPEC §4.4), which would add 25 ms of waiting to each of the 10,000 writes.
  const writer = new Authority({ store: await openStore(file), kinds, commitWaitMs: 0 });
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

  const timings = async (version: number, times: number, walk = false, everyEntry = false) => {
    const samples: number[] = [];
    for (let i = 0; i < times; i += 1) {
      const store = await openStore(file);
      const reader = new Authority({ store: walk ? walkingOnly(store) : store, kinds });
      const t = performance.now();
      const definition = await reader.resolve('lists', version);
      if (everyEntry) void definition.entries.length;
      samples.push(performance.now() - t);
      await reader.close();
    }
    return samples;
  };
  // An agent holding version `version - 1` asks a restarted authority for `version` as it is
  // announced: what changed since, over HTTP, merged into the one it holds (AuthorityClient). One
  // address throughout; behind it, a fresh authority on the file for each request asked for.
  let service: RequestListener = () => undefined;
  const server = createServer((req, res) => service(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const restarted = async <T>(work: () => Promise<T>): Promise<T> => {
    const authority = new Authority({ store: await openStore(file), kinds });
    service = authorityService({ authority, tokens: { bench: 'bench' } });
    try {
      return await work();
    } finally {
      await authority.close();
    }
  };
  const agentWaits = async (version: number, times: number) => {
    const samples: number[] = [];
    for (let i = 0; i < times; i += 1) {
      const agent = new AuthorityClient({ url, kinds });
      await restarted(() => agent.definition('lists', version - 1));
      await restarted(async () => {
        const t = performance.now();
        const definition = await agent.definition('lists', version);
        samples.push(performance.now() - t);
        if (definition.entries.length !== entries) throw new Error(`version ${version} came with ${definition.entries.length} entries`);
      });
    }
    return samples;
  };
  const middle = Math.floor(versions / 2);
  // One untimed resolve first (the code compiled, as in an authority that has served before);
  // then newest and middle in turn, so a burst of load on the machine falls on both alike. The
  // samples that build every entry come after, in their own loop: the garbage of 10,000 learnables
  // would otherwise be collected during the next sample.
  await timings(versions - 1, 1);
  const cold: number[] = [];
  const coldMiddle: number[] = [];
  for (let round = 0; round < 15; round += 1) {
    cold.push(...(await timings(versions, 1)));
    coldMiddle.push(...(await timings(middle, 1)));
  }
  const agentNewest = await agentWaits(versions, 9);
  const agentMiddle = await agentWaits(middle, 9);
  const coldBuilt = await timings(versions, 7, false, true);
  const coldMiddleBuilt = await timings(middle, 7, false, true);
  const walkCold = await timings(versions, 5, true);
  const walkMiddle = await timings(middle, 5, true);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  const warmReader = new Authority({ store: await openStore(file), kinds });
  await warmReader.resolve('lists', versions - 1);
  const warm: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t = performance.now();
    await warmReader.resolve('lists', versions - 1);
    warm.push(performance.now() - t);
  }
  await warmReader.close();
  // What building every entry costs on its own: the seed's snapshot already in memory, read and
  // each of its learnables built and frozen, nothing read from disk.
  const floor: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const t = performance.now();
    void ResolvedVersion.overlay(kinds[0]!, [1], decodeSnapshot(seedJson), []).entries.length;
    floor.push(performance.now() - t);
  }
  rmSync(dir, { recursive: true, force: true });
  // A full copy per version stores every entry every time: the seed's snapshot once per version.
  const naiveBytes = Buffer.byteLength(seedJson) * versions;
  console.log(
    `\nSnapshots: ${snapshots.n}, ${snapshots.bytes} bytes of the ${bytes} on disk (without them, i.e. deltas only as before: about ${bytes - snapshots.bytes} bytes). ` +
      `Building and freezing all ${entries} learnables of a snapshot already in memory: p50 ${percentile(floor, 50)} ms. ` +
      `Cold resolve and then every entry built: newest p50 ${percentile(coldBuilt, 50)} ms, middle ${percentile(coldMiddleBuilt, 50)} ms. ` +
      `An agent holding the version before, asking a restarted authority for the next one (HTTP, ?since=): newest p50 ${percentile(agentNewest, 50)} ms (p99 ${percentile(agentNewest, 99)}), middle p50 ${percentile(agentMiddle, 50)} ms (p99 ${percentile(agentMiddle, 99)}).\n`,
  );
  return [
    {
      layout: 'deltas + a snapshot every max(64, entries/32) changed rows, entries built when first read (this store)',
      entries,
      versions,
      'bytes on disk': bytes,
      'vs full copy': `1 : ${Math.round(naiveBytes / bytes)}`,
      'lesson write avg ms': Math.round((writeMs / (versions - 1)) * 100) / 100,
      'resolve newest, cold, p50 ms': percentile(cold, 50),
      'resolve middle, cold, p50 ms': percentile(coldMiddle, 50),
      'agent waits for newest (since its parent), cold authority, p50 ms': percentile(agentNewest, 50),
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
      'agent waits for newest (since its parent), cold authority, p50 ms': '—',
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
      'agent waits for newest (since its parent), cold authority, p50 ms': '—',
      'resolve cached p50 ms': '—',
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  report('version storage and resolve time', await versionStorage(Number(process.env.BENCH_ENTRIES ?? 10_000), Number(process.env.BENCH_VERSIONS ?? 10_000)));
}
