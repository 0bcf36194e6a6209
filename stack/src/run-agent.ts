import { join } from 'node:path';
import { startLearnableAgent } from '@learnables/runtime';
import { LOCAL_DEV_TOKEN, booleanFrom, parseTokens, portFrom, repoRoot } from './config.ts';
import type { RegisteredAgent } from './registered-agent.ts';

/**
 * Run one agent as its own service. Configuration is by environment, with the agent's prefix:
 * `<PREFIX>_PORT`, `<PREFIX>_HOST`, `<PREFIX>_STORE`, `<PREFIX>_PUBLIC_URL`; shared by every agent:
 * `AUTHORITY_URL`, `AUTHORITY_TOKEN` (to relay lessons), `AGENT_TOKENS` (`name=token,…`: the
 * bearer tokens agents accept, and whose tasks they are) and `AGENTS_ALLOW_ANONYMOUS` (default true;
 * `<PREFIX>_ALLOW_ANONYMOUS` overrides it for one agent).
 */
export async function runAgent(registered: RegisteredAgent): Promise<void> {
  const env = (name: string) => process.env[`${registered.envPrefix}_${name}`];
  const agent = registered.create(env);
  const host = env('HOST') ?? '127.0.0.1';
  const users = new Map(
    [...parseTokens(process.env.AGENT_TOKENS, 'AGENT_TOKENS')].map(([token, name]) => [token, name === 'local' ? 'operator-desk' : name]),
  );
  const allowAnonymous = booleanFrom(env('ALLOW_ANONYMOUS') ?? process.env.AGENTS_ALLOW_ANONYMOUS, true, `${registered.envPrefix}_ALLOW_ANONYMOUS`);
  const running = await startLearnableAgent(agent, {
    allowAnonymous,
    store: env('STORE') ?? `sqlite:${join(repoRoot, 'data', registered.storeFile)}`,
    authority: { url: process.env.AUTHORITY_URL ?? 'http://127.0.0.1:4100', token: process.env.AUTHORITY_TOKEN ?? LOCAL_DEV_TOKEN },
    port: portFrom(env('PORT'), registered.port, `${registered.envPrefix}_PORT`),
    host,
    ...(env('PUBLIC_URL') && { publicUrl: env('PUBLIC_URL') }),
    users,
  });
  console.log(
    `${agent.name} listening on ${running.url} (${running.database.engine}${running.recovered.length ? `; resumed ${running.recovered.length} tasks` : ''}; ${allowAnonymous ? 'anonymous callers served: set AGENTS_ALLOW_ANONYMOUS=false beyond your own machine' : 'bearer token required'})`,
  );
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
