import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WordList } from '@learnables/testing';
import { wordListKind } from '@learnables/testing';
import { Authority } from '../authority.ts';
import { AuthorityClient, AuthorityRefused } from '../client/authority-client.ts';
import { engines } from '../engines.test-support.ts';
import { openStore } from '../store/open-store.ts';
import { authorityService } from './authority-service.ts';
import { silentLogger } from '../observe/logger.ts';

const lesson = (entry: string, word: string) => ({ collection: 'lists', entry, value: { word }, taughtBy: 'dana', reason: `teach ${word}` });
const newEntry = (label: string, key?: string) => ({
  collection: 'lists',
  newEntry: { label, ...(key && { key }) },
  taughtBy: 'dana',
  reason: 'a new list came in',
});
const retraction = (version: number) => ({ collection: 'lists', version, author: 'sam', reason: 'that was a typo' });

const refusalOf = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthorityRefused);
  return error as AuthorityRefused;
};

describe.each(engines)('entries, retraction and rollback over HTTP on $name', (engine) => {
  let dispose: () => Promise<void>;
  let authority: Authority;
  let server: Server;
  let client: AuthorityClient;

  beforeEach(async () => {
    const fresh = await engine.fresh();
    dispose = fresh.dispose;
    authority = new Authority({ store: await openStore(fresh.url), kinds: [wordListKind()] });
    await authority.seed('lists', { alpha: { words: [] }, beta: { words: ['b'] } }, 'lists.json');
    server = authorityService({ authority, tokens: { s3cret: 'console' }, logger: silentLogger() }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client = new AuthorityClient({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 's3cret', kinds: [wordListKind()] });
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await authority.close();
    await dispose();
  });

  const versionsAndActivations = async () => ({
    versions: (await authority.store.versions('lists')).length,
    activations: (await client.history('lists')).activations.length,
  });
  const wordsAt = async (version: number, key: string) =>
    ((await client.definition('lists', version)).entries.find((e) => e.key === key) as WordList | undefined)?.words;

  it('adds an entry as its own version, with a key made from the label, and lessons can then be taught to it', async () => {
    const added = await client.addEntry(newEntry('Harbour & Sons Ltd.'));
    expect(added).toEqual({
      collection: 'lists',
      entry: 'harbour-sons-ltd',
      changed: true,
      version: 2,
      audit: 'lists gained harbour-sons-ltd ("Harbour & Sons Ltd.")',
    });
    expect(await client.active('lists')).toMatchObject({ version: 2, kind: 'entry-added', entry: 'harbour-sons-ltd', author: 'dana', client: 'console' });
    const listed = await client.entries('lists', 2);
    expect(listed.entries.find((e) => e.key === 'harbour-sons-ltd')).toEqual({
      key: 'harbour-sons-ltd',
      label: 'Harbour & Sons Ltd.',
      state: { words: [], name: 'Harbour & Sons Ltd.' },
    });
    expect(await client.postLesson(lesson('harbour-sons-ltd', 'harbour'))).toMatchObject({ changed: true, version: 3 });
    expect(await wordsAt(3, 'harbour-sons-ltd')).toEqual(['harbour']);
  });

  it('adding an entry that exists with the same label changes nothing; another label on its key is refused in a sentence', async () => {
    await client.addEntry(newEntry('Harbour Ltd'));
    const before = await versionsAndActivations();
    expect(await client.addEntry(newEntry('Harbour Ltd'))).toMatchObject({ entry: 'harbour-ltd', changed: false, version: 2 });
    // The same company however it is written: the entry there is the answer (SPEC §3.5).
    expect(await client.addEntry(newEntry('HARBOUR  limited.'))).toMatchObject({ entry: 'harbour-ltd', changed: false, version: 2 });
    const clash = await refusalOf(client.addEntry(newEntry('Harbour Logistics', 'harbour-ltd')));
    expect(clash.status).toBe(409);
    expect(clash.refusal).toEqual({
      error: 'entry-exists',
      message: 'lists already has "harbour-ltd", called "Harbour Ltd"; give "Harbour Logistics" another key, or use the existing entry.',
      known: ['harbour-ltd'],
    });
    expect(await versionsAndActivations()).toEqual(before);
  });

  it('retracting one lesson keeps every other lesson, earlier and later, and retracting it twice makes one version', async () => {
    await client.postLesson(lesson('alpha', 'early')); // v2
    await client.postLesson(lesson('alpha', 'typo')); // v3
    await client.postLesson(lesson('alpha', 'fix')); // v4
    const retracted = await client.retract(retraction(3));
    expect(retracted).toEqual({ collection: 'lists', entry: 'alpha', retracted: 3, changed: true, version: 5, audit: "alpha no longer knows the word 'typo'" });
    expect(await wordsAt(5, 'alpha')).toEqual(['early', 'fix']);
    expect(await wordsAt(5, 'beta')).toEqual(['b']);
    expect(await client.active('lists')).toMatchObject({
      version: 5,
      kind: 'retraction',
      retracts: 3,
      author: 'sam',
      reason: 'that was a typo',
      audit: "alpha no longer knows the word 'typo'",
    });

    const before = await versionsAndActivations();
    const again = await client.retract(retraction(3));
    expect(again).toMatchObject({ changed: false, version: 5, retracted: 3 });
    expect(again.audit).toBe("Version 3's lesson was retracted already; nothing changed.");
    expect(await versionsAndActivations()).toEqual(before);
  });

  it('a lesson taught again after its retraction is not taken back by retracting the old version again', async () => {
    await client.postLesson(lesson('alpha', 'typo')); // v2
    await client.retract(retraction(2)); // v3
    await client.postLesson(lesson('alpha', 'typo')); // v4, taught again on purpose
    expect(await client.retract(retraction(2))).toMatchObject({ changed: false, version: 4 });
    expect(await wordsAt(4, 'alpha')).toEqual(['typo']);
  });

  it('retracting a lesson rolled back past changes nothing and says why', async () => {
    await client.postLesson(lesson('alpha', 'typo')); // v2
    await client.rollback('lists', { version: 1, author: 'sam', reason: 'start again' });
    const before = await versionsAndActivations();
    const outcome = await client.retract(retraction(2));
    expect(outcome).toMatchObject({ changed: false, version: 1 });
    expect(outcome.audit).toBe("Version 2's lesson is not in effect: version 1 is active and does not build on it, so there is nothing to take back.");
    expect(await versionsAndActivations()).toEqual(before);
  });

  it('retracts an added entry while it has no lessons, refuses while it has, and never a seed or a retraction', async () => {
    await client.addEntry(newEntry('Gamma')); // v2
    await client.postLesson(lesson('gamma', 'g')); // v3
    const taught = await refusalOf(client.retract(retraction(2)));
    expect(taught.status).toBe(409);
    expect(taught.refusal).toEqual({
      error: 'not-retractable',
      message: 'gamma has been taught since it was added; retract its lessons first, then the entry.',
    });
    await client.retract(retraction(3)); // v4: gamma is empty again
    expect(await client.retract(retraction(2))).toMatchObject({ changed: true, version: 5, audit: 'lists no longer has gamma ("Gamma")' });
    expect((await client.definition('lists', 5)).entries.map((e) => e.key)).toEqual(['alpha', 'beta']);
    // The removal survives a cold read from storage, not just the writer's cache.
    const cold = new AuthorityClient({ url: (client as unknown as { base: string }).base, kinds: [wordListKind()] });
    expect((await cold.definition('lists', 5)).entries.map((e) => e.key)).toEqual(['alpha', 'beta']);
    const restarted = new Authority({ store: authority.store, kinds: [wordListKind()] });
    expect((await restarted.resolve('lists', 5)).entries.map((e) => e.key)).toEqual(['alpha', 'beta']);
    expect((await restarted.resolve('lists', 4)).entries.map((e) => e.key)).toEqual(['alpha', 'beta', 'gamma']);

    expect((await refusalOf(client.retract(retraction(1)))).refusal.message).toBe(
      'Version 1 of lists is its seed; roll back or teach instead of retracting it.',
    );
    expect((await refusalOf(client.retract(retraction(4)))).refusal.message).toBe(
      'Version 4 of lists is itself a retraction; teach that lesson again to bring it back.',
    );
    const unknown = await refusalOf(client.retract(retraction(99)));
    expect(unknown.status).toBe(404);
    expect(unknown.refusal).toEqual({ error: 'unknown-version', message: 'lists has no version 99; its versions are 1 to 5.' });
  });

  it('refuses a retraction it cannot read, in a sentence, and writes nothing', async () => {
    const before = await versionsAndActivations();
    const malformed = await refusalOf(client.retract({ collection: 'lists', version: 'three', author: 'sam', reason: 'r' } as never));
    expect(malformed.status).toBe(400);
    expect(malformed.refusal.message).toBe('That retraction cannot be read: version must be a number.');
    expect(await versionsAndActivations()).toEqual(before);
  });

  it("a rollback's preview and its answer list the activations it takes out of effect", async () => {
    await client.postLesson(lesson('alpha', 'one')); // v2
    await client.addEntry(newEntry('Gamma')); // v3
    await client.postLesson(lesson('alpha', 'two')); // v4
    const preview = await client.rollbackPreview('lists', 2);
    expect(preview).toMatchObject({ collection: 'lists', from: 4, to: 2, restores: [] });
    expect(preview.undoes.map((a) => [a.version, a.kind, a.audit])).toEqual([
      [3, 'entry-added', 'lists gained gamma ("Gamma")'],
      [4, 'lesson', "alpha knows the word 'two'"],
    ]);
    expect((await client.history('lists')).activations).toHaveLength(4); // the preview wrote nothing

    const rolled = await client.rollback('lists', { version: 2, author: 'sam', reason: 'too much at once' });
    expect(rolled).toMatchObject({ version: 2, kind: 'rollback', audit: 'lists rolled back from version 4 to version 2, taking out versions 3, 4' });
    expect(rolled.undoes.map((a) => a.version)).toEqual([3, 4]);
    // Rolling forward again says what it brings back.
    const forward = await client.rollbackPreview('lists', 4);
    expect(forward.undoes).toEqual([]);
    expect(forward.restores.map((a) => a.version)).toEqual([3, 4]);
  });
});
