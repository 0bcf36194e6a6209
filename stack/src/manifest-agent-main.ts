// Runs the manifest agent on its own: `pnpm manifest-agent`, the same as `pnpm agent manifest`. See run-agent.ts for its environment.
import './check-node.ts';
import { agentNamed } from './registry.ts';
import { runAgent } from './run-agent.ts';

await runAgent(agentNamed('manifest'));
