import { randomUUID } from 'node:crypto';
import { RereadResultSchema, explainInvalid } from '@learnables/protocol';
import type { ShowBack } from '../api-types.ts';
import type { AgentDirectory, ConnectedAgent } from '../agents/agent-directory.ts';

/**
 * Show-back: ask the agent to read the task's input again under the version live now, with the
 * method name its card publishes. The answer is the agent's own sentences; "Saved" is not one.
 */
export async function rereadTask(directory: AgentDirectory, agent: ConnectedAgent, taskId: string): Promise<ShowBack> {
  const method = agent.view.learnable?.rereadMethod;
  const name = agent.card.name;
  if (!method) return { problem: `${name} offers no way to read a message again, so what it reads now cannot be shown.` };
  try {
    const endpoint = directory.jsonRpcOf(agent);
    const response = await directory.fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params: { taskId, ...(endpoint.tenant && { tenant: endpoint.tenant }) } }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
    if (body.error) return { problem: `${name} could not read it again: ${body.error.message ?? 'it did not say why'}` };
    const readings = RereadResultSchema.safeParse(body.result);
    if (!readings.success) return { problem: `${name} answered the reread with something the console cannot read (${explainInvalid(readings.error)}).` };
    return { readings: readings.data };
  } catch (error) {
    return { problem: `${name} could not be asked to read it again: ${(error as Error).message}` };
  }
}
