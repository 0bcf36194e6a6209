import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { composeBalancerConfig, composeFile, replicaNames } from './compose.ts';
import { repoRoot } from './config.ts';
import { registerAgent } from './registered-agent.ts';
import { agents } from './registry.ts';

/** How a published port reads: on 127.0.0.1 unless LEARNABLES_PUBLISH_ADDRESS widens it. */
const bound = (port: number) => `\${LEARNABLES_PUBLISH_ADDRESS:-127.0.0.1}:${port}:${port}`;

describe('docker-compose.yml', () => {
  it('is what the registry describes, and so is haproxy.cfg (run `pnpm compose` after changing stack/src/agents.ts)', () => {
    expect(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8')).toBe(composeFile(agents));
    expect(readFileSync(join(repoRoot, 'haproxy.cfg'), 'utf8')).toBe(composeBalancerConfig(agents));
  });

  it('runs every registered agent, with its replicas, and lists each in the console by its one address', () => {
    const file = composeFile(agents);
    const consoleAgents = /CONSOLE_AGENTS: (.*)\n/.exec(file)![1]!.split(',');
    for (const entry of agents) {
      for (const replica of replicaNames(entry)) expect(file).toContain(`\n  ${replica}:`);
      expect(file).toContain(`"stack/dist/agent-main.js", "${entry.name}"`);
      expect(consoleAgents).toContain(`http://${entry.service}:${entry.port}`);
    }
  });

  it("puts the balancer in front of each agent's replicas: the cards advertise it, only it publishes their port", () => {
    const file = composeFile(agents);
    const config = composeBalancerConfig(agents);
    const replicated = agents.filter((entry) => entry.replicas > 1);
    expect(replicated.length).toBeGreaterThan(0);
    expect(file).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(file).toContain(`aliases: [${replicated.map((entry) => entry.service).join(', ')}]`);
    for (const entry of replicated) {
      // Every replica's card names the balancer's address, never the replica's own.
      const advertised = [...file.matchAll(new RegExp(`${entry.envPrefix}_PUBLIC_URL: (.*)`, 'g'))].map((match) => match[1]);
      expect(new Set(advertised)).toEqual(new Set([`\${${entry.envPrefix}_PUBLIC_URL:-http://${entry.service}:${entry.port}}`]));
      expect(file.split(`"${bound(entry.port)}"`)).toHaveLength(2);
      expect(file).toMatch(new RegExp(`  balancer:[^]*ports: \\[[^\\]]*:${entry.port}:${entry.port}"`));
      expect(file).toContain(`wget -q -O /dev/null http://127.0.0.1:${entry.port}/readyz`);
      // The balancer listens on the agent's port and checks each replica's readiness (/readyz).
      expect(config).toContain(`frontend ${entry.service}\n  bind :${entry.port}\n`);
      for (const replica of replicaNames(entry)) expect(config).toContain(`  server ${replica} ${replica}:${entry.port}\n`);
    }
    expect(config).toContain('http-check send meth GET uri /readyz');
    // A lone agent needs no balancer: it publishes its own port and is not in haproxy.cfg.
    for (const entry of agents.filter((line) => line.replicas === 1)) {
      expect(file).toContain(`ports: ["${bound(entry.port)}"]`);
      expect(config).not.toContain(entry.service);
    }
  });

  it('reads, as YAML with its merge keys resolved, as the topology: each replica alike, only the balancer publishing their port', () => {
    interface Service {
      image?: string;
      command?: string[];
      ports?: string[];
      environment?: Record<string, string>;
      depends_on?: Record<string, { condition: string }>;
      networks?: { default?: { aliases?: string[] } };
      healthcheck?: { test: string[] };
      volumes?: string[];
    }
    const { services } = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
    const balancer = services.balancer!;
    expect(balancer.image).toBe('haproxy:2.6-alpine');
    expect(balancer.volumes).toEqual(['./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
    const published = Object.entries(services).flatMap(([name, service]) => (service.ports ?? []).map((port) => [port, name] as const));
    for (const entry of agents) {
      const replicas = replicaNames(entry).map((name) => services[name]!);
      for (const replica of replicas) {
        expect(replica.command).toEqual(['node', 'stack/dist/agent-main.js', entry.name]);
        expect(replica.environment).toMatchObject({
          [`${entry.envPrefix}_PORT`]: String(entry.port),
          [`${entry.envPrefix}_PUBLIC_URL`]: `\${${entry.envPrefix}_PUBLIC_URL:-http://${entry.service}:${entry.port}}`,
          AGENTS_ALLOW_ANONYMOUS: 'false',
        });
        expect(replica.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${entry.port}/readyz`);
      }
      // The one published port of an agent belongs to the balancer when it has replicas, else to the agent.
      const owners = published.filter(([port]) => port === bound(entry.port)).map(([, name]) => name);
      expect(owners).toEqual([entry.replicas > 1 ? 'balancer' : entry.service]);
      if (entry.replicas > 1) {
        expect(balancer.networks?.default?.aliases).toContain(entry.service);
        for (const name of replicaNames(entry)) expect(balancer.depends_on?.[name]).toEqual({ condition: 'service_started' });
      }
    }
    expect(services.console!.environment!.CONSOLE_AGENTS!.split(',')).toEqual(agents.map((entry) => `http://${entry.service}:${entry.port}`));
    expect(Object.keys(services.console!.depends_on!)).toEqual(['balancer', ...agents.filter((entry) => entry.replicas === 1).map((entry) => entry.service)]);
  });

  it('takes every token from the environment, refusing to start without one; keeps the authority unpublished; publishes on 127.0.0.1', () => {
    const file = readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');
    const { services } = parse(file, { merge: true }) as { services: Record<string, { ports?: string[]; environment?: Record<string, string> }> };
    // No token anyone can read: no default, no placeholder.
    const settings = file
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n');
    expect(settings).not.toMatch(/change-me|:-[^}]*token/i);
    const tokens = ['AGENTS_AUTHORITY_TOKEN', 'CONSOLE_AUTHORITY_TOKEN', 'CONSOLE_AGENT_TOKEN'];
    for (const variable of tokens) {
      const uses = [...file.matchAll(new RegExp(`\\$\\{${variable}([^}]*)\\}`, 'g'))].map((match) => match[1]);
      expect(uses.length, variable).toBeGreaterThan(0);
      for (const use of uses) expect(use, variable).toMatch(new RegExp(`^:\\?set ${variable} to a token of your own .*openssl rand -hex 32$`));
    }
    const environment = (name: string) => services[name]!.environment!;
    expect(environment('authority').AUTHORITY_TOKENS).toMatch(/^agents=\$\{AGENTS_AUTHORITY_TOKEN:\?[^}]*\},console=\$\{CONSOLE_AUTHORITY_TOKEN:\?[^}]*\}$/);
    expect(environment('console').CONSOLE_AGENT_TOKEN).toMatch(/^\$\{CONSOLE_AGENT_TOKEN:\?/);
    expect(environment('threshold-agent').AUTHORITY_TOKEN).toMatch(/^\$\{AGENTS_AUTHORITY_TOKEN:\?/);
    // The authority answers history reads and writes: reachable by service name only.
    expect(services.authority!.ports).toBeUndefined();
    expect(environment('console').AUTHORITY_URL).toBe('http://authority:4100');
    const ports = Object.values(services).flatMap((service) => service.ports ?? []);
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) expect(port).toMatch(/^\$\{LEARNABLES_PUBLISH_ADDRESS:-127\.0\.0\.1\}:(\d+):\1$/);
    expect(ports.join()).not.toContain(':4100');
  });

  it("runs every service of the image as the node image's own user, with data/ its own and private", () => {
    const lines = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    const users = lines.filter((line) => /^USER\s/i.test(line));
    expect(users.at(-1)).toBe('USER node');
    // Nothing after it runs as root again, and the folder SQLite writes to is the user's, 0700.
    const at = lines.lastIndexOf('USER node');
    expect(lines.slice(at + 1).filter((line) => /^(RUN|USER)\s/i.test(line))).toEqual([]);
    expect(lines.slice(0, at).join('\n')).toMatch(/chown node:node \/app\/data && chmod 0700 \/app\/data/);
  });

  it('runs built JavaScript on Node 24 in an image of production dependencies only, with the seeds and no other fixtures', () => {
    const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
    const stages = dockerfile.split(/^FROM\s+/m).slice(1);
    expect(stages.map((stage) => stage.split(/\s/)[0])).toEqual(['node:24-bookworm-slim', 'node:24-bookworm-slim']);
    const image = stages
      .at(-1)!
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n');
    expect(dockerfile).toMatch(/pnpm@[\d.]+ build/);
    expect(dockerfile).toMatch(/deploy --prod/);
    expect(image).not.toMatch(/tsx|\.ts\b|pnpm/);
    expect(image.match(/^COPY .*$/gm)).toEqual(['COPY --from=build /app/stack stack', 'COPY fixtures/seeds fixtures/seeds']);
    expect(image).toMatch(/^CMD \["node", "stack\/dist\/authority-main\.js"\]$/m);
    // Each service's command is a built entry of this package: stack/src/<name>.ts compiled to stack/dist/<name>.js.
    const services = (parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { command?: string[] }> }).services;
    const commands = Object.values(services).flatMap((service) => (service.command ? [service.command] : []));
    expect(commands.length).toBeGreaterThan(4);
    for (const command of commands) {
      expect(command[0]).toBe('node');
      const entry = /^stack\/dist\/([\w-]+)\.js$/.exec(command[1]!);
      expect(entry, command.join(' ')).not.toBeNull();
      expect(existsSync(join(repoRoot, 'stack/src', `${entry![1]}.ts`)), command.join(' ')).toBe(true);
    }
  });

  it('would notice a new registry line (the staleness check can fail)', () => {
    const carrier = registerAgent({ name: 'carrier', kinds: agents[2]!.kinds, agent: () => agents[2]!.create(), port: 4204, vocabulary: ['carrier'] });
    const grown = composeFile([...agents, carrier]);
    expect(grown).not.toBe(composeFile(agents));
    expect(grown).toContain('CARRIER_AGENT_PUBLIC_URL: ${CARRIER_AGENT_PUBLIC_URL:-http://carrier-agent:4204}');
    expect(grown).toContain(',http://carrier-agent:4204\n');
    const scaled = registerAgent({
      name: 'carrier',
      kinds: agents[2]!.kinds,
      agent: () => agents[2]!.create(),
      port: 4204,
      replicas: 3,
      vocabulary: ['carrier'],
    });
    expect(composeBalancerConfig([...agents, scaled])).toContain('  server carrier-agent-3 carrier-agent-3:4204\n');
  });
});
