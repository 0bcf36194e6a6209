// The authority's attack surface, one finding of issue 15 per case. Each case failed on the code
// before its fix; SECURITY.md says what each one guards.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Authority, authorityService, openStore } from '@learnables/authority';
import { parseTokens } from '@learnables/stack';
import { scratchDir, scratchPostgres, wordListKind } from '@learnables/testing';
import type { ScratchDatabase, ScratchDir } from '@learnables/testing';
import { HOSTILE_TOKENS } from '../support/hostile.ts';
import { silentLogger } from '@learnables/authority';

const lesson = { collection: 'lists', entry: 'alpha', value: { word: 'mallory' }, taughtBy: 'mallory', reason: 'a token that is not one' };

/** Every route that writes, with a body it would accept from a real token. */
const WRITING_ROUTES: readonly { path: string; body: unknown }[] = [
  { path: '/v1/lessons', body: lesson },
  { path: '/v1/collections/lists/rollback', body: { version: 1, author: 'mallory', reason: 'a token that is not one' } },
];

interface Running {
  readonly base: string;
  readonly authority: Authority;
  close(): Promise<void>;
}

async function startAuthority(storeUrl: string): Promise<Running> {
  const authority = new Authority({ store: await openStore(storeUrl), kinds: [wordListKind()] });
  await authority.seed('lists', { alpha: { words: [] } }, 'lists.json');
  // As the stack reads AUTHORITY_TOKENS: only these two tokens may write.
  const tokens = parseTokens('console=console-token,email-agent=agent-token');
  const server: Server = authorityService({ authority, tokens, logger: silentLogger() }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authority,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await authority.close();
    },
  };
}

const post = (url: string, body: unknown, authorization?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization !== undefined && { authorization }) },
    body: JSON.stringify(body),
  });

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`authority security (${engine})`, () => {
    let dir: ScratchDir | undefined;
    let database: ScratchDatabase | undefined;
    let running: Running;

    beforeAll(async () => {
      if (engine === 'sqlite') {
        dir = scratchDir('security-authority-');
        running = await startAuthority(`sqlite:${dir.path}/authority.db`);
      } else {
        database = await scratchPostgres('security_authority');
        running = await startAuthority(database.url);
      }
    });
    afterAll(async () => {
      await running?.close();
      await database?.drop();
      dir?.remove();
    });

    it('refuses every Object.prototype name and the empty string as a bearer token on every writing route, writing nothing', async () => {
      const before = await running.authority.history('lists');
      const accepted: string[] = [];
      for (const route of WRITING_ROUTES) {
        for (const token of HOSTILE_TOKENS) {
          for (const authorization of [`Bearer ${token}`, `bearer ${token}`, token]) {
            const answer = await post(`${running.base}${route.path}`, route.body, authorization);
            if (answer.status !== 401) accepted.push(`${route.path} with "${authorization}" → ${answer.status}`);
            else expect(((await answer.json()) as { error: string }).error).toBe('unauthorized');
          }
        }
      }
      expect(accepted).toEqual([]);
      expect(await running.authority.history('lists')).toEqual(before);
    });

    it('refuses a lesson value nested thousands deep in a sentence (400), not a 500', async () => {
      const deep = `{"collection":"lists","entry":"alpha","value":{"word":${'['.repeat(5000)}1${']'.repeat(5000)}},"taughtBy":"m","reason":"r"}`;
      const answer = await fetch(`${running.base}/v1/lessons`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer console-token' },
        body: deep,
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        error: 'malformed',
        message: expect.stringMatching(/nests deeper than 20 levels; a lesson's value may nest at most 16/),
      });
    });

    it('answers 400 to a history page that is not a whole number, and still pages by activation id', async () => {
      for (const query of ['before=abc', 'limit=abc', 'before=-1', 'before=1.5', 'limit=0', 'before=']) {
        const answer = await fetch(`${running.base}/v1/collections/lists/history?${query}`);
        expect(answer.status, query).toBe(400);
        expect(((await answer.json()) as { message: string }).message).toMatch(/not a whole number from 1/);
      }
      const all = ((await (await fetch(`${running.base}/v1/collections/lists/history`)).json()) as { activations: { id: number }[] }).activations;
      const below = (
        (await (await fetch(`${running.base}/v1/collections/lists/history?before=${all[0]!.id}&limit=1000`)).json()) as { activations: { id: number }[] }
      ).activations;
      expect(below).toEqual(all.slice(1));
    });

    it('answers a rollback to the active version with changed: false and records nothing', async () => {
      const active = await running.authority.active('lists');
      const before = await running.authority.history('lists');
      const same = await post(
        `${running.base}/v1/collections/lists/rollback`,
        { version: active.version, author: 'sam', reason: 'again' },
        'Bearer console-token',
      );
      expect(same.status).toBe(200);
      expect(await same.json()).toEqual({ ...active, undoes: [], restores: [], changed: false });
      expect(await running.authority.history('lists')).toEqual(before);
      const taught = (await (await post(`${running.base}/v1/lessons`, { ...lesson, value: { word: 'rolled' } }, 'Bearer console-token')).json()) as {
        version: number;
      };
      const back = await post(
        `${running.base}/v1/collections/lists/rollback`,
        { version: taught.version - 1, author: 'sam', reason: 'undo' },
        'Bearer console-token',
      );
      expect(await back.json()).toMatchObject({ version: taught.version - 1, kind: 'rollback', changed: true });
    });

    it('records the user a relaying client names as "<user> via <client>", and refuses an unreadable one', async () => {
      const relayed = (word: string, onBehalfOf: string) =>
        fetch(`${running.base}/v1/lessons`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer agent-token', 'learnables-on-behalf-of': onBehalfOf },
          body: JSON.stringify({ ...lesson, value: { word } }),
        });
      expect((await relayed('relayed', encodeURIComponent('Dana Ørsted'))).status).toBe(200);
      expect(await running.authority.active('lists')).toMatchObject({ client: 'Dana Ørsted via email-agent' });
      for (const bad of [
        encodeURIComponent('dana\nclient: console'),
        encodeURIComponent('dana\u202e'),
        '%E0%A4%A',
        '%20',
        encodeURIComponent('x'.repeat(121)),
      ]) {
        const answer = await relayed('refused', bad);
        expect(answer.status, bad).toBe(400);
        expect(((await answer.json()) as { error: string }).error).toBe('malformed');
      }
      expect(await running.authority.active('lists')).toMatchObject({ client: 'Dana Ørsted via email-agent' });
    });

    it('still takes a real token, in any letter case of the scheme, and records its name as the client', async () => {
      const taught = await post(`${running.base}/v1/lessons`, { ...lesson, value: { word: 'kept' } }, 'bearer console-token');
      expect(taught.status).toBe(200);
      expect(await running.authority.active('lists')).toMatchObject({ client: 'console', author: 'mallory' });
      // A token that merely starts like a real one is not it.
      expect((await post(`${running.base}/v1/lessons`, lesson, 'Bearer console-toke')).status).toBe(401);
      expect((await post(`${running.base}/v1/lessons`, lesson, 'Bearer console-token2')).status).toBe(401);
    });
  });
}
