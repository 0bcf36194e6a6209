import { PreviewResultSchema, explainInvalid } from '@learnables/protocol';
import type { PreviewRequest, PreviewView } from '../api-types.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import { callMethod } from '../agents/call-method.ts';
import { ConsoleError } from '../console-error.ts';
import { loadTask } from '../tasks/agent-tasks.ts';
import { taskViewOf } from '../tasks/task-view.ts';

/**
 * What a lesson drawn on this task would do, before it is taught: the agent builds the candidate
 * in memory and reads its recent tasks under both (SPEC §6.5). Nothing is written. The value goes
 * to the agent exactly as the form holds it; the console reads none of its keys.
 */
export async function previewLesson(
  directory: AgentDirectory,
  agentId: string,
  taskId: string,
  request: PreviewRequest,
  operator: string,
): Promise<PreviewView> {
  const agent = await directory.connect(agentId);
  const method = agent.view.learnable?.previewMethod;
  if (!method) return { problem: `${agent.card.name} does not offer to show what a lesson would do before it is taught.` };
  const teach = taskViewOf(await loadTask(agent, taskId), { id: agent.id, name: agent.card.name }).teach;
  if (!teach)
    throw new ConsoleError(400, 'not-learnable', `${agent.card.name} does not say what it can be taught on this question, so nothing can be previewed.`);
  const entry = teach.entry ?? request.entry;
  if (entry === '') throw new ConsoleError(400, 'malformed', 'Choose an answer first: the lesson goes to it.', 'entry');
  const lesson = {
    collection: teach.collection,
    entry,
    value: { ...request.value },
    taughtBy: operator,
    reason: request.reason?.trim() || 'A preview before teaching.',
  };
  const answer = await callMethod(directory, agent, method, { lesson });
  if ('problem' in answer) return { problem: answer.problem };
  if ('refusal' in answer) return { refusal: answer.refusal };
  const preview = PreviewResultSchema.safeParse(answer.result);
  if (!preview.success)
    return { problem: `${agent.card.name} answered the preview with something the console cannot read (${explainInvalid(preview.error)}).` };
  return { preview: preview.data };
}
