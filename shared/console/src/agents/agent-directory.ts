import { withTraceHeaders } from '@learnables/tracing';
import type { AgentCard } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { EXTENSIONS_HEADER, LEARNABLES_URI } from '@learnables/protocol';
import type { AgentProblem, AgentView } from '../api-types.ts';
import { ConsoleError } from '../console-error.ts';
import { acceptedMediaTypes } from '../media/media-types.ts';
import { jsonRpcInterfaceOf, learnableOf } from './read-card.ts';

export interface AgentDirectoryOptions {
  /** Bearer token sent to every agent; tasks are owner-scoped, so it decides which tasks the console sees. */
  readonly token?: string;
  /** How long a fetched card is trusted before it is fetched again. Default 30 s. */
  readonly cardTtlMs?: number;
  /** How long one request to an agent may take, unless the caller gives its own signal. Default 15 s. */
  readonly timeoutMs?: number;
}

/** An agent whose card has been read, with an SDK client that speaks to it. */
export interface ConnectedAgent {
  readonly id: string;
  readonly url: string;
  readonly card: AgentCard;
  readonly client: Client;
  readonly view: AgentView;
}

const FAILURE_TTL_MS = 3_000;

interface Configured {
  readonly id: string;
  readonly url: string;
}

/** A stable id from an agent's URL (host, port, path), so links survive a reordered configuration. */
export function agentIdOf(url: string): string {
  let base = url;
  try {
    const parsed = new URL(url);
    base = `${parsed.hostname}-${parsed.port}${parsed.pathname}`;
  } catch {
    // Not a URL: the slug of the text itself still names it.
  }
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'agent'
  );
}

/**
 * The agents the console was given. Cards are fetched when first needed and again after a while,
 * so an agent started after the console (or restarted with a new card) is picked up by itself.
 */
export class AgentDirectory {
  readonly agents: readonly Configured[];
  private readonly connections = new Map<string, { at: number; failed: boolean; pending: Promise<ConnectedAgent> }>();
  private readonly factory: ClientFactory;

  constructor(
    agents: readonly { url: string }[],
    private readonly options: AgentDirectoryOptions = {},
  ) {
    const seen = new Map<string, number>();
    this.agents = agents.map(({ url }) => {
      const base = agentIdOf(url);
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      return { id: count === 1 ? base : `${base}-${count}`, url: url.replace(/\/+$/, '') };
    });
    const fetchImpl = this.fetch;
    this.factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
        transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
        preferredTransports: ['JSONRPC'],
      }),
    );
  }

  /** fetch with the agents' bearer token, the extension activated, and a time limit. */
  readonly fetch: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (this.options.token) headers.set('authorization', `Bearer ${this.options.token}`);
    headers.set(EXTENSIONS_HEADER, LEARNABLES_URI);
    // The operator's request's trace goes on to the agent (W3C traceparent; nothing when tracing is off).
    for (const [name, value] of Object.entries(withTraceHeaders<Record<string, string>>({}))) headers.set(name, value);
    return fetch(input, { ...init, headers, signal: init?.signal ?? AbortSignal.timeout(this.options.timeoutMs ?? 15_000) });
  };

  configured(id: string): Configured {
    const agent = this.agents.find((candidate) => candidate.id === id);
    if (!agent)
      throw new ConsoleError(404, 'unknown-agent', `The console has no agent "${id}"; it knows ${this.agents.map((a) => a.id).join(', ') || 'none'}.`);
    return agent;
  }

  /** The agent with its card and client; an agent that cannot be reached throws a sentence saying so. */
  connect(id: string): Promise<ConnectedAgent> {
    const agent = this.configured(id);
    const cached = this.connections.get(id);
    // An agent that could not be reached is tried again soon, but not on every request meanwhile.
    const ttl = cached?.failed ? FAILURE_TTL_MS : (this.options.cardTtlMs ?? 30_000);
    if (cached && Date.now() - cached.at < ttl) return cached.pending;
    const pending = this.load(agent);
    const entry = { at: Date.now(), failed: false, pending };
    this.connections.set(id, entry);
    pending.catch(() => {
      entry.failed = true;
      entry.at = Date.now();
    });
    return pending;
  }

  private async load(agent: Configured): Promise<ConnectedAgent> {
    let card: AgentCard;
    let client: Client;
    try {
      card = await new DefaultAgentCardResolver({ fetchImpl: this.fetch }).resolve(agent.url);
      client = await this.factory.createFromAgentCard(card);
    } catch (error) {
      throw new ConsoleError(502, 'agent-unreachable', `The agent at ${agent.url} cannot be reached: ${(error as Error).message}`);
    }
    const learnable = learnableOf(card);
    const view: AgentView = {
      id: agent.id,
      url: agent.url,
      reachable: true,
      name: card.name,
      description: card.description,
      accepts: acceptedMediaTypes(card),
      ...(learnable && { learnable }),
    };
    return { id: agent.id, url: agent.url, card, client, view };
  }

  /** Every configured agent as the UI shows it, reachable or not. */
  async views(): Promise<AgentView[]> {
    return Promise.all(
      this.agents.map(async (agent) => {
        try {
          return (await this.connect(agent.id)).view;
        } catch (error) {
          return { id: agent.id, url: agent.url, reachable: false, problem: (error as Error).message, accepts: [] };
        }
      }),
    );
  }

  /** Run work against every agent; an agent that fails is reported as a problem, not as a failure of all. */
  async each<T>(work: (agent: ConnectedAgent) => Promise<T>): Promise<{ results: T[]; problems: AgentProblem[] }> {
    const settled = await Promise.all(
      this.agents.map(async (agent) => {
        try {
          return { result: await work(await this.connect(agent.id)) };
        } catch (error) {
          return { problem: { agentId: agent.id, message: (error as Error).message } };
        }
      }),
    );
    return {
      results: settled.flatMap((entry) => ('result' in entry ? [entry.result as T] : [])),
      problems: settled.flatMap((entry) => ('problem' in entry && entry.problem ? [entry.problem] : [])),
    };
  }

  /** The JSON-RPC endpoint of a connected agent, for the extension methods. */
  jsonRpcOf(agent: ConnectedAgent): { url: string; tenant: string } {
    const found = jsonRpcInterfaceOf(agent.card);
    if (!found) throw new ConsoleError(502, 'agent-unreachable', `${agent.card.name} lists no JSON-RPC interface on its card.`);
    return found;
  }
}
