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
report('version storage and resolve time', await versionStorage());
rmSync(dir, { recursive: true, force: true });
