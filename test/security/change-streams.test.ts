// The authority's change feed is anonymous, and every stream holds a socket, a timer and a
// subscription for as long as the caller keeps it: 300 were taken from one caller (issue 34,
// finding 10). Streams are bounded in all and per address; past a bound, 503 with Retry-After and a
// sentence. Each case failed on the code before its fix.
import type { ClientRequest, IncomingMessage, Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeStreamLimits } from '@learnables/authority';
import { Authority, DEFAULT_CHANGE_STREAMS, authorityService, openStore } from '@learnables/authority';
import { scratchDir, wordListKind } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { silentLogger } from '@learnables/authority';

interface Stream {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Promise<string>;
  close(): void;
}

/** Open the change feed from `localAddress`, resolving once the status is in (a stream stays open). */
function openStream(port: number, localAddress = '127.0.0.1'): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const asked: ClientRequest = request({ host: '127.0.0.1', port, path: '/v1/changes', localAddress }, (answer) => {
      const body = new Promise<string>((done) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => {
          text += chunk;
        });
        answer.on('end', () => done(text));
        answer.on('close', () => done(text));
      });
      resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body, close: () => asked.destroy() });
    });
    asked.on('error', reject);
    asked.end();
  });
}

describe('the change feed', () => {
  let dir: ScratchDir | undefined;
  let server: Server | undefined;
  let authority: Authority | undefined;
  const streams: Stream[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await authority?.close();
    dir?.remove();
  });

  async function start(changeStreams?: ChangeStreamLimits): Promise<number> {
    dir = scratchDir('change-streams-');
    authority = new Authority({ store: await openStore(`sqlite:${dir.path}/authority.db`), kinds: [wordListKind()] });
    await authority.seed('lists', { alpha: { words: [] } }, 'lists.json');
    server = authorityService({ authority, tokens: { t0ken: 'console' }, logger: silentLogger(), ...(changeStreams && { changeStreams }) }).listen(
      0,
      '127.0.0.1',
    );
    await new Promise((resolve) => server!.once('listening', resolve));
    return (server.address() as AddressInfo).port;
  }

  it(`keeps ${DEFAULT_CHANGE_STREAMS.perAddress} streams open to one address by default; the next is refused with Retry-After until one closes`, async () => {
    const port = await start();
    for (let n = 0; n < DEFAULT_CHANGE_STREAMS.perAddress; n++) {
      const stream = await openStream(port);
      streams.push(stream);
      expect(stream.status, `stream ${n + 1}`).toBe(200);
    }
    const refused = await openStream(port);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(JSON.parse(await refused.body)).toEqual({
      error: 'busy',
      message: `The authority keeps ${DEFAULT_CHANGE_STREAMS.perAddress} change streams open to one address at most, and yours has that many; close one, or try again shortly.`,
    });
    // A stream that closes gives its place back (asked again until the close is seen, never timed).
    streams.shift()!.close();
    let again: Stream | undefined;
    for (let tries = 0; tries < 200 && again?.status !== 200; tries++) {
      again?.close();
      again = await openStream(port);
      if (again.status !== 200) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    streams.push(again!);
    expect(again!.status).toBe(200);
  });

  it('bounds the streams of every address together', async () => {
    const port = await start({ total: 3, perAddress: 2 });
    for (const from of ['127.0.0.1', '127.0.0.1', '127.0.0.2']) {
      const stream = await openStream(port, from);
      streams.push(stream);
      expect(stream.status, from).toBe(200);
    }
    const refused = await openStream(port, '127.0.0.3');
    expect(refused.status).toBe(503);
    expect(JSON.parse(await refused.body)).toMatchObject({
      error: 'busy',
      message: 'The authority keeps 3 change streams open at most, and that many are; nothing was opened, try again shortly.',
    });
  });
});
