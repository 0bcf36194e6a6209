// Runs the threshold agent (the worked example of docs/write-your-own-agent.md) on its own:
// `pnpm threshold-agent`. See run-agent.ts for its environment.
import { thresholdAgent } from '@learnables/threshold-agent';
import { runAgent } from './run-agent.ts';

await runAgent(thresholdAgent, { env: 'THRESHOLD_AGENT', port: 4203, storeFile: 'threshold-agent.db' });
