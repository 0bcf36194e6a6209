// The limit the email agent is measured against (test/bench/replicas.ts): a bare SDK agent on
// the same SQLite task store that only runs mailparser on each message and completes the task with
// the subject. No learnables, no journal, no pin. Prints its URL once listening.
// Run: node --import tsx agents/email/bench/mailparser-agent.ts <sqlite file>
import type { AddressInfo } from 'node:net';
import express from 'express';
import { simpleParser } from 'mailparser';
import { randomUUID } from 'node:crypto';
import { AGENT_CARD_PATH, Role, TaskState } from '@a2a-js/sdk';
import type { AgentCard } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { AgentEvent, DefaultRequestHandler } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { openRuntimeDatabase } from '@learnables/runtime';

class MailparserExecutor implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    const now = () => new Date().toISOString();
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        artifacts: [],
        history: [userMessage],
        metadata: {},
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: undefined,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
      }),
    );
    const raw = userMessage.parts.find((part) => part.content?.$case === 'raw')?.content;
    const parsed = await simpleParser(Buffer.from(raw?.$case === 'raw' ? raw.value : new Uint8Array()), { skipTextToHtml: true, skipTextLinks: true });
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: undefined,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          message: {
            messageId: randomUUID(),
            taskId,
            contextId,
            role: Role.ROLE_AGENT,
            parts: [{ content: { $case: 'text', value: `Read: ${parsed.subject ?? ''}` }, metadata: {}, filename: '', mediaType: 'text/plain' }],
            metadata: {},
            extensions: [],
            referenceTaskIds: [],
          },
          timestamp: now(),
        },
      }),
    );
    bus.finished();
  }
  async cancelTask(): Promise<void> {}
}

const database = await openRuntimeDatabase(`sqlite:${process.argv[2]}`);
const app = express();
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const card = {
  name: 'mailparser only',
  description: 'Parses an email and does nothing else.',
  url,
  version: '0',
  capabilities: {},
  skills: [],
  defaultInputModes: ['message/rfc822'],
  defaultOutputModes: ['text/plain'],
  supportedInterfaces: [{ url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
} as unknown as AgentCard;
const requestHandler = new DefaultRequestHandler(card, new DatabaseTaskStore(database.db as never), new MailparserExecutor());
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
app.get('/healthz', (_req, res) => void res.json({ ok: true }));
console.log(`listening ${url}`);
process.on('SIGTERM', () => void database.close().then(() => process.exit(0)));
