import { composeBalancedAgents, haproxyConfig } from './balancer.ts';
import type { BalancedAgent } from './balancer.ts';
import { AUTHORITY_PORT, CONSOLE_PORT } from './registry.ts';
import type { RegisteredAgent } from './registered-agent.ts';

/**
 * Where published ports listen on the host: this machine only, unless the operator widens it
 * (`LEARNABLES_PUBLISH_ADDRESS=0.0.0.0`, once the tokens are real and the ports meant to be reached).
 */
const published = (port: number) => `"\${LEARNABLES_PUBLISH_ADDRESS:-127.0.0.1}:${port}:${port}"`;

/** A token compose takes from the operator's environment, refusing to start without one (no default to forget). */
const required = (variable: string, what: string) => `\${${variable}:?set ${variable} to a token of your own (${what}), e.g. openssl rand -hex 32}`;

const AGENTS_AUTHORITY_TOKEN = required('AGENTS_AUTHORITY_TOKEN', 'the agents write lessons to the authority with it');
const CONSOLE_AUTHORITY_TOKEN = required('CONSOLE_AUTHORITY_TOKEN', 'the console writes to the authority with it');
const CONSOLE_AGENT_TOKEN = required('CONSOLE_AGENT_TOKEN', 'the console calls the agents with it');

/**
 * The container's own health check of one service: its /readyz, from inside. Healthy means ready
 * (its store answers; for an agent, the authority answers and its parse threads too), so what
 * depends on it starts once it can work, and \`docker compose ps\` shows a replica that cannot.
 */
const healthcheck = (port: number) => `    healthcheck:
      test: ["CMD", "node", "-e", "fetch('http://127.0.0.1:${port}/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
      interval: 3s
      timeout: 3s
      retries: 40
`;

/** The compose service names of one agent: `<name>-agent` alone, or `-1`, `-2`, … for replicas. */
export function replicaNames(entry: RegisteredAgent): string[] {
  return entry.replicas === 1 ? [entry.service] : Array.from({ length: entry.replicas }, (_, i) => `${entry.service}-${i + 1}`);
}

/** The URL an agent's card advertises: its balancer for replicated agents, else itself; `<PREFIX>_PUBLIC_URL` overrides it. */
export function publicUrl(entry: RegisteredAgent): string {
  return `http://${entry.service}:${entry.port}`;
}

function agentServices(entry: RegisteredAgent): string {
  const env = `    environment:
      <<: *agent-env
      ${entry.envPrefix}_HOST: 0.0.0.0
      ${entry.envPrefix}_PORT: "${entry.port}"
      ${entry.envPrefix}_STORE: postgres://postgres:learnables@postgres:5432/learnables
      # What the card advertises: the one address clients use (set it to the name they reach it at).
      ${entry.envPrefix}_PUBLIC_URL: \${${entry.envPrefix}_PUBLIC_URL:-${publicUrl(entry)}}
      # The names it answers to besides localhost and that address (DNS rebinding: any other Host is refused).
      ${entry.envPrefix}_HOSTS: \${${entry.envPrefix}_HOSTS:-${entry.service}}
`;
  // A lone agent publishes its own port; replicas publish none: clients reach them through the balancer.
  const ports = entry.replicas === 1 ? `    ports: [${published(entry.port)}]\n` : '';
  return replicaNames(entry)
    .map((replica, i) =>
      i === 0
        ? `  ${replica}:${entry.replicas > 1 ? ` &${entry.service}` : ''}
    <<: *learnables
    command: ["node", "stack/dist/agent-main.js", "${entry.name}"]
    depends_on:
      authority:
        condition: service_healthy
${env}${ports}${healthcheck(entry.port)}`
        : `  ${replica}:
    <<: *${entry.service}
`,
    )
    .join('\n');
}

/**
 * The balancer: one HAProxy (the haproxy:2.6 image, the version Debian 12 ships and the tests run)
 * in front of every replicated agent, answering on the agent's own service name and port, so
 * `http://email-agent:4201` is one address for both replicas, inside the network and, published, outside.
 */
function balancerService(balanced: readonly BalancedAgent[], agents: readonly RegisteredAgent[]): string {
  const replicated = agents.filter((entry) => entry.replicas > 1);
  return `  balancer:
    image: haproxy:2.6-alpine
    restart: unless-stopped
    volumes:
      - ./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro
    depends_on:
${replicated
  .flatMap((entry) => replicaNames(entry))
  .map((replica) => `      ${replica}:\n        condition: service_started\n`)
  .join('')}    networks:
      default:
        aliases: [${balanced.map((agent) => agent.name).join(', ')}]
    ports: [${replicated.map((entry) => published(entry.port)).join(', ')}]
    # Healthy while every agent behind it has a replica that is ready (its /readyz, through the balancer).
    healthcheck:
      test: ["CMD-SHELL", "${replicated.map((entry) => `wget -q -O /dev/null http://127.0.0.1:${entry.port}/readyz`).join(' && ')}"]
      interval: 3s
      timeout: 3s
      retries: 40
`;
}

/** haproxy.cfg for docker-compose.yml: Docker's DNS names the replicas; statistics inside the container only. */
export function composeBalancerConfig(agents: readonly RegisteredAgent[]): string {
  return haproxyConfig({ agents: composeBalancedAgents(agents, replicaNames), dns: '127.0.0.11:53', stats: '127.0.0.1:8404' });
}

/** docker-compose.yml, from the registry: `pnpm compose` writes it, and a test fails when the committed one differs. */
export function composeFile(agents: readonly RegisteredAgent[]): string {
  const balanced = composeBalancedAgents(agents, replicaNames);
  // The console waits for what it talks to: the balancer, and each agent that runs alone.
  const consoleNeeds = [...(balanced.length ? ['balancer'] : []), ...agents.filter((entry) => entry.replicas === 1).map((entry) => entry.service)];
  return `# GENERATED from stack/src/agents.ts by \`pnpm compose\` (the template is stack/src/compose.ts); do not edit by hand.
#
# The scale-out topology: PostgreSQL, the authority, every registered agent (as many replicas as its
# registry line asks for), HAProxy in front of each agent's replicas (haproxy.cfg, generated with this
# file), and the console. Each agent has one address, http://<name>-agent:<port>, which its card
# advertises and the balancer answers (published on the same port); the replicas behind it publish
# none. Every service shares one database: a lesson taught through any replica is seen by all of
# them, and a task asked by one is answered by any. The same topology runs without Docker in CI:
# test/balancer.test.ts (haproxy -c on haproxy.cfg, then Debian's haproxy with the same template in
# front of two replicas, one SIGKILLed mid-run) and test/replicas.test.ts.
#
#   pnpm console-user add <your name> --file ./console-users    (the console's accounts)
#   CONSOLE_USERS_FILE=./console-users CONSOLE_SESSION_SECRET=$(openssl rand -hex 32) docker compose up --build
#   then open http://localhost:${CONSOLE_PORT} (the console) and sign in
#
#   with AGENTS_AUTHORITY_TOKEN, CONSOLE_AUTHORITY_TOKEN and CONSOLE_AGENT_TOKEN each set to its own
#   $(openssl rand -hex 32) as well
#
# The console ships no account and no password, and no service ships a token: without
# CONSOLE_USERS_FILE, CONSOLE_SESSION_SECRET and the three tokens in your environment, compose
# refuses to start and says which is missing; a placeholder such as change-me-agents is refused by
# the service itself. The authority is published on no port: agents and the console reach it on
# the internal network as http://authority:${AUTHORITY_PORT}. Published ports listen on 127.0.0.1 only; set
# LEARNABLES_PUBLISH_ADDRESS=0.0.0.0 (or one address of the host) to reach them from elsewhere.

x-learnables: &learnables
  build: .
  image: learnables:local
  restart: unless-stopped
  depends_on:
    postgres:
      condition: service_healthy

x-agent-env: &agent-env
  AUTHORITY_URL: http://authority:${AUTHORITY_PORT}
  AUTHORITY_TOKEN: ${AGENTS_AUTHORITY_TOKEN}
  AGENT_TOKENS: operator-desk=${CONSOLE_AGENT_TOKEN}
  # Published ports reach beyond this machine: every caller needs a token (see SECURITY.md).
  AGENTS_ALLOW_ANONYMOUS: "false"

services:
  postgres:
    image: postgres:15
    environment:
      POSTGRES_PASSWORD: learnables
      POSTGRES_DB: learnables
    volumes:
      - pgdata:/var/lib/postgresql/data
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U postgres -d learnables"]
      interval: 2s
      timeout: 3s
      retries: 30

  authority:
    <<: *learnables
    command: ["node", "stack/dist/authority-main.js"]
    environment:
      AUTHORITY_HOST: 0.0.0.0
      AUTHORITY_PORT: "${AUTHORITY_PORT}"
      AUTHORITY_STORE: postgres://postgres:learnables@postgres:5432/learnables
      AUTHORITY_TOKENS: agents=${AGENTS_AUTHORITY_TOKEN},console=${CONSOLE_AUTHORITY_TOKEN}
      # The names it answers to besides localhost (DNS rebinding: any other Host is refused).
      AUTHORITY_HOSTS: authority
      # Each activation is acknowledged and announced this long after its commit, and agents reuse
      # an answer of the active version for as long (SPEC §4.4); give every authority replica the same.
      AUTHORITY_COMMIT_WAIT_MS: "\${AUTHORITY_COMMIT_WAIT_MS:-25}"
    # No published port: history reads and every write stay on the internal network (SECURITY.md).
${healthcheck(AUTHORITY_PORT)}
${agents.map(agentServices).join('\n')}
${balanced.length ? `${balancerService(balanced, agents)}\n` : ''}  console:
    <<: *learnables
    command: ["node", "stack/dist/console-main.js"]
    depends_on:
${consoleNeeds.map((service) => `      ${service}:\n        condition: service_healthy\n`).join('')}    environment:
      CONSOLE_HOST: 0.0.0.0
      CONSOLE_PORT: "${CONSOLE_PORT}"
      AUTHORITY_URL: http://authority:${AUTHORITY_PORT}
      CONSOLE_AUTHORITY_TOKEN: ${CONSOLE_AUTHORITY_TOKEN}
      CONSOLE_AGENT_TOKEN: ${CONSOLE_AGENT_TOKEN}
      CONSOLE_AGENTS: ${agents.map(publicUrl).join(',')}
      # The origins operators open the console at, besides localhost (set yours: DNS rebinding and CSRF checks use it;
      # an https origin makes the session cookie Secure).
      CONSOLE_ORIGINS: \${CONSOLE_ORIGINS:-http://localhost:${CONSOLE_PORT}}
      # Who may sign in: the users file from your environment, mounted below (restart the console after changing it).
      CONSOLE_USERS_FILE: /run/learnables/console-users
      # Signs the session cookies; changing it signs everyone out.
      CONSOLE_SESSION_SECRET: \${CONSOLE_SESSION_SECRET:?set CONSOLE_SESSION_SECRET to a secret of at least 32 characters, e.g. openssl rand -hex 32}
    volumes:
      - \${CONSOLE_USERS_FILE:?set CONSOLE_USERS_FILE to the console's users file, made with pnpm console-user add <name> --file <path>}:/run/learnables/console-users:ro
    ports: [${published(CONSOLE_PORT)}]
${healthcheck(CONSOLE_PORT)}
volumes:
  pgdata:
`;
}
