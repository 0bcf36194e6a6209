// The authority as a separate process for benchmarks: a `lists` collection of one entry.
import { wordListKind } from '@learnables/testing';
import { Authority, authorityService, openStore } from '../src/index.ts';

const [storeUrl = 'sqlite::memory:', port = '0'] = process.argv.slice(2);
const authority = new Authority({ store: await openStore(storeUrl), kinds: [wordListKind()] });
await authority.seed('lists', { alpha: { words: [] } }, 'bench');
const server = authorityService({ authority, tokens: { bench: 'bench' } }).listen(Number(port), '127.0.0.1', () => {
  const address = server.address();
  console.log(`ready ${typeof address === 'object' && address ? address.port : port}`);
});
