import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import type { AuthorityClient } from '@learnables/authority';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { DecisionsResponse, QuestionsResponse, TaskView } from '../api-types.ts';
import type { AgentDirectory, ConnectedAgent } from '../agents/agent-directory.ts';
import { ConsoleError } from '../console-error.ts';
import { newestFirst, taskViewOf, wordsOf } from './task-view.ts';

export const PAGE_SIZE = 100;
/** Enough pages for any inbox a person could work through; beyond it the oldest wait for the next look. */
const MAX_PAGES = 10;

const nameOf = (agent: ConnectedAgent) => ({ id: agent.id, name: agent.card.name });

/** Tasks of one state on one agent, newest first, up to `limit`. */
export async function listByState(agent: ConnectedAgent, status: TaskState, limit: number): Promise<TaskView[]> {
  const views: TaskView[] = [];
  let pageToken = '';
  for (let page = 0; page < MAX_PAGES && views.length < limit; page++) {
    const listed = await agent.client.listTasks({
      tenant: '',
      contextId: '',
      status,
      pageSize: Math.min(PAGE_SIZE, limit - views.length),
      pageToken,
      // The status message (question, teach block, summary) is on the task's status; one history
      // message is enough to have it on every server, including those that only keep it there.
      historyLength: 1,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    views.push(...listed.tasks.map((task) => taskViewOf(task, nameOf(agent))));
    if (!listed.nextPageToken) break;
    pageToken = listed.nextPageToken;
  }
  return views;
}

/** Every task waiting for a person, across the agents, newest first. */
export async function questionsAcross(directory: AgentDirectory): Promise<QuestionsResponse> {
  const { results, problems } = await directory.each((agent) => listByState(agent, TaskState.TASK_STATE_INPUT_REQUIRED, PAGE_SIZE * MAX_PAGES));
  return { questions: results.flat().sort(newestFirst), problems };
}

/** The most recent decided tasks across the agents, newest first. */
export async function decisionsAcross(directory: AgentDirectory, limit: number): Promise<DecisionsResponse> {
  const { results, problems } = await directory.each((agent) => listByState(agent, TaskState.TASK_STATE_COMPLETED, limit));
  return { decisions: results.flat().sort(newestFirst).slice(0, limit), problems };
}

/** One task, with enough history to find the question it asked. */
export async function loadTask(agent: ConnectedAgent, taskId: string): Promise<Task> {
  try {
    return await agent.client.getTask({ tenant: '', id: taskId, historyLength: 100 });
  } catch (error) {
    if ((error as Error).name === 'TaskNotFoundError') {
      throw new ConsoleError(404, 'unknown-task', `${agent.card.name} has no task "${taskId}" that the console can see.`);
    }
    throw new ConsoleError(502, 'agent-unreachable', `${agent.card.name} could not be asked for that task: ${(error as Error).message}`);
  }
}

export async function taskOf(agent: ConnectedAgent, taskId: string, authority?: AuthorityClient): Promise<TaskView> {
  const view = taskViewOf(await loadTask(agent, taskId), nameOf(agent));
  return authority === undefined ? view : withEntriesSince(view, authority);
}

/**
 * A question that waited while someone added a customer offers that customer too: the entries of the
 * collection's active version that the question did not carry, after its own, marked `since`. The
 * question's order stays (the agent's likeliest first). When the authority cannot be read, the
 * question is shown as it was asked.
 */
export async function withEntriesSince(view: TaskView, authority: AuthorityClient): Promise<TaskView> {
  const teach = view.teach;
  if (view.state !== 'asking' || teach === undefined || teach.entry !== undefined) return view;
  try {
    const active = await authority.active(teach.collection);
    if (teach.version !== undefined && active.version === teach.version) return view;
    const { entries } = await authority.entries(teach.collection, active.version);
    const offered = new Set(teach.entries.map((entry) => entry.key));
    const since = entries.filter((entry) => !offered.has(entry.key)).map((entry) => ({ key: entry.key, label: entry.label, since: true as const }));
    return since.length === 0 ? view : { ...view, teach: { ...teach, entries: [...teach.entries, ...since] } };
  } catch {
    return view;
  }
}

export type OutgoingPart = { readonly raw: string; readonly mediaType: string; readonly filename: string } | { readonly text: string };

/** Send a message (a new task, or a follow-up on one) and show what the agent made of it. */
export async function sendToAgent(
  agent: ConnectedAgent,
  parts: readonly (OutgoingPart | { readonly data: Record<string, unknown> })[],
  task?: { id: string; contextId: string },
): Promise<TaskView> {
  const request = SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts, ...(task && { taskId: task.id, contextId: task.contextId }) },
  });
  let result: Awaited<ReturnType<typeof agent.client.sendMessage>>;
  try {
    // A large file takes a while to read; the default limit is for questions and lists.
    result = await agent.client.sendMessage(request, { signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    throw new ConsoleError(502, 'agent-refused', `${agent.card.name} did not take the message: ${(error as Error).message}`);
  }
  if ('status' in result) return taskViewOf(result as Task, nameOf(agent));
  return {
    agentId: agent.id,
    agentName: agent.card.name,
    taskId: '',
    contextId: result.contextId,
    state: 'other',
    at: new Date().toISOString(),
    said: wordsOf(result),
  };
}
