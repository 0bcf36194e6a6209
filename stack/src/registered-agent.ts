import type { LearnableKind } from '@learnables/learnable';
import type { LearnableAgent } from '@learnables/runtime';

/** Reads one of the agent's own environment variables: `env('PORT')` is `<PREFIX>_PORT`. */
export type AgentEnv = (name: string) => string | undefined;

/** One line of the registry (src/agents.ts), as its author writes it. */
export interface AgentLine<Input, Result> {
  /**
   * Lower-case words and hyphens: `pnpm agent <name>`, the compose service `<name>-agent`, the
   * environment prefix `<NAME>_AGENT_` and the store file `data/<name>-agent.db` all come from it.
   */
  readonly name: string;
  /**
   * The kinds the agent learns, from its package's light `…/kinds` face: the authority serves them
   * and the registry checks their collections, without loading any agent.
   */
  readonly kinds: readonly LearnableKind[];
  /**
   * Imports the agent's package and builds the agent for its own service from its environment. Only
   * the process that runs the agent calls it (a dynamic `import()`), so no service loads the other
   * agents' libraries: each would cost every process its start time and memory (BENCHMARKS.md).
   */
  readonly agent: (env: AgentEnv) => Promise<LearnableAgent<Input, Result, any>>;
  /** The folder of the agent's seed files (`<collection>.json`): version 1 of each collection. */
  readonly seeds?: string;
  /** The default port of `pnpm start` and docker-compose; `<NAME>_AGENT_PORT` overrides it. */
  readonly port: number;
  /** How many replicas docker-compose runs behind one database (default 1). */
  readonly replicas?: number;
  /**
   * Words that belong to this agent's idea of a lesson (its field names, entries, collection,
   * domain nouns), in lower case. Tests check that no shared layer and no console file names them,
   * so a word the shared code legitimately uses as well (`length`, `name`) does not belong here.
   */
  readonly vocabulary: readonly string[];
}

/** A registry line with everything derived from it. */
export interface RegisteredAgent {
  readonly name: string;
  /** `EMAIL_AGENT` for `email`: the prefix of the agent's environment variables. */
  readonly envPrefix: string;
  /** The entry point's argument and the compose service's base name: `email-agent`. */
  readonly service: string;
  readonly storeFile: string;
  readonly port: number;
  readonly replicas: number;
  readonly seeds: string | undefined;
  readonly kinds: readonly LearnableKind[];
  readonly vocabulary: readonly string[];
  /**
   * Loads and builds the agent (`env` as its service reads it; none: its defaults), checked as the
   * runtime checks it at start, and against the line's kinds. Its type is erased so one list holds
   * every agent.
   */
  create(env?: AgentEnv): Promise<LearnableAgent<unknown, unknown>>;
}

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const NO_ENV: AgentEnv = () => undefined;

/** Checks a registry line and derives its names, so a typo fails at start, with a sentence. */
export function registerAgent<Input, Result>(line: AgentLine<Input, Result>): RegisteredAgent {
  if (!NAME.test(line.name)) throw new Error(`agents.ts: "${line.name}" is not an agent name; use lower-case words joined by hyphens, e.g. "carrier".`);
  if (!Number.isInteger(line.port) || line.port < 1 || line.port > 65535) throw new Error(`agents.ts: ${line.name} needs a port number, not ${line.port}.`);
  const replicas = line.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`agents.ts: ${line.name} needs at least one replica.`);
  if (line.kinds.length === 0) throw new Error(`agents.ts: ${line.name} names no kinds; list the kinds its package's …/kinds face exports.`);
  for (const word of line.vocabulary) {
    if (word !== word.toLowerCase() || word.trim() === '') throw new Error(`agents.ts: ${line.name}'s vocabulary words are lower case; "${word}" is not.`);
  }
  const envPrefix = `${line.name.toUpperCase().replace(/-/g, '_')}_AGENT`;
  return {
    name: line.name,
    envPrefix,
    service: `${line.name}-agent`,
    storeFile: `${line.name}-agent.db`,
    port: line.port,
    replicas,
    seeds: line.seeds,
    kinds: line.kinds,
    vocabulary: line.vocabulary,
    async create(env = NO_ENV) {
      const agent = await line.agent(env);
      // The line's kinds are what the authority was given: the agent must learn exactly those.
      const named = (kinds: readonly LearnableKind[]) => kinds.map((kind) => kind.collection).join(', ');
      if (agent.kinds.length !== line.kinds.length || agent.kinds.some((kind, index) => kind !== line.kinds[index])) {
        throw new Error(
          `agents.ts: ${line.name}'s line names the kinds ${named(line.kinds)} and its agent learns ${named(agent.kinds)}; list the same kind objects, in the same order.`,
        );
      }
      // Its card against its kinds, as the runtime checks at start. Imported here, so that reading the
      // list (the authority, the console) does not load the runtime.
      const { checkAgent } = await import('@learnables/runtime');
      checkAgent(agent);
      // The runtime is generic in Input and Result; the stack only hands agents over, so it may forget them.
      return agent as unknown as LearnableAgent<unknown, unknown>;
    },
  };
}

/** Every check that needs the whole list: names, ports, environment prefixes and collections are each used once. */
export function checkRegistry(agents: readonly RegisteredAgent[], reserved: ReadonlyMap<number, string>): void {
  const seen = new Map<string, string>();
  const once = (what: string, value: string, owner: string) => {
    const before = seen.get(`${what}\u0000${value}`);
    if (before !== undefined) throw new Error(`agents.ts: ${owner} and ${before} both use ${what} ${value}; give each its own.`);
    seen.set(`${what}\u0000${value}`, owner);
  };
  for (const [port, owner] of reserved) once('port', String(port), owner);
  for (const entry of agents) {
    once('name', entry.name, entry.name);
    once('port', String(entry.port), entry.name);
    for (const kind of entry.kinds) once('collection', kind.collection, entry.name);
  }
}
