import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lessonToEffect } from './lesson-to-effect.ts';
import { report } from './report.ts';
import { versionStorage } from './version-storage.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-authority-'));
const latency = [await lessonToEffect(`sqlite:${dir}/a.db`)];
if (process.env.BENCH_PG_URL) {
  latency.push(await lessonToEffect(process.env.BENCH_PG_URL));
  latency.push(await lessonToEffect(process.env.BENCH_PG_URL, 300, 2));
}
report('lesson accepted → subscriber in another process sees the new active version', latency);
console.log(
  `\nBoth include the authority's commit wait (SPEC §4.4; the default 25 ms): a lesson is acknowledged, and announced on the feed, no sooner than that after its commit, which is what lets each agent ask for the active version about once per wait instead of once per message.`,
);
report('version storage and resolve time', await versionStorage());
rmSync(dir, { recursive: true, force: true });
