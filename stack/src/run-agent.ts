import { join } from 'node:path';
import type { LearnableAgent } from '@learnables/runtime';
import { startLearnableAgent } from '@learnables/runtime';
import { LOCAL_DEV_TOKEN, parseTokens, portFrom, repoRoot } from './config.ts';

export interface AgentDefaults {
  /** Prefix of this agent's environment variables, e.g. `EMAIL_AGENT`. */
  readonly env: string;
  readonly port: number;
  readonly storeFile: string;
}

/**
 * Run one agent as its own service. Configuration is by environment, with the agent's prefix:
 * `<PREFIX>_PORT`, `<PREFIX>_HOST`, `<PREFIX>_STORE`, `<PREFIX>_PUBLIC_URL`; shared by every agent:
 * `AUTHORITY_URL`, `AUTHORITY_TOKEN` (to relay lessons) and `AGENT_TOKENS` (`name=token,…`: the
 * bearer tokens agents accept, and whose tasks they are).
 */
export async function runAgent<Input, Result>(agent: LearnableAgent<Input, Result>, defaults: AgentDefaults): Promise<void> {
  const env = (name: string) => process.env[`${defaults.env}_${name}`];
  const host = env('HOST') ?? '127.0.0.1';
  const users = new Map(
    [...parseTokens(process.env.AGENT_TOKENS, 'AGENT_TOKENS')].map(([token, name]) => [token, name === 'local' ? 'operator-desk' : name]),
  );
  const running = await startLearnableAgent(agent, {
    store: env('STORE') ?? `sqlite:${join(repoRoot, 'data', defaults.storeFile)}`,
    authority: { url: process.env.AUTHORITY_URL ?? 'http://127.0.0.1:4100', token: process.env.AUTHORITY_TOKEN ?? LOCAL_DEV_TOKEN },
    port: portFrom(env('PORT'), defaults.port, `${defaults.env}_PORT`),
    host,
    ...(env('PUBLIC_URL') && { publicUrl: env('PUBLIC_URL') }),
    users,
  });
  console.log(
    `${agent.name} listening on ${running.url} (${running.database.engine}${running.recovered.length ? `; resumed ${running.recovered.length} tasks` : ''})`,
  );
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
