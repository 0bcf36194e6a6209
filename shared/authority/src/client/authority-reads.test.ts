import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthorityClient, AuthorityUnavailable } from './authority-client.ts';

// Reads go over node:http on kept-alive connections (authority-client.ts). A server may close a
// kept-alive connection just as a read is sent on it; the read is then sent once more on a new one.
describe("the authority client's reads on kept-alive connections", () => {
  const sockets: Socket[] = [];
  let close = () => undefined as void;
  afterEach(() => {
    for (const socket of sockets) socket.destroy();
    close();
  });

  /** A raw HTTP server: `answer(connection, request)` says what to do with each request. */
  async function server(answer: (connection: number, request: number, socket: Socket) => void): Promise<{ url: string; connections: () => number }> {
    let connections = 0;
    const tcp = createServer((socket) => {
      sockets.push(socket);
      connections += 1;
      const connection = connections;
      let requests = 0;
      socket.on('data', (chunk) => {
        for (let at = chunk.indexOf('\r\n\r\n'); at >= 0; at = chunk.indexOf('\r\n\r\n', at + 4)) {
          requests += 1;
          answer(connection, requests, socket);
        }
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    close = () => void tcp.close();
    return { url: `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`, connections: () => connections };
  }

  const ok = (socket: Socket, version: number) => {
    const body = JSON.stringify({ collection: 'lists', version });
    socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
  };

  it('sends a read again on a new connection when the kept-alive one is reset under it', async () => {
    const authority = await server((connection, request, socket) => {
      if (connection === 1 && request === 2) socket.resetAndDestroy();
      else ok(socket, connection * 10 + request);
    });
    const client = new AuthorityClient({ url: authority.url });
    expect(await client.active('lists')).toEqual({ collection: 'lists', version: 11 });
    expect(await client.active('lists')).toEqual({ collection: 'lists', version: 21 });
    expect(authority.connections()).toBe(2);
  });

  it('says the authority cannot be reached when a fresh connection is reset too', async () => {
    const authority = await server((_connection, _request, socket) => socket.resetAndDestroy());
    const client = new AuthorityClient({ url: authority.url });
    await expect(client.active('lists')).rejects.toBeInstanceOf(AuthorityUnavailable);
    expect(authority.connections()).toBe(1);
  });

  it('gives up on a read that takes longer than the timeout, saying so', async () => {
    const authority = await server(() => undefined);
    const client = new AuthorityClient({ url: authority.url, timeoutMs: 200 });
    await expect(client.active('lists')).rejects.toThrow(/cannot be reached: it did not answer within 200 ms/);
  });

  it('gives up on an answer that starts and never ends, the timeout counting the whole read', async () => {
    // Headers and a first byte, then a byte every 50 ms: never idle for long, never done.
    const authority = await server((_connection, _request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write(' ')), 50);
      socket.on('close', () => clearInterval(drip));
    });
    const client = new AuthorityClient({ url: authority.url, timeoutMs: 300 });
    await expect(client.active('lists')).rejects.toThrow(/cannot be reached: it did not answer within 300 ms/);
  });

  it("clears each read's deadline when the read ends: no timer is left to fire after it", async () => {
    const authority = await server((connection, request, socket) => ok(socket, connection * 100 + request));
    const client = new AuthorityClient({ url: authority.url, timeoutMs: 4321 });
    const deadlines: unknown[] = [];
    const cleared = new Set<unknown>();
    const set = globalThis.setTimeout;
    const clear = globalThis.clearTimeout;
    const setSpy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
      const timer = set(callback, ms);
      if (ms === 4321) deadlines.push(timer);
      return timer;
    }) as typeof setTimeout);
    const clearSpy = vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((timer?: Parameters<typeof clearTimeout>[0]) => {
      cleared.add(timer);
      clear(timer);
    }) as typeof clearTimeout);
    try {
      for (let read = 1; read <= 5; read += 1) expect(await client.active('lists')).toEqual({ collection: 'lists', version: 100 + read });
      // 'close' follows the answer's end by a tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
    expect(deadlines).toHaveLength(5);
    expect(deadlines.filter((timer) => !cleared.has(timer))).toEqual([]);
    expect(authority.connections()).toBe(1);
  });
});
