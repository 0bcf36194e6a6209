import { RereadResultSchema, explainInvalid } from '@learnables/protocol';
import type { ShowBack } from '../api-types.ts';
import type { AgentDirectory, ConnectedAgent } from '../agents/agent-directory.ts';
import { callMethod } from '../agents/call-method.ts';

/**
 * Show-back: ask the agent to read the task's input again under the version live now, with the
 * method name its card publishes. The answer is the agent's own sentences; "Saved" is not one.
 */
export async function rereadTask(directory: AgentDirectory, agent: ConnectedAgent, taskId: string): Promise<ShowBack> {
  const method = agent.view.learnable?.rereadMethod;
  const name = agent.card.name;
  if (!method) return { problem: `${name} offers no way to read a message again, so what it reads now cannot be shown.` };
  const answer = await callMethod(directory, agent, method, { taskId });
  if ('problem' in answer) return { problem: answer.problem };
  if ('refusal' in answer) return { problem: `${name} could not read it again: ${answer.refusal.message}` };
  const readings = RereadResultSchema.safeParse(answer.result);
  if (!readings.success) return { problem: `${name} answered the reread with something the console cannot read (${explainInvalid(readings.error)}).` };
  return { readings: readings.data };
}
