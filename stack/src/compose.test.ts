import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeFile, replicaNames } from './compose.ts';
import { repoRoot } from './config.ts';
import { registerAgent } from './registered-agent.ts';
import { agents } from './registry.ts';

describe('docker-compose.yml', () => {
  it('is what the registry describes (run `pnpm compose` after changing stack/src/agents.ts)', () => {
    expect(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8')).toBe(composeFile(agents));
  });

  it('runs every registered agent, with its replicas, and lists each in the console', () => {
    const file = composeFile(agents);
    for (const entry of agents) {
      for (const replica of replicaNames(entry)) expect(file).toContain(`\n  ${replica}:`);
      expect(file).toContain(`"stack/src/agent-main.ts", "${entry.name}"`);
      expect(file).toContain(`http://${replicaNames(entry)[0]}:${entry.port}`);
    }
  });

  it('would notice a new registry line (the staleness check can fail)', () => {
    const carrier = registerAgent({ name: 'carrier', agent: agents[2]!.agent, port: 4204, vocabulary: ['carrier'] });
    const grown = composeFile([...agents, carrier]);
    expect(grown).not.toBe(composeFile(agents));
    expect(grown).toContain('CARRIER_AGENT_PUBLIC_URL: http://carrier-agent:4204');
    expect(grown).toContain(',http://carrier-agent:4204\n');
  });
});
