// A child process that dies, by SIGKILL, after publishing a version and before activating it.
import { wordListKind } from '@learnables/testing';
import { Authority } from './authority.ts';
import { openStore } from './store/open-store.ts';

const url = process.argv[2]!;
const authority = new Authority({
  store: await openStore(url),
  kinds: [wordListKind()],
  afterPublish: (_collection, version) => {
    process.stdout.write(`published version ${version}\n`, () => process.kill(process.pid, 'SIGKILL'));
    return new Promise<void>(() => undefined);
  },
});
await authority.absorb({ collection: 'lists', entry: 'alpha', value: { word: 'lost' }, taughtBy: 'dana', reason: 'r' }, 'crash');
