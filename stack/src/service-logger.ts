import type { Logger } from '@learnables/authority';
import { createLogger } from '@learnables/authority';
import { prettyFactory } from 'pino-pretty';

/**
 * pino-pretty's rendering of one JSON log line, for a person at a terminal: `pnpm start` turns its
 * services' lines into these when its own stdout is a terminal, and a service run alone in one
 * (`pnpm authority`) writes them directly. Anything else (compose, a pipe, a file) gets the JSON.
 */
export const prettyLine = prettyFactory({ colorize: true, singleLine: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' });

/** Whether lines should be pretty: a terminal on stdout, unless LOG_FORMAT=json asks for the JSON anyway. */
export function wantsPretty(stream: { isTTY?: boolean } = process.stdout): boolean {
  return stream.isTTY === true && process.env.LOG_FORMAT !== 'json';
}

/** The logger a service of the stack runs with: JSON at LOG_LEVEL, pretty in a terminal. */
export function serviceLogger(service: string): Logger {
  if (!wantsPretty()) return createLogger({ service });
  return createLogger({ service, destination: { write: (line: string) => void process.stdout.write(prettyLine(line)) } });
}
