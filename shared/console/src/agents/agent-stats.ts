import type { PeriodView, StatsResponse } from '../api-types.ts';
import type { LessonsTakenBack } from '../history/taken-back.ts';
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

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/** The numbers the dashboard draws, and only those: corrections when the agent counts them (SPEC §6.8). */
function counted(period: PeriodView): PeriodView {
  const corrected = count(period.corrected);
  const correctedUnasked = count(period.correctedUnasked);
  return {
    period: period.period,
    messages: period.messages,
    questions: period.questions,
    questionsPer100: period.questionsPer100,
    ...(corrected !== undefined && { corrected, correctedUnasked: Math.min(correctedUnasked ?? 0, corrected) }),
  };
}

/**
 * Questions per 100 messages by week, and decisions corrected later, from each agent's
 * `GET /learnables/stats?by=week`; and how many lessons of its collection were taken back, from the
 * authority's history. Both are what was recorded, never what a browser remembers.
 */
export async function statsAcross(directory: AgentDirectory, takenBack?: LessonsTakenBack): Promise<StatsResponse> {
  const agents = await Promise.all(
    directory.agents.map(async (configured) => {
      let name = configured.url;
      try {
        const connected = await directory.connect(configured.id);
        name = connected.card.name;
        const collection = connected.view.learnable?.collection;
        const [response, retracted] = await Promise.all([
          directory.fetch(`${configured.url}/learnables/stats?by=week`, { headers: { accept: 'application/json' } }),
          // The count is a sentence beside the chart; an authority that cannot answer leaves it out, not the chart.
          collection && takenBack ? takenBack.of(collection).catch(() => undefined) : Promise.resolve(undefined),
        ]);
        if (!response.ok) throw new Error(`it answered ${response.status}`);
        const body = (await response.json()) as { periods?: unknown };
        const periods = Array.isArray(body.periods) ? body.periods.filter(isPeriod).map(counted) : [];
        return {
          agentId: configured.id,
          name,
          periods,
          ...(retracted && collection && { takenBack: { collection, lessons: retracted.taken, atLeast: retracted.atLeast } }),
        };
      } catch (error) {
        return { agentId: configured.id, name, periods: [], problem: `The numbers of ${name} cannot be read: ${(error as Error).message}` };
      }
    }),
  );
  return { agents };
}
