import { fileURLToPath } from 'node:url';

/** The repository root, so default paths work whichever folder a command is started from. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The token the local stack uses when none is configured. Never use it beyond your own machine. */
export const LOCAL_DEV_TOKEN = 'local-dev-token';

/**
 * Parse `AUTHORITY_TOKENS`: `name=token,name=token`. Each token may write; its name is recorded
 * on every activation it makes.
 */
export function parseTokens(raw: string | undefined): Record<string, string> {
  if (!raw?.trim()) return { [LOCAL_DEV_TOKEN]: 'local' };
  const tokens: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    const [name, token] = pair.split('=').map((part) => part.trim());
    if (!name || !token) throw new Error(`AUTHORITY_TOKENS must look like "console=token1,email-agent=token2"; "${pair}" does not.`);
    tokens[token] = name;
  }
  return tokens;
}

export function portFrom(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number; "${raw}" is not.`);
  return port;
}
