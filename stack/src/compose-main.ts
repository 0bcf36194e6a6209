// `pnpm compose`: writes docker-compose.yml and haproxy.cfg (the balancer in front of each agent's
// replicas) from the registry (src/agents.ts). `pnpm compose --check` only says whether the
// committed files are current, and exits 1 when one is not.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeBalancerConfig, composeFile } from './compose.ts';
import { repoRoot } from './config.ts';
import { agents } from './registry.ts';

const files = [
  { name: 'docker-compose.yml', wanted: composeFile(agents) },
  { name: 'haproxy.cfg', wanted: composeBalancerConfig(agents) },
];
const current = (name: string) => {
  try {
    return readFileSync(join(repoRoot, name), 'utf8');
  } catch {
    return '';
  }
};
const stale = files.filter((file) => current(file.name) !== file.wanted);
if (process.argv.includes('--check')) {
  if (stale.length) {
    console.error(
      `${stale.map((file) => file.name).join(' and ')} ${stale.length > 1 ? 'are' : 'is'} not what stack/src/agents.ts describes; run \`pnpm compose\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log('docker-compose.yml and haproxy.cfg are current.');
} else if (!stale.length) {
  console.log('docker-compose.yml and haproxy.cfg are already current.');
} else {
  for (const file of stale) writeFileSync(join(repoRoot, file.name), file.wanted);
  console.log(`wrote ${stale.map((file) => file.name).join(' and ')}: ${agents.map((entry) => entry.name).join(', ')}.`);
}
