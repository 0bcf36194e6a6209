import { randomUUID } from 'node:crypto';
import type { Refusal } from '@learnables/protocol';
import type { AgentDirectory, ConnectedAgent } from './agent-directory.ts';

/** What an agent answered to one of the extension's methods: its result, or its refusal word for word. */
export type MethodAnswer = { readonly result: unknown } | { readonly refusal: Refusal } | { readonly problem: string };

/**
 * Call one of the extension's JSON-RPC methods by the name the card publishes (SPEC §1.8), with
 * the console's token. A refusal comes back as the agent's own `{ error, message, field? }`; a
 * failure to ask at all as a sentence naming the agent.
 */
export async function callMethod(directory: AgentDirectory, agent: ConnectedAgent, method: string, params: Record<string, unknown>): Promise<MethodAnswer> {
  const name = agent.card.name;
  try {
    const endpoint = directory.jsonRpcOf(agent);
    const response = await directory.fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params: { ...params, ...(endpoint.tenant && { tenant: endpoint.tenant }) } }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { message?: unknown; data?: unknown } };
    if (body.error) {
      const data = body.error.data as Partial<Refusal> | undefined;
      if (data && typeof data.error === 'string' && typeof data.message === 'string') {
        return { refusal: { error: data.error, message: data.message, ...(typeof data.field === 'string' && { field: data.field }) } };
      }
      return { problem: `${name} refused: ${typeof body.error.message === 'string' ? body.error.message : 'it did not say why'}` };
    }
    return { result: body.result };
  } catch (error) {
    return { problem: `${name} could not be asked: ${(error as Error).message}` };
  }
}
