// Runs the threshold agent on its own: `pnpm threshold-agent`, the same as `pnpm agent threshold`. See run-agent.ts for its environment.
import './check-node.ts';
import { agentNamed } from './registry.ts';
import { runAgent } from './run-agent.ts';

await runAgent(agentNamed('threshold'));
