import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

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

/** The port something could listen on at 127.0.0.1 right now (`0`: any the kernel gives), or undefined if none. */
function listenable(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as AddressInfo).port;
      server.close(() => resolve(bound));
    });
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
      const port = await listenable(LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1)));
      if (port !== undefined) return port;
    }
  }
  const any = await listenable(0);
  if (any === undefined) throw new Error('No port could be listened on at 127.0.0.1.');
  return any;
}
