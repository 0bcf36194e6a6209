// The load balancer in front of each agent's replicas: an HAProxy configuration, written from the
// registry by `pnpm compose` (haproxy.cfg, mounted by docker-compose.yml) and, with local addresses,
// by test/balancer.test.ts, which runs Debian's haproxy with it in front of two real replicas.
// One function for both, so what the test proves is the file that compose runs.
import type { RegisteredAgent } from './registered-agent.ts';

/** One agent behind the balancer: the port its one public URL listens on, and its replicas. */
export interface BalancedAgent {
  /** The compose service base name, e.g. `email-agent`: names the frontend and the backend. */
  readonly name: string;
  /** Where the balancer listens for this agent: `:4201` (every address) or `127.0.0.1:38211`. */
  readonly bind: string;
  /** Each replica: a name for logs and stats, and its `host:port`. */
  readonly servers: readonly { readonly name: string; readonly address: string }[];
}

export interface BalancerConfig {
  readonly agents: readonly BalancedAgent[];
  /**
   * A DNS server that names the replicas (Docker's is 127.0.0.11:53). With it the balancer starts
   * even while a replica's name does not resolve yet, and follows a replica that comes back on a
   * new address; without it (fixed addresses, as in the test) names are resolved once at start.
   */
  readonly dns?: string;
  /** Where the statistics page listens (`127.0.0.1:8404`): `/stats`, and `/stats;csv` for machines. */
  readonly stats: string;
}

/** The replicas of every agent that has more than one, as the compose file names them. */
export function composeBalancedAgents(agents: readonly RegisteredAgent[], replicaNames: (entry: RegisteredAgent) => string[]): BalancedAgent[] {
  return agents
    .filter((entry) => entry.replicas > 1)
    .map((entry) => ({
      name: entry.service,
      bind: `:${entry.port}`,
      servers: replicaNames(entry).map((replica) => ({ name: replica, address: `${replica}:${entry.port}` })),
    }));
}

/** haproxy.cfg for HAProxy 2.6 (Debian 12's, and the haproxy:2.6 image compose runs). */
export function haproxyConfig(config: BalancerConfig): string {
  const dns = config.dns
    ? `
# Docker's DNS: a replica may start after the balancer, or come back on a new address.
resolvers docker
  nameserver docker ${config.dns}
  hold valid 10s
`
    : '';
  const serverOptions = `check inter 2s fall 2 rise 2${config.dns ? ' resolvers docker init-addr libc,none' : ''}`;
  const agents = config.agents
    .map(
      (agent) => `
frontend ${agent.name}
  bind ${agent.bind}
  default_backend ${agent.name}

backend ${agent.name}
  # Tasks differ widely in cost (a 25 MB email against a two-line one): the least busy replica gets the next.
  balance leastconn
  # A replica is in rotation while its /readyz answers 200 (its store, the authority and its parse
  # threads answer; /healthz only says the process does): two failures take it out, two passes
  # bring it back. The check carries a request id, so its lines are told apart from callers'.
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host ${agent.name} hdr x-request-id haproxy-check
  http-check expect status 200
  default-server ${serverOptions}
${agent.servers.map((server) => `  server ${server.name} ${server.address}`).join('\n')}
`,
    )
    .join('');
  return `# The load balancer in front of each agent's replicas: one public address per agent.
# GENERATED from stack/src/agents.ts by \`pnpm compose\` (the template is stack/src/balancer.ts); do not
# edit by hand. test/balancer.test.ts validates it with \`haproxy -c\` and runs the same template in
# front of two real replicas, one of them SIGKILLed mid-run.

global
  log stdout format raw local0

defaults
  mode http
  log global
  option httplog
  option dontlognull
  timeout connect 5s
  # A request's headers must arrive within 10 s (a slow client holds no connection open for long).
  timeout http-request 10s
  # An agent may read a large file for a while before it answers.
  timeout client 5m
  timeout server 5m
  timeout http-keep-alive 30s
  timeout check 3s
  # A replica that refuses the connection (stopped, killed, not started yet) never saw the request:
  # it goes to another replica, up to three times. A request a replica had received when it died is
  # not sent again by the balancer: the agents do not recognise a message they have seen (no replay
  # protection, which HAProxy's manual asks of anything retried further), so the client gets a 502
  # and decides; the replica finishes what it had started when it restarts.
  retries 3
  option redispatch 1
  retry-on conn-failure
${dns}
listen stats
  bind ${config.stats}
  stats enable
  stats uri /stats
  stats refresh 5s
${agents}`;
}
