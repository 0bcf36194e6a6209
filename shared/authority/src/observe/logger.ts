import type { DestinationStream, Logger, LoggerOptions } from 'pino';
import { pino, stdSerializers } from 'pino';

export type { Logger } from 'pino';

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * The level a service logs at: LOG_LEVEL when set (fatal, error, warn, info, debug, trace or
 * silent), else info; under NODE_ENV=test warn, so the suites' hundreds of services do not print
 * an access line per request (a test that reads the lines sets LOG_LEVEL).
 */
export function logLevelFrom(env: NodeJS.ProcessEnv = process.env): string {
  const asked = env.LOG_LEVEL?.trim().toLowerCase();
  if (asked === undefined || asked === '') return env.NODE_ENV === 'test' ? 'warn' : 'info';
  if (!LEVELS.has(asked)) throw new RangeError(`LOG_LEVEL must be one of ${[...LEVELS].join(', ')}; "${env.LOG_LEVEL}" is not.`);
  return asked;
}

export interface LoggerSettings {
  /** Every line's `service` field: `authority`, `console`, or the agent's name. */
  readonly service: string;
  /** Default: logLevelFrom(process.env). */
  readonly level?: string;
  /** Where lines go. Default: stdout, one JSON object a line (pino's own, asynchronous-safe writes). */
  readonly destination?: DestinationStream;
}

/**
 * One JSON object a line, with `level` (pino's numbers: 30 info, 40 warn, 50 error), `time` (epoch
 * ms), `service`, `msg`, and an error under `err` as fields (`type`, `message`, `stack` as one
 * string), never a multi-line dump. docs/operations.md lists every field.
 */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? logLevelFrom(),
    base: { service: settings.service },
    // `err` and `error` both: a call site may name it either way, and a plain Error would print as {}.
    serializers: { err: stdSerializers.err, error: stdSerializers.err },
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}

/** A logger that writes nothing: for tests and embedders that log elsewhere. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
