// `pnpm compose`: writes docker-compose.yml from the registry (src/agents.ts). `pnpm compose --check`
// only says whether the committed file is current, and exits 1 when it is not.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeFile } from './compose.ts';
import { repoRoot } from './config.ts';
import { agents } from './registry.ts';

const path = join(repoRoot, 'docker-compose.yml');
const wanted = composeFile(agents);
const current = (() => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
})();
if (process.argv.includes('--check')) {
  if (current !== wanted) {
    console.error('docker-compose.yml is not what stack/src/agents.ts describes; run `pnpm compose` and commit the result.');
    process.exit(1);
  }
  console.log('docker-compose.yml is current.');
} else if (current === wanted) {
  console.log('docker-compose.yml is already current.');
} else {
  writeFileSync(path, wanted);
  console.log(`wrote docker-compose.yml: ${agents.map((entry) => entry.name).join(', ')}.`);
}
