import type { Request, Response } from 'express';
import type { Corrections } from '../storage/corrections.ts';
import type { TaskLedger } from '../storage/task-ledger.ts';

/** Prometheus text format: messages and questions this agent has seen, and decisions corrected later. */
export function metricsHandler(ledger: TaskLedger, corrections: Corrections, agent: string) {
  return async (_req: Request, res: Response) => {
    const { messages, questions } = await ledger.totals();
    const corrected = (await corrections.standing()).size;
    const label = `{agent="${agent.replace(/["\\\n]/g, '_')}"}`;
    res.type('text/plain; version=0.0.4').send(
      [
        '# HELP learnables_messages_total Messages (tasks) this agent has read.',
        '# TYPE learnables_messages_total counter',
        `learnables_messages_total${label} ${messages}`,
        '# HELP learnables_questions_total Messages on which this agent had to ask a person.',
        '# TYPE learnables_questions_total counter',
        `learnables_questions_total${label} ${questions}`,
        '# HELP learnables_questions_per_100_messages Questions per 100 messages, over all time.',
        '# TYPE learnables_questions_per_100_messages gauge',
        `learnables_questions_per_100_messages${label} ${messages === 0 ? 0 : Math.round((questions / messages) * 1000) / 10}`,
        '# HELP learnables_decisions_corrected Decisions a person later said were wrong and that stand corrected now.',
        '# TYPE learnables_decisions_corrected gauge',
        `learnables_decisions_corrected${label} ${corrected}`,
        '',
      ].join('\n'),
    );
  };
}

/**
 * Questions per 100 messages by day or week, from the messages' own dates, with the decisions of
 * each period that stand corrected (SPEC §6.8).
 */
export function statsHandler(ledger: TaskLedger, corrections: Corrections, agent: string) {
  return async (req: Request, res: Response) => {
    const by = req.query.by === 'day' ? 'day' : 'week';
    const periods = await ledger.byPeriod(by, await corrections.standing());
    const corrected = periods.reduce((sum, period) => sum + period.corrected, 0);
    const correctedUnasked = periods.reduce((sum, period) => sum + period.correctedUnasked, 0);
    res.json({ agent, by, periods, ...(await ledger.totals()), corrected, correctedUnasked });
  };
}
