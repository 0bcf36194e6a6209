import { afterEach, describe, expect, it } from 'vitest';
import { AuthorityClient } from '@learnables/authority';
import type { Activation } from '@learnables/authority';
import { scratchDir, scratchPostgres } from '@learnables/testing';
import type { Service } from '../support/processes.ts';
import { freePort, startService } from '../support/processes.ts';

const TOKEN = 'fault-token';
const lesson = (i: number, author = 'stream') => ({
  collection: 'customers',
  entry: 'northgate',
  value: { pattern: `REF-FAULT-${String(i).padStart(5, '0')}`, where: 'subject' },
  taughtBy: author,
  reason: `lesson ${i}`,
});

async function startAuthority(store: string): Promise<Service> {
  const port = await freePort();
  return startService(
    'authority-main.ts',
    { AUTHORITY_PORT: String(port), AUTHORITY_STORE: store, AUTHORITY_TOKENS: `faults=${TOKEN}` },
    `http://127.0.0.1:${port}`,
  );
}

/** Versions must run 1, 2, 3 … with no gap, each with exactly one publishing activation. */
function expectGapless(history: Activation[]): void {
  const published = history
    .filter((a) => a.kind !== 'rollback')
    .map((a) => a.version)
    .sort((a, b) => a - b);
  expect(published).toEqual(Array.from({ length: published.length }, (_, i) => i + 1));
}

describe('the authority under faults', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  for (const engine of ['SQLite', 'PostgreSQL'] as const) {
    it(`keeps every accepted lesson when killed (SIGKILL) in the middle of a stream — ${engine}`, async () => {
      let store: string;
      if (engine === 'SQLite') {
        const dir = scratchDir('authority-kill-');
        cleanup.push(() => dir.remove());
        store = `sqlite:${dir.path}/authority.db`;
      } else {
        const db = await scratchPostgres('authority_kill');
        cleanup.push(() => db.drop());
        store = db.url;
      }
      const first = await startAuthority(store);
      const client = new AuthorityClient({ url: first.url, token: TOKEN, timeoutMs: 5000 });
      const accepted = new Map<number, number>();
      let next = 0;
      let dead = false;
      // Four writers stream lessons; the authority is killed while they are in flight.
      const writers = Array.from({ length: 4 }, async () => {
        while (!dead) {
          const i = next++;
          try {
            const outcome = await client.postLesson(lesson(i));
            accepted.set(i, outcome.version);
          } catch {
            return;
          }
        }
      });
      while (accepted.size < 40) await new Promise((resolve) => setTimeout(resolve, 5));
      dead = true;
      first.child.kill('SIGKILL');
      await Promise.all(writers);

      const second = await startAuthority(store);
      cleanup.push(() => second.stop());
      const reader = new AuthorityClient({ url: second.url });
      const history = (await reader.history('customers', { limit: 1000 })).activations;
      expectGapless(history);
      const byVersion = new Map(history.map((a) => [a.version, a]));
      for (const [i, version] of accepted) {
        expect(byVersion.get(version)?.reason, `lesson ${i} was accepted as version ${version}`).toBe(`lesson ${i}`);
      }
      // Every version that exists resolves: nothing half-written.
      const newest = Math.max(...history.map((a) => a.version));
      const definition = await reader.entries('customers', newest);
      const marks = (definition.entries.find((e) => e.key === 'northgate')!.state as { marks: { pattern: string }[] }).marks;
      expect(marks.filter((m) => m.pattern.startsWith('REF-FAULT-'))).toHaveLength(newest - 1);
      // And it goes on taking lessons where it stopped.
      const after = await new AuthorityClient({ url: second.url, token: TOKEN }).postLesson(lesson(99_999));
      expect(after.version).toBe(newest + 1);
    });
  }

  it('loses none of 100 concurrent lessons from 10 clients across two authority replicas on PostgreSQL', async () => {
    const db = await scratchPostgres('authority_race');
    cleanup.push(() => db.drop());
    const replicas = [await startAuthority(db.url), await startAuthority(db.url)];
    cleanup.push(() => Promise.all(replicas.map((r) => r.stop())).then(() => undefined));
    const clients = Array.from({ length: 10 }, (_, c) => new AuthorityClient({ url: replicas[c % 2]!.url, token: TOKEN }));
    const outcomes = await Promise.all(
      clients.flatMap((client, c) => Array.from({ length: 10 }, (_, k) => client.postLesson(lesson(c * 10 + k, `client-${c}`)))),
    );
    expect(outcomes.every((o) => o.changed)).toBe(true);
    expect(outcomes.map((o) => o.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    const history = (await clients[0]!.history('customers', { limit: 1000 })).activations;
    expectGapless(history);
    // Numbers strictly increase in the order activations were made.
    const chronological = [...history].reverse().map((a) => a.version);
    expect(chronological).toEqual([...chronological].sort((a, b) => a - b));
    expect(new Set(history.filter((a) => a.kind === 'lesson').map((a) => a.author)).size).toBe(10);
  });
});
