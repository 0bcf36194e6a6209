// Runs the email agent on its own: `pnpm email-agent`, the same as `pnpm agent email`. See run-agent.ts for its environment.
import './check-node.ts';
import { agentNamed } from './registry.ts';
import { runAgent } from './run-agent.ts';

await runAgent(agentNamed('email'));
