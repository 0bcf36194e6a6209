// Runs the console on its own: `pnpm console`. Configuration is by environment:
// CONSOLE_PORT (4300), CONSOLE_HOST (127.0.0.1), CONSOLE_AGENTS (comma-separated agent URLs;
// default EMAIL_AGENT_URL and MANIFEST_AGENT_URL), AUTHORITY_URL, CONSOLE_AUTHORITY_TOKEN (a
// token the authority accepts for writes), CONSOLE_AGENT_TOKEN (a token the agents accept; the
// console sees the tasks of the identity it maps to).
import { createConsole } from '@learnables/console';
import { LOCAL_DEV_TOKEN, portFrom } from './config.ts';

const agents = (process.env.CONSOLE_AGENTS ?? `${process.env.EMAIL_AGENT_URL ?? 'http://127.0.0.1:4201'},${process.env.MANIFEST_AGENT_URL ?? 'http://127.0.0.1:4202'}`)
  .split(',')
  .map((url) => url.trim())
  .filter((url) => url !== '')
  .map((url) => ({ url }));

const running = await createConsole({
  agents,
  authority: { url: process.env.AUTHORITY_URL ?? 'http://127.0.0.1:4100', token: process.env.CONSOLE_AUTHORITY_TOKEN ?? LOCAL_DEV_TOKEN },
  agentToken: process.env.CONSOLE_AGENT_TOKEN ?? LOCAL_DEV_TOKEN,
  port: portFrom(process.env.CONSOLE_PORT, 4300, 'CONSOLE_PORT'),
  host: process.env.CONSOLE_HOST ?? '127.0.0.1',
});
console.log(`console listening on ${running.url}`);
const stop = () => void running.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
