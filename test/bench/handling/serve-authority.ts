// The authority as its own process for the handling benchmark: `handling` seeded with `examples`
// generated examples (the agent's word lists, seed 99: none the benchmark's own process has read).
import { Authority, authorityService, openStore } from '@learnables/authority';
import { handlingExamplesKind } from '@learnables/handling-agent';
import { generatedEntries } from './generated.ts';

const [store = 'sqlite::memory:', examples = '1000'] = process.argv.slice(2);
const authority = new Authority({ store: await openStore(store), kinds: [handlingExamplesKind] });
await authority.seed('handling', generatedEntries(Number(examples), 99), 'bench');
const server = authorityService({ authority, tokens: { bench: 'bench' } }).listen(0, '127.0.0.1', () => {
  const bound = server.address();
  console.log(`ready ${typeof bound === 'object' && bound ? bound.port : 0}`);
});
