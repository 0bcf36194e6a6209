// The word agent as its own process, for tests that kill and restart it.
import { startLearnableAgent } from './start-agent.ts';
import { wordAgent } from './word-agent.test-support.ts';

const agent = await startLearnableAgent(wordAgent, {
  store: process.env.AGENT_STORE!,
  authority: { url: process.env.AUTHORITY_URL!, token: 'agent-token' },
  port: Number(process.env.AGENT_PORT ?? 0),
});
console.log(`ready ${agent.url} recovered=${agent.recovered.join(',')}`);
process.on('SIGTERM', () => void agent.close().then(() => process.exit(0)));
