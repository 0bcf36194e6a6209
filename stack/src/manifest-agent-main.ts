// Runs the manifest agent on its own: `pnpm manifest-agent`. See run-agent.ts for its environment.
import { manifestAgent } from '@learnables/manifest-agent';
import { runAgent } from './run-agent.ts';

await runAgent(manifestAgent, { env: 'MANIFEST_AGENT', port: 4202, storeFile: 'manifest-agent.db' });
