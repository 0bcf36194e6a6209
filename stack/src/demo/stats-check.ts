// The replay counts what it saw; the agents count what they read (GET /learnables/stats?by=week,
// by each message's own date). This holds the two to each other.

export interface PeriodNumbers {
  /** The Monday of the week, `YYYY-MM-DD`. */
  readonly period: string;
  readonly messages: number;
  readonly questions: number;
}

export interface AgentCheck {
  readonly agent: 'email' | 'manifest';
  readonly url: string;
  /** `match`: week for week the same. `totals`: the same totals, grouped under other weeks. */
  readonly outcome: 'match' | 'totals' | 'mismatch';
  readonly replay: readonly PeriodNumbers[];
  /** What the agent counted during this run: its stats after, less its stats before. */
  readonly counted: readonly PeriodNumbers[];
  readonly sentence: string;
}

export interface StatsCheck {
  readonly agrees: boolean;
  readonly agents: readonly AgentCheck[];
}

/** An agent's counts by week, as it serves them. */
export async function statsByWeek(agentUrl: string): Promise<PeriodNumbers[]> {
  const response = await fetch(`${agentUrl.replace(/\/+$/, '')}/learnables/stats?by=week`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${agentUrl}/learnables/stats answered ${response.status}.`);
  const body = (await response.json()) as { periods?: PeriodNumbers[] };
  return (body.periods ?? []).map(({ period, messages, questions }) => ({ period, messages, questions }));
}

/** after − before, period by period; periods with nothing new are left out. */
export function countedBetween(before: readonly PeriodNumbers[], after: readonly PeriodNumbers[]): PeriodNumbers[] {
  const earlier = new Map(before.map((p) => [p.period, p]));
  return after
    .map((p) => ({ period: p.period, messages: p.messages - (earlier.get(p.period)?.messages ?? 0), questions: p.questions - (earlier.get(p.period)?.questions ?? 0) }))
    .filter((p) => p.messages !== 0 || p.questions !== 0)
    .sort((a, b) => a.period.localeCompare(b.period));
}

const total = (periods: readonly PeriodNumbers[]) =>
  periods.reduce((sum, p) => ({ messages: sum.messages + p.messages, questions: sum.questions + p.questions }), { messages: 0, questions: 0 });
const key = (periods: readonly PeriodNumbers[]) => JSON.stringify([...periods].sort((a, b) => a.period.localeCompare(b.period)));

export function checkAgent(agent: 'email' | 'manifest', url: string, replay: readonly PeriodNumbers[], counted: readonly PeriodNumbers[]): AgentCheck {
  const ours = total(replay);
  const theirs = total(counted);
  if (key(replay) === key(counted)) {
    return { agent, url, outcome: 'match', replay, counted, sentence: `The ${agent} agent counted the same ${ours.messages} messages and ${ours.questions} questions, week by week.` };
  }
  if (ours.messages === theirs.messages && ours.questions === theirs.questions) {
    return {
      agent,
      url,
      outcome: 'totals',
      replay,
      counted,
      sentence: `The ${agent} agent counted the same ${ours.messages} messages and ${ours.questions} questions, but under the weeks ${counted.map((p) => p.period).join(', ')}: it dates these messages by when they arrived, not by their own date, so its weekly chart cannot show the scenario's weeks.`,
    };
  }
  return {
    agent,
    url,
    outcome: 'mismatch',
    replay,
    counted,
    sentence: `The ${agent} agent counted ${theirs.messages} messages and ${theirs.questions} questions during the run; the replay saw ${ours.messages} and ${ours.questions}. (Was something else sending it messages at the same time?)`,
  };
}
