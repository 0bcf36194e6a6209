// Runs one agent of the registry (src/agents.ts) as its own service: `pnpm agent <name>`.
// See run-agent.ts for its environment.
import './check-node.ts';
import { agentNamed } from './registry.ts';
import { runAgent } from './run-agent.ts';

const name = process.argv[2];
if (name === undefined || name === '') {
  console.error('Name the agent to run: pnpm agent <name> (see stack/src/agents.ts).');
  process.exit(2);
}
await runAgent(agentNamed(name));
