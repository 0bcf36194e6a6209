import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the kernel takes ports for outgoing connections and `listen(0)` (Linux's default if unreadable). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux, or no /proc: assume the default.
  }
  return [32768, 60999];
}

/** Whether something can listen on `port` of 127.0.0.1 right now. */
function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Below the ephemeral range, above the well-known services (PostgreSQL, Redis, RabbitMQ, NATS, MariaDB...). */
const LOWEST = 20_000;

/**
 * A port nobody listens on now, for a process a test starts later on a port fixed beforehand (a
 * balancer's configuration names its replicas' ports). Picked outside the kernel's ephemeral
 * range: a port `listen(0)` hands out is free only until the kernel hands it again, to any
 * outgoing connection of any process (a pool's next connection to PostgreSQL, say), and a replica
 * started on it a few seconds later then failed with EADDRINUSE. Random among some 12,000 ports
 * (so that tests running side by side rarely pick the same one) and checked by listening on it;
 * `listen(0)` where none is found.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const highest = ephemeralLow - 1;
  if (highest > LOWEST) {
    for (let tries = 0; tries < 50; tries += 1) {
      const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
      if (await listenable(port)) return port;
    }
  }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
