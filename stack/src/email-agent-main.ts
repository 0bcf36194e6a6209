// Runs the email agent on its own: `pnpm email-agent`. See run-agent.ts for its environment.
import { createEmailAgent } from '@learnables/email-agent';
import { runAgent } from './run-agent.ts';

const margin = process.env.EMAIL_AGENT_MARGIN === undefined ? undefined : Number(process.env.EMAIL_AGENT_MARGIN);
await runAgent(createEmailAgent(margin === undefined ? {} : { margin }), { env: 'EMAIL_AGENT', port: 4201, storeFile: 'email-agent.db' });
