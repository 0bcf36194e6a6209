import type { NextFunction, Request, Response } from 'express';

/** The names a loopback-bound service is always reached by. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a Host header or an origin, lower-cased, without its port. */
export function hostNameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  const colon = lower.lastIndexOf(':');
  return colon < 0 ? lower : lower.slice(0, colon);
}

/**
 * The host names a service answers to: the loopback names, plus those configured (host names or
 * origins such as `https://console.example`, comma-separated). Checking `Host` defeats DNS
 * rebinding: a page on `evil.example` that re-points its name at 127.0.0.1 still sends
 * `Host: evil.example`, and is refused before it can read or write anything.
 */
export function allowedHosts(configured: string | readonly string[] | undefined): ReadonlySet<string> {
  const listed = typeof configured === 'string' ? configured.split(',') : (configured ?? []);
  const names = listed
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => hostNameOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ? new URL(entry).host : entry));
  return new Set([...LOOPBACK, ...names]);
}

/** Whether a Host header names one of the names this service answers to (none given never does). */
export function isAllowedHost(hosts: ReadonlySet<string>, host: string | undefined): boolean {
  return host !== undefined && hosts.has(hostNameOf(host));
}

/** Refuse (421) a request whose Host is not one of the names this service answers to. */
export function requireAllowedHost(hosts: ReadonlySet<string>, service: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const host = req.get('host');
    if (isAllowedHost(hosts, host)) {
      next();
      return;
    }
    res.status(421).json({
      error: 'forbidden',
      message: `This ${service} does not answer to the name "${host ?? ''}"; reach it by a name it was configured with (see SECURITY.md).`,
    });
  };
}
