// One service of the runtime-overhead benchmark (overhead.ts), in a process of its own as deployed,
// so that each one's CPU can be read from /proc and none is charged to another:
//   authority <folder>                  the authority, SQLite in <folder>, seeded with lists alpha and beta
//   runtime <store> <authority url>     the word agent on the learnable runtime
//   bare <store>                        a bare SDK agent doing the word agent's settled work, nothing learnable
// It prints `ready <url>` once it serves. On SIGTERM (or SIGINT) it closes and exits 0 by itself,
// because node writes a `--cpu-prof` profile only on a clean exit, never when a signal kills it.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { AGENT_CARD_PATH, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { AgentEvent, DefaultRequestHandler } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { startAuthority } from '../src/harness.test-support.ts';
import { openRuntimeDatabase } from '../src/storage/open-database.ts';
import { agentCardFor } from '../src/a2a/agent-card.ts';
import { agentMessage, textPart } from '../src/a2a/parts.ts';
import { startLearnableAgent } from '../src/start-agent.ts';
import { wordAgent } from '../src/word-agent.test-support.ts';
import { silentLogger } from '@learnables/authority';

/** The same work as the word agent's settled path, with nothing learnable around it. */
class BareExecutor implements AgentExecutor {
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
    const text = userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join(' ');
    const found = text.split(/\s+/).includes('banana') ? 'beta' : 'none';
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: undefined,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: agentMessage(taskId, contextId, [textPart(`Belongs to ${found}`)]), timestamp: now() },
      }),
    );
    bus.finished();
  }
  async cancelTask(): Promise<void> {}
}

async function startBare(store: string): Promise<{ url: string; close: () => Promise<void> }> {
  const database = await openRuntimeDatabase(store);
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const requestHandler = new DefaultRequestHandler(agentCardFor(wordAgent, url), new DatabaseTaskStore(database.db as never), new BareExecutor());
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    },
  };
}

// The handlers go in before the service starts, so a stop asked for while it starts is not lost
// (the default action of SIGTERM would kill the process and its profile with it).
let close: (() => Promise<void>) | undefined;
let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  // A close that hangs must not keep the profile from being written.
  setTimeout(() => process.exit(0), 5000).unref();
  (close ?? (async () => undefined))().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// If the benchmark is killed outright (SIGKILL, a crash of node) it cannot stop us: notice that
// we were handed to another parent and stop, rather than serve on with nobody to stop us.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop();
}, 1000).unref();

const [role, ...args] = process.argv.slice(2);
let url: string;
if (role === 'authority' && args.length === 1) {
  // The folder is the benchmark's: it removes it, with the agents' stores, when all have stopped.
  // BENCH_COMMIT_WAIT_MS: the authority's commit wait (default the authority's own, 25 ms); the agent
  // asks for the active version about once per wait, so this sets what the pin costs.
  const wait = process.env.BENCH_COMMIT_WAIT_MS;
  const authority = await startAuthority({ path: args[0]!, remove: () => undefined }, wait === undefined ? {} : { commitWaitMs: Number(wait) });
  ({ url, close } = authority);
} else if (role === 'runtime' && args.length === 2) {
  const agent = await startLearnableAgent(wordAgent, { store: args[0]!, authority: { url: args[1]! }, logger: silentLogger() });
  ({ url, close } = agent);
} else if (role === 'bare' && args.length === 1) {
  ({ url, close } = await startBare(args[0]!));
} else {
  console.error('usage: overhead-service.ts authority <folder> | runtime <store> <authority url> | bare <store>');
  process.exit(2);
}
console.log(`ready ${url}`);
