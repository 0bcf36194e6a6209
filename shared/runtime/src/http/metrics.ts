import type { Request, Response } from 'express';
import type { Corrections } from '../storage/corrections.ts';
import type { PeriodCount, TaskLedger } from '../storage/task-ledger.ts';

/** How long counts computed once answer every request, unless this process wrote meanwhile. */
const FRESH_MS = 1_000;

interface Counts {
  readonly messages: number;
  readonly questions: number;
  readonly standing: ReadonlySet<string>;
  readonly periods: { readonly day: readonly PeriodCount[]; readonly week: readonly PeriodCount[] };
}

/**
 * The numbers `/learnables/stats` answers (the shared database's, across replicas; `/metrics` counts
 * this process alone, agent-metrics.ts), computed at most once a second however many
 * ask (anyone may: they take no token), and once for all who ask at the same moment. Exact for what
 * this process wrote: any ledger or correction write it commits makes the next request count again;
 * another replica's writes show within FRESH_MS. Each count is the database's (by day, in SQL), never
 * a row per task brought back to this process.
 */
export class AgentCounts {
  private cached: { at: number; writes: number; counts: Counts } | undefined;
  private computing: { writes: number; promise: Promise<Counts> } | undefined;

  constructor(
    private readonly ledger: Pick<TaskLedger, 'totals' | 'byPeriod' | 'writes'>,
    private readonly corrections: Pick<Corrections, 'standing' | 'writes'>,
  ) {}

  private get writes(): number {
    return this.ledger.writes + this.corrections.writes;
  }

  async now(): Promise<Counts> {
    const writes = this.writes;
    const cached = this.cached;
    if (cached !== undefined && cached.writes === writes && performance.now() - cached.at < FRESH_MS) return cached.counts;
    if (this.computing !== undefined && this.computing.writes === writes) return this.computing.promise;
    const started = performance.now();
    const promise = this.compute();
    this.computing = { writes, promise };
    try {
      const counts = await promise;
      // Kept only if nothing was written while counting (a write committed meanwhile may be missing).
      if (this.writes === writes) this.cached = { at: started, writes, counts };
      return counts;
    } finally {
      if (this.computing?.promise === promise) this.computing = undefined;
    }
  }

  private async compute(): Promise<Counts> {
    const standing = await this.corrections.standing();
    const [{ messages, questions }, day, week] = await Promise.all([
      this.ledger.totals(),
      this.ledger.byPeriod('day', standing),
      this.ledger.byPeriod('week', standing),
    ]);
    return { messages, questions, standing, periods: { day, week } };
  }
}

/**
 * Questions per 100 messages by day or week, from the messages' own dates, with the decisions of
 * each period that stand corrected (SPEC §6.8).
 */
export function statsHandler(counts: AgentCounts, agent: string) {
  return async (req: Request, res: Response) => {
    const by = req.query.by === 'day' ? 'day' : 'week';
    const now = await counts.now();
    const periods = now.periods[by];
    const corrected = periods.reduce((sum, period) => sum + period.corrected, 0);
    const correctedUnasked = periods.reduce((sum, period) => sum + period.correctedUnasked, 0);
    res.json({ agent, by, periods, messages: now.messages, questions: now.questions, corrected, correctedUnasked });
  };
}
