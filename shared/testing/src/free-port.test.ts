import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';

describe('freePort', () => {
  const RANGE = '/proc/sys/net/ipv4/ip_local_port_range';
  // Linux says where its ephemeral range is; elsewhere the default is assumed and not checked here.
  it.runIf(existsSync(RANGE))("gives a port outside the kernel's ephemeral range that can be listened on", async () => {
    const [low, high] = readFileSync(RANGE, 'utf8').trim().split(/\s+/).map(Number) as [number, number];
    for (let i = 0; i < 20; i += 1) {
      const port = await freePort();
      expect(port < low || port > high, `port ${port}`).toBe(true);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
