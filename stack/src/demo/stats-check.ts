// The replay counts what it saw; the agents count what they read (GET /learnables/stats?by=week,
// by each message's own date). This holds the two to each other: messages, questions, and the
// decisions the replay found wrong and corrected on the agent (SPEC §6.7), which the agent counts
// as `corrected` and, for those it made without asking, `correctedUnasked` (§6.8).

export interface PeriodNumbers {
  /** The Monday of the week, `YYYY-MM-DD`. */
  readonly period: string;
  readonly messages: number;
  readonly questions: number;
  /** Tasks among the period's messages whose decision stands corrected. */
  readonly corrected: number;
  /** Of those, the ones decided without asking. */
  readonly correctedUnasked: number;
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

const FIELDS = ['messages', 'questions', 'corrected', 'correctedUnasked'] as const;
type Field = (typeof FIELDS)[number];
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** An agent's counts by week, as it serves them (an agent that counts no corrections counts 0 of them). */
export async function statsByWeek(agentUrl: string): Promise<PeriodNumbers[]> {
  const response = await fetch(`${agentUrl.replace(/\/+$/, '')}/learnables/stats?by=week`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${agentUrl}/learnables/stats answered ${response.status}.`);
  const body = (await response.json()) as { periods?: Partial<PeriodNumbers>[] };
  return (body.periods ?? []).map((p) => ({
    period: String(p.period),
    messages: number(p.messages),
    questions: number(p.questions),
    corrected: number(p.corrected),
    correctedUnasked: number(p.correctedUnasked),
  }));
}

/** after − before, period by period; periods with nothing new are left out. */
export function countedBetween(before: readonly PeriodNumbers[], after: readonly PeriodNumbers[]): PeriodNumbers[] {
  const earlier = new Map(before.map((p) => [p.period, p]));
  return after
    .map((p) => {
      const was = earlier.get(p.period);
      return {
        period: p.period,
        messages: p.messages - (was?.messages ?? 0),
        questions: p.questions - (was?.questions ?? 0),
        corrected: p.corrected - (was?.corrected ?? 0),
        correctedUnasked: p.correctedUnasked - (was?.correctedUnasked ?? 0),
      };
    })
    .filter((p) => FIELDS.some((field) => p[field] !== 0))
    .sort((a, b) => a.period.localeCompare(b.period));
}

const total = (periods: readonly PeriodNumbers[]): Record<Field, number> => {
  const sum: Record<Field, number> = { messages: 0, questions: 0, corrected: 0, correctedUnasked: 0 };
  for (const p of periods) for (const field of FIELDS) sum[field] += p[field];
  return sum;
};
const key = (periods: readonly PeriodNumbers[]) =>
  JSON.stringify([...periods].sort((a, b) => a.period.localeCompare(b.period)).map((p) => [p.period, ...FIELDS.map((field) => p[field])]));
const sameTotals = (a: Record<Field, number>, b: Record<Field, number>) => FIELDS.every((field) => a[field] === b[field]);
const described = (n: Record<Field, number>, corrected = 'corrected') =>
  `${n.messages} messages, ${n.questions} questions and ${n.corrected} decisions ${corrected} (${n.correctedUnasked} of them made without asking)`;

/** Where the two disagree, week by week, in words: "week of 2026-10-12: the agent 1 corrected without asking, the replay 2". */
function differences(replay: readonly PeriodNumbers[], counted: readonly PeriodNumbers[]): string {
  const zero = (period: string): PeriodNumbers => ({ period, messages: 0, questions: 0, corrected: 0, correctedUnasked: 0 });
  const ours = new Map(replay.map((p) => [p.period, p]));
  const theirs = new Map(counted.map((p) => [p.period, p]));
  const words: Record<Field, string> = { messages: 'messages', questions: 'questions', corrected: 'corrected', correctedUnasked: 'corrected without asking' };
  return [...new Set([...ours.keys(), ...theirs.keys()])]
    .sort()
    .flatMap((period) => {
      const a = theirs.get(period) ?? zero(period);
      const b = ours.get(period) ?? zero(period);
      const fields = FIELDS.filter((field) => a[field] !== b[field]);
      return fields.length === 0
        ? []
        : [`week of ${period}: the agent ${fields.map((f) => `${a[f]} ${words[f]}`).join(', ')}; the replay ${fields.map((f) => `${b[f]}`).join(', ')}`];
    })
    .join('; ');
}

export function checkAgent(agent: 'email' | 'manifest', url: string, replay: readonly PeriodNumbers[], counted: readonly PeriodNumbers[]): AgentCheck {
  const ours = total(replay);
  const theirs = total(counted);
  if (key(replay) === key(counted)) {
    return { agent, url, outcome: 'match', replay, counted, sentence: `The ${agent} agent counted the same ${described(ours)}, week by week.` };
  }
  if (sameTotals(ours, theirs)) {
    return {
      agent,
      url,
      outcome: 'totals',
      replay,
      counted,
      sentence: `The ${agent} agent counted the same ${described(ours)}, but under the weeks ${counted.map((p) => p.period).join(', ')}: it dates these messages by when they arrived, not by their own date, so its weekly chart cannot show the scenario's weeks.`,
    };
  }
  const corrections = ours.corrected !== theirs.corrected || ours.correctedUnasked !== theirs.correctedUnasked;
  return {
    agent,
    url,
    outcome: 'mismatch',
    replay,
    counted,
    sentence:
      `The ${agent} agent counted ${described(theirs)} during the run; the replay saw ${described(ours, 'wrong, to correct')} (${differences(replay, counted)}).` +
      (corrections
        ? ' Every decision the replay found wrong is corrected on the agent as it is found, so the agent should count each of them once, in the week of its message.'
        : ' (Was something else sending it messages at the same time?)'),
  };
}
