import { join } from 'node:path';
import { startTracing } from '@learnables/tracing';
import { startLearnableAgent } from '@learnables/runtime';
import { LOCAL_DEV_TOKEN, booleanFrom, parseTokens, portFrom, realToken, repoRoot, wholeFrom } from './config.ts';
import type { RegisteredAgent } from './registered-agent.ts';
import { serviceLogger } from './service-logger.ts';

/**
 * Run one agent as its own service. Configuration is by environment, with the agent's prefix:
 * `<PREFIX>_PORT`, `<PREFIX>_HOST`, `<PREFIX>_STORE`, `<PREFIX>_PUBLIC_URL`; shared by every agent:
 * `AUTHORITY_URL`, `AUTHORITY_TOKEN` (to relay lessons), `AGENT_TOKENS` (`name=token,…`: the
 * bearer tokens agents accept, and whose tasks they are) and `AGENTS_ALLOW_ANONYMOUS` (default true;
 * `<PREFIX>_ALLOW_ANONYMOUS` overrides it for one agent). Likewise each with `AGENTS_` for every agent
 * and `<PREFIX>_` for one: `HOSTS` (names it answers to besides localhost and its public URL's),
 * `PARSE_THREADS` (threads that read messages; default one per core, 0 on the event loop),
 * `MAX_PARSES` (messages read at once before one is answered busy; default twice the threads),
 * `IN_FLIGHT_MB` (megabytes of messages taken and not yet answered before one is answered busy;
 * default 48 times MAX_PARSES),
 * `KEPT_MESSAGE_MB` and `KEPT_INPUT_MB` (how much of a message, and of what was read from it, a task
 * keeps; default 4 and 16),
 * `CARD_SIGNING_KEY` (a file holding a PEM or JWK private key: the card is signed with it and its
 * public half served at /.well-known/jwks.json; `AGENT_CARD_SIGNING_KEY` is read too), and
 * `PROVIDER_NAME` / `PROVIDER_URL` (the card's provider: who runs the agent, and its web address;
 * default "learnables reference implementation" at the agent's public origin).
 */
export async function runAgent(registered: RegisteredAgent): Promise<void> {
  const env = (name: string) => process.env[`${registered.envPrefix}_${name}`];
  // Traces go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set (docs/tracing.md); nothing is done otherwise.
  const tracing = await startTracing(`learnables-${registered.envPrefix.toLowerCase().replace(/_/g, '-')}`);
  const agent = await registered.create(env);
  const logger = serviceLogger(agent.name);
  const host = env('HOST') ?? '127.0.0.1';
  const users = new Map([...parseTokens(process.env.AGENT_TOKENS, 'AGENT_TOKENS')].map(([token, name]) => [token, name === 'local' ? 'operator-desk' : name]));
  const allowAnonymous = booleanFrom(env('ALLOW_ANONYMOUS') ?? process.env.AGENTS_ALLOW_ANONYMOUS, true, `${registered.envPrefix}_ALLOW_ANONYMOUS`);
  // A setting for this agent, else the one for every agent.
  const setting = (name: string) => env(name) ?? process.env[`AGENTS_${name}`];
  const whole = (name: string, least: number) => wholeFrom(setting(name), least, `${registered.envPrefix}_${name}`);
  const threads = whole('PARSE_THREADS', 0);
  const maxParses = whole('MAX_PARSES', 1);
  const inFlightMb = whole('IN_FLIGHT_MB', 1);
  const keptMessage = whole('KEPT_MESSAGE_MB', 1);
  const keptInput = whole('KEPT_INPUT_MB', 1);
  const signingKey = setting('CARD_SIGNING_KEY') ?? process.env.AGENT_CARD_SIGNING_KEY;
  const providerUrl = setting('PROVIDER_URL');
  if (providerUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(providerUrl)) {
    throw new Error(`${registered.envPrefix}_PROVIDER_URL (or AGENTS_PROVIDER_URL) must be an http(s) address, and "${providerUrl}" is not.`);
  }
  const running = await startLearnableAgent(agent, {
    allowAnonymous,
    ...(signingKey && { cardSigningKey: signingKey }),
    ...((providerUrl || setting('PROVIDER_NAME')) && {
      provider: {
        organization: setting('PROVIDER_NAME') ?? 'learnables reference implementation',
        url:
          providerUrl ?? (env('PUBLIC_URL') ?? `http://${host}:${portFrom(env('PORT'), registered.port, `${registered.envPrefix}_PORT`)}`).replace(/\/+$/, ''),
      },
    }),
    store: env('STORE') ?? `sqlite:${join(repoRoot, 'data', registered.storeFile)}`,
    authority: {
      url: process.env.AUTHORITY_URL ?? 'http://127.0.0.1:4100',
      token: realToken(process.env.AUTHORITY_TOKEN ?? LOCAL_DEV_TOKEN, 'AUTHORITY_TOKEN'),
    },
    port: portFrom(env('PORT'), registered.port, `${registered.envPrefix}_PORT`),
    host,
    ...(env('PUBLIC_URL') && { publicUrl: env('PUBLIC_URL') }),
    ...(setting('HOSTS') && { hosts: setting('HOSTS') }),
    parsing: {
      ...(threads !== undefined && { threads }),
      ...(maxParses !== undefined && { maxParses }),
      ...(inFlightMb !== undefined && { inFlightBytes: inFlightMb * 1024 * 1024 }),
    },
    keptInput: { ...(keptMessage !== undefined && { message: keptMessage * 1_000_000 }), ...(keptInput !== undefined && { input: keptInput * 1_000_000 }) },
    users,
    logger,
  });
  logger.info(
    { url: running.url, engine: running.database.engine, resumed: running.recovered.length, allowAnonymous },
    `${agent.name} listening on ${running.url} (${running.database.engine}${running.recovered.length ? `; resumed ${running.recovered.length} tasks` : ''}; ${allowAnonymous ? 'anonymous callers served: set AGENTS_ALLOW_ANONYMOUS=false beyond your own machine' : 'bearer token required'})`,
  );
  const stop = () =>
    void running
      .close()
      .then(() => tracing.shutdown())
      .then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
