// What the local stores leave on disk (issue 34, finding 10): the agents' and the authority's
// SQLite files hold customer mail, manifests and who taught what, and were 0644 in a 0755 folder
// beside secrets kept 0600. Each case failed on the code before its fix.
import { statSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Authority, openStore } from '@learnables/authority';
import { openRuntimeDatabase } from '@learnables/runtime';
import { scratchDir, wordListKind } from '@learnables/testing';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('local database files', () => {
  const dir = scratchDir('security-files-');
  afterAll(() => dir.remove());

  it("are the owner's only: the authority's file, its -wal and -shm 0600, in a folder it makes 0700", async () => {
    const file = join(dir.path, 'made-by-authority', 'authority.db');
    const authority = new Authority({ store: await openStore(`sqlite:${file}`), kinds: [wordListKind()] });
    await authority.seed('lists', { alpha: { words: [] } }, 'lists.json');
    await authority.absorb({ collection: 'lists', entry: 'alpha', value: { word: 'a' }, taughtBy: 'dana', reason: 'r' }, 'test');
    expect({ folder: modeOf(join(dir.path, 'made-by-authority')), file: modeOf(file), wal: modeOf(`${file}-wal`), shm: modeOf(`${file}-shm`) }).toEqual({
      folder: '700',
      file: '600',
      wal: '600',
      shm: '600',
    });
    await authority.close();
  });

  it("are the owner's only for an agent's tasks too, and a file an older version left 0644 is brought down to 0600", async () => {
    const file = join(dir.path, 'made-by-agent', 'agent.db');
    const database = await openRuntimeDatabase(`sqlite:${file}`);
    expect({ folder: modeOf(join(dir.path, 'made-by-agent')), file: modeOf(file), wal: modeOf(`${file}-wal`), shm: modeOf(`${file}-shm`) }).toEqual({
      folder: '700',
      file: '600',
      wal: '600',
      shm: '600',
    });
    await database.close();

    // An operator's own folder is left as it is; the files in it are ours.
    const own = join(dir.path, 'operators-folder');
    mkdirSync(own, { mode: 0o755 });
    chmodSync(own, 0o755);
    const old = join(own, 'old.db');
    writeFileSync(old, '');
    chmodSync(old, 0o644);
    const reopened = await openRuntimeDatabase(`sqlite:${old}`);
    expect({ folder: modeOf(own), file: modeOf(old), wal: modeOf(`${old}-wal`) }).toEqual({ folder: '755', file: '600', wal: '600' });
    await reopened.close();
  });
});
