// The authority as its own process for the lesson → decision benchmark: `customers` seeded with
// `marks` marks (two per customer: the sender, and a reference in the subject).
import { Authority, authorityService, openStore } from '@learnables/authority';
import { customerMarksKind } from '@learnables/email-agent';
import { seedCustomers } from './customers.ts';

const [store = 'sqlite::memory:', marks = '1000'] = process.argv.slice(2);
const authority = new Authority({ store: await openStore(store), kinds: [customerMarksKind] });
await authority.seed('customers', seedCustomers(Number(marks)), 'bench');
const server = authorityService({ authority, tokens: { bench: 'bench' } }).listen(0, '127.0.0.1', () => {
  const bound = server.address();
  console.log(`ready ${typeof bound === 'object' && bound ? bound.port : 0}`);
});
