import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '@learnables/testing';
import { wordListKind } from '@learnables/testing';
import { Authority } from '../authority.ts';
import { authorityService } from '../http/authority-service.ts';
import { openStore } from '../store/open-store.ts';
import { AuthorityClient } from './authority-client.ts';
import { silentLogger } from '../observe/logger.ts';

// A client that has fetched a version asks for the next as changes since it. These tests hold
// that to giving exactly what fetching every entry gives, for every version of generated
// histories with rollbacks and branches, whatever version the client fetched last.

const dir = scratchDir('changes-since-');
let authority: Authority;
let server: Server;
let url: string;
let run = 0;

beforeAll(async () => {
  authority = new Authority({ store: await openStore(`sqlite:${dir.path}/a.db`), kinds: Array.from({ length: 5000 }, (_, i) => wordListKind(`lists${i}`)) });
  server = authorityService({ authority, tokens: { t: 'console' }, logger: silentLogger() }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await authority.close();
  dir.remove();
});

const state = (definition: { entries: readonly { key: string; toState(): unknown }[] }) =>
  definition.entries.map((entry) => [entry.key, JSON.stringify(entry.toState())]);

describe('fetching a version as changes since an earlier one', () => {
  it('gives every version exactly as fetching it whole, in any order of fetching', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ teach: fc.nat({ max: 6 }), word: fc.constantFrom('a', 'b', 'c', 'd') }),
            fc.record({ rollbackTo: fc.nat() }),
            // New entries go last: after a rollback, branches add different ones in the same place.
            fc.record({ add: fc.constantFrom('n1', 'n2', 'n3', 'n4') }),
          ),
          { minLength: 1, maxLength: 25 },
        ),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        async (history, fetchOrder) => {
          run += 1;
          const collection = `lists${run}`;
          const kinds = [wordListKind(collection)];
          await authority.seed(collection, { e0: { words: [] }, e1: { words: ['x'] } }, 'test');
          let newest = 1;
          for (const step of history) {
            if ('teach' in step) {
              // Only the seeded entries and the added ones exist: a lesson to another is refused, nothing is written.
              const entry = step.teach < 2 ? `e${step.teach}` : `n${step.teach - 2}`;
              const outcome = await authority.absorb({ collection, entry, value: { word: step.word }, taughtBy: 'd', reason: 'r' }, 'c').catch(() => undefined);
              newest = Math.max(newest, outcome?.version ?? 0);
            } else if ('add' in step) {
              // Refused when the active version has it already.
              const outcome = await authority
                .addEntry({ collection, newEntry: { label: step.add, key: step.add }, taughtBy: 'd', reason: 'r' }, 'c')
                .catch(() => undefined);
              newest = Math.max(newest, outcome?.version ?? 0);
            } else {
              await authority.rollback(collection, { version: 1 + (step.rollbackTo % newest), author: 's', reason: 'r' }, 'c');
            }
          }
          const following = new AuthorityClient({ url, kinds });
          for (const pick of fetchOrder) {
            const version = 1 + (pick % newest);
            const whole = new AuthorityClient({ url, kinds });
            expect(state(await following.definition(collection, version))).toEqual(state(await whole.definition(collection, version)));
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('asks only for what changed, and keeps the untouched entries as the same objects', async () => {
    const collection = 'lists0';
    await authority.seed(collection, Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`e${i}`, { words: [] }])), 'test');
    const client = new AuthorityClient({ url, kinds: [wordListKind(collection)] });
    const first = await client.definition(collection, 1);
    const outcome = await authority.absorb({ collection, entry: 'e7', value: { word: 'w' }, taughtBy: 'd', reason: 'r' }, 'c');
    const answer = (await (await fetch(`${url}/v1/collections/${collection}/versions/${outcome.version}?since=1`)).json()) as {
      since: number;
      entries: { key: string }[];
    };
    expect(answer).toMatchObject({ since: 1, entries: [{ key: 'e7' }] });
    const second = await client.definition(collection, outcome.version);
    expect(second.entries.filter((entry, i) => entry !== first.entries[i]).map((entry) => entry.key)).toEqual(['e7']);
  });
});
