import type { LearnableKind } from '@learnables/learnable';
import { agents } from './agents.ts';
import { checkRegistry } from './registered-agent.ts';
import type { RegisteredAgent } from './registered-agent.ts';

import { AUTHORITY_PORT, CONSOLE_PORT } from './ports.ts';

export { AUTHORITY_PORT, CONSOLE_PORT };

checkRegistry(
  agents,
  new Map([
    [AUTHORITY_PORT, 'the authority'],
    [CONSOLE_PORT, 'the console'],
  ]),
);

/** Every learnable kind this stack serves. The authority is handed these; it imports no agent. */
export const learnableKinds: readonly LearnableKind[] = agents.flatMap((entry) => entry.kinds);

/** The agents' seed folders, each once (two agents may share one). */
export const seedFolders: readonly string[] = [...new Set(agents.flatMap((entry) => (entry.seeds === undefined ? [] : [entry.seeds])))];

/** Words no shared layer and no console file may name: every agent's vocabulary. */
export const agentVocabulary: readonly string[] = [...new Set(agents.flatMap((entry) => entry.vocabulary))];

export function agentNamed(name: string): RegisteredAgent {
  const found = agents.find((entry) => entry.name === name || entry.service === name);
  if (found === undefined)
    throw new Error(`There is no agent "${name}" in stack/src/agents.ts; the agents are ${agents.map((entry) => entry.name).join(', ')}.`);
  return found;
}

/**
 * Where each agent answers on this machine: `<PREFIX>_URL` if set, else its port (`<PREFIX>_PORT`
 * or the registry's default) on 127.0.0.1. `pnpm start` sets the URLs; the console reads them.
 */
export function localAgentUrls(env: NodeJS.ProcessEnv, portFrom: (raw: string | undefined, fallback: number, name: string) => number): Map<string, string> {
  return new Map(
    agents.map((entry) => [
      entry.name,
      env[`${entry.envPrefix}_URL`] ?? `http://127.0.0.1:${portFrom(env[`${entry.envPrefix}_PORT`], entry.port, `${entry.envPrefix}_PORT`)}`,
    ]),
  );
}

export { agents };
