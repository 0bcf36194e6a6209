import type { PeriodView, StatsResponse } from '../api-types.ts';
import type { AgentDirectory } from './agent-directory.ts';

const isPeriod = (value: unknown): value is PeriodView => {
  const period = value as Partial<PeriodView> | null;
  return (
    typeof period === 'object' &&
    period !== null &&
    typeof period.period === 'string' &&
    typeof period.messages === 'number' &&
    typeof period.questions === 'number' &&
    typeof period.questionsPer100 === 'number'
  );
};

/** Questions per 100 messages by week, from each agent's `GET /learnables/stats?by=week`. */
export async function statsAcross(directory: AgentDirectory): Promise<StatsResponse> {
  const agents = await Promise.all(
    directory.agents.map(async (configured) => {
      let name = configured.url;
      try {
        name = (await directory.connect(configured.id)).card.name;
        const response = await directory.fetch(`${configured.url}/learnables/stats?by=week`, { headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`it answered ${response.status}`);
        const body = (await response.json()) as { periods?: unknown };
        const periods = Array.isArray(body.periods) ? body.periods.filter(isPeriod) : [];
        return { agentId: configured.id, name, periods };
      } catch (error) {
        return { agentId: configured.id, name, periods: [], problem: `The numbers of ${name} cannot be read: ${(error as Error).message}` };
      }
    }),
  );
  return { agents };
}
