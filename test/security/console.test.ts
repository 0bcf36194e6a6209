// The console's attack surface (and the authority's Host check), one finding of issue 15 per case.
// Each case failed on the code before its fix; SECURITY.md says what each one guards.
import { request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Authority, authorityService, openStore } from '@learnables/authority';
import { createConsole } from '@learnables/console';
import type { RunningConsole } from '@learnables/console';
import { scratchDir, wordListKind } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';

interface Answer {
  readonly status: number;
  readonly body: { error?: string; message?: string };
}

/** A raw HTTP request: Node's fetch will not send a Host of our choosing. */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        let parsed: Answer['body'] = {};
        try {
          parsed = JSON.parse(text) as Answer['body'];
        } catch {
          // the page, not JSON
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('console security', () => {
  let dir: ScratchDir;
  let authority: Authority;
  let authorityServer: Server;
  let authorityUrl: string;
  let app: RunningConsole;
  let host: string;
  let replays = 0;
  const dana = { cookie: 'learnables-operator=dana' };

  beforeAll(async () => {
    dir = scratchDir('security-console-');
    authority = new Authority({ store: await openStore(`sqlite:${dir.path}/authority.db`), kinds: [wordListKind()] });
    await authority.seed('lists', { alpha: { words: [] } }, 'lists.json');
    authorityServer = authorityService({ authority, tokens: { 'console-token': 'console' }, hosts: 'authority', log: () => undefined }).listen(0, '127.0.0.1');
    await new Promise((resolve) => authorityServer.once('listening', resolve));
    authorityUrl = `http://127.0.0.1:${(authorityServer.address() as AddressInfo).port}`;
    app = await createConsole({
      agents: [],
      authority: { url: authorityUrl, token: 'console-token' },
      origins: 'https://console.example',
      replay: {
        label: 'Replay',
        description: 'Counts how often it was started.',
        async run() {
          replays += 1;
          return 'done';
        },
      },
      log: () => undefined,
    });
    host = new URL(app.url).host;
  });
  afterAll(async () => {
    await app?.close();
    authorityServer?.closeAllConnections();
    await new Promise((resolve) => authorityServer?.close(resolve));
    await authority?.close();
    dir?.remove();
  });

  it('refuses a Host it was not configured with (DNS rebinding), on pages, reads and writes; loopback and configured names pass', async () => {
    const port = new URL(app.url).port;
    for (const evil of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, 'evil.example']) {
      expect((await send(`${app.url}/`, 'GET', { host: evil })).status, evil).toBe(421);
      expect((await send(`${app.url}/api/session`, 'GET', { host: evil })).status).toBe(421);
      const write = await send(`${app.url}/api/replay`, 'POST', { host: evil, 'content-type': 'application/json', ...dana }, '{"confirm":"replay"}');
      expect(write.status).toBe(421);
      expect(write.body.message).toMatch(/does not answer to the name/);
    }
    expect((await send(`${app.url}/api/session`, 'GET', { host: `localhost:${port}` })).status).toBe(200);
    expect((await send(`${app.url}/api/session`, 'GET', { host: 'console.example' })).status).toBe(200);
    expect(replays).toBe(0);
  });

  it('the authority refuses a Host it was not configured with, and answers its own names', async () => {
    const port = new URL(authorityUrl).port;
    expect((await send(`${authorityUrl}/v1/collections`, 'GET', { host: `evil.example:${port}` })).status).toBe(421);
    expect((await send(`${authorityUrl}/v1/collections`, 'GET', { host: `authority:${port}` })).status).toBe(200);
    expect((await send(`${authorityUrl}/v1/collections`, 'GET', { host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it('refuses writes that another page makes in the operator’s name: a text/plain replay, a foreign Origin, a cross-site fetch', async () => {
    const replay = (headers: Record<string, string>, body = '{"confirm":"replay"}') => send(`${app.url}/api/replay`, 'POST', { host, ...dana, ...headers }, body);
    // The form another page can send without asking first: text/plain.
    expect((await replay({ 'content-type': 'text/plain' }, '{"confirm":"replay"}')).status).toBe(415);
    expect((await replay({ 'content-type': 'application/x-www-form-urlencoded' }, 'confirm=replay')).status).toBe(415);
    expect((await replay({})).status).toBe(415);
    // Same site, other port: the cookie would ride along; Origin and Sec-Fetch-Site tell.
    expect((await replay({ 'content-type': 'application/json', origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await replay({ 'content-type': 'application/json', origin: 'null' })).status).toBe(403);
    expect((await replay({ 'content-type': 'application/json', 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await replay({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // Files too, and signing in (a forced sign-in would put the attacker's name on the operator's lessons).
    expect((await send(`${app.url}/api/agents/0/files?filename=a.csv`, 'POST', { host, ...dana, 'content-type': 'text/csv', origin: 'http://127.0.0.1:1' }, 'a,b')).status).toBe(403);
    expect((await send(`${app.url}/api/session`, 'POST', { host, 'content-type': 'text/plain' }, '{"name":"mallory"}')).status).toBe(415);
    expect((await send(`${app.url}/api/session`, 'DELETE', { host, ...dana, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(replays).toBe(0);
  });

  it('starts the replay only on a same-origin JSON confirmation', async () => {
    const json = { host, ...dana, 'content-type': 'application/json', origin: app.url, 'sec-fetch-site': 'same-origin' };
    const unconfirmed = await send(`${app.url}/api/replay`, 'POST', json, '{}');
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.message).toMatch(/"confirm": "replay"/);
    expect(replays).toBe(0);
    expect((await send(`${app.url}/api/replay`, 'POST', json, '{"confirm":"replay"}')).status).toBe(202);
    await expect.poll(() => replays).toBe(1);
  });

  it('refuses names with control characters, lone surrogates or direction overrides in a sentence (400, not 500)', async () => {
    for (const name of ['\ud800', 'dana\udc00', 'dana\nadmin', 'dana\u0000', 'dana\u202enimda', 'x\u2066y']) {
      const answer = await send(`${app.url}/api/session`, 'POST', { host, 'content-type': 'application/json' }, JSON.stringify({ name }));
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.body).toMatchObject({ error: 'malformed', message: expect.stringMatching(/^That name contains/) });
    }
    const fine = await send(`${app.url}/api/session`, 'POST', { host, 'content-type': 'application/json' }, JSON.stringify({ name: 'Dana Ørsted' }));
    expect(fine.status).toBe(200);
    // A hand-made cookie with such a name signs nobody in.
    const forged = await send(`${app.url}/api/session`, 'GET', { host, cookie: `learnables-operator=${encodeURIComponent('dana\u202enimda')}` });
    expect(forged.body).toEqual({ operator: null });
  });
});
