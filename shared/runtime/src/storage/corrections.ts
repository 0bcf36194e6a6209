import type { Kysely } from 'kysely';
import type { RuntimeTables } from './tables.ts';

/** What a completed task decided for one finding, as its outcome said (kept with each correction). */
export interface Decided {
  readonly winner?: string;
  readonly none?: true;
  readonly reads: string;
}

/** One correction as recorded: what it should have been, who said so and why. */
export interface CorrectionRecord {
  readonly taskId: string;
  readonly finding: string;
  readonly decided: Decided;
  readonly entry?: string;
  readonly none?: true;
  readonly correctedBy: string;
  readonly reason: string;
  /** The authenticated client that recorded it (the bearer token's user). */
  readonly client: string;
  readonly at: number;
}

/** A correction names what the decision already was, or what the last correction already said. */
const sameAs = (a: { entry?: string; none?: true }, b: { entry?: string; none?: true }): boolean =>
  a.none === true ? b.none === true : b.none !== true && a.entry !== undefined && a.entry === b.entry;

/** Whether a finding's latest correction says something other than what the task decided. */
export const standsCorrected = (latest: CorrectionRecord): boolean =>
  !sameAs(latest, { ...(latest.decided.winner !== undefined && { entry: latest.decided.winner }), ...(latest.decided.none && { none: true as const }) });

/** The most corrections one finding of a task takes (SPEC §6.7). */
export const MOST_CORRECTIONS = 20;

/** A finding has had MOST_CORRECTIONS corrections: a new one is refused, nothing written. */
export class CorrectionsFull extends Error {}

/** A new correction lost the race for its number to another one of the same finding. */
export class CorrectionRaced extends Error {}

const recordOf = (row: RuntimeTables['learnables_corrections']): CorrectionRecord => ({
  taskId: row.task_id,
  finding: row.finding,
  decided: JSON.parse(row.decided) as Decided,
  ...(row.entry !== null && { entry: row.entry }),
  ...(Number(row.none) === 1 && { none: true as const }),
  correctedBy: row.corrected_by,
  reason: row.reason,
  client: row.client,
  at: Number(row.at),
});

/**
 * Corrections of completed tasks' decisions (SPEC §6.7), kept beside the journal: a task's own
 * steps and outcome stay as they were decided, pinned; a correction only says, with author and
 * reason, what the decision should have been. The numbers count the tasks that stand corrected.
 */
export class Corrections {
  private written = 0;

  constructor(
    private readonly db: Kysely<RuntimeTables>,
    private readonly agent: string,
  ) {}

  /** How many corrections this process has recorded: the numbers computed before are stale after. */
  get writes(): number {
    return this.written;
  }

  /** A task's corrections, oldest first. */
  async of(taskId: string): Promise<CorrectionRecord[]> {
    const rows = await this.db
      .selectFrom('learnables_corrections')
      .selectAll()
      .where('task_id', '=', taskId)
      .where('agent', '=', this.agent)
      .orderBy('at')
      .orderBy('seq')
      .execute();
    return rows.map(recordOf);
  }

  /**
   * Record a correction unless it says what stands already (the last correction's answer, or the
   * decision itself when there is none): then nothing is written and `changed` is false. Two at once
   * on one finding: the second loses its number and is refused (`CorrectionRaced`), never lost silently.
   * Past MOST_CORRECTIONS of one finding, a correction that would be recorded is refused (`CorrectionsFull`).
   */
  async record(correction: CorrectionRecord): Promise<{ changed: boolean; standing: CorrectionRecord; count: number }> {
    const earlier = (await this.of(correction.taskId)).filter((row) => row.finding === correction.finding);
    const latest = earlier.at(-1);
    const standingNow = latest ?? { entry: correction.decided.winner, ...(correction.decided.none && { none: true as const }) };
    if (sameAs(correction, standingNow)) {
      return { changed: false, standing: latest ?? correction, count: earlier.length };
    }
    // Bounded, so that what corrections lists, what each correction reads first and what the
    // numbers read stay bounded however often one decision is argued back and forth.
    if (earlier.length >= MOST_CORRECTIONS) throw new CorrectionsFull();
    try {
      await this.db
        .insertInto('learnables_corrections')
        .values({
          task_id: correction.taskId,
          finding: correction.finding,
          seq: earlier.length + 1,
          agent: this.agent,
          entry: correction.entry ?? null,
          none: correction.none ? 1 : 0,
          decided: JSON.stringify(correction.decided),
          corrected_by: correction.correctedBy,
          reason: correction.reason,
          client: correction.client,
          at: correction.at,
        })
        .execute();
    } catch (error) {
      // The same finding's next number, taken meanwhile: the primary key refused this one.
      if ((await this.of(correction.taskId)).filter((row) => row.finding === correction.finding).length > earlier.length) throw new CorrectionRaced();
      throw error;
    }
    this.written += 1;
    return { changed: true, standing: correction, count: earlier.length + 1 };
  }

  /** The latest correction of each finding of these tasks, by task then finding; read-only (preview's truth, SPEC §6.5). */
  async latestFor(taskIds: readonly string[]): Promise<Map<string, Map<string, CorrectionRecord>>> {
    const out = new Map<string, Map<string, CorrectionRecord>>();
    for (let start = 0; start < taskIds.length; start += 1000) {
      const rows = await this.db
        .selectFrom('learnables_corrections')
        .selectAll()
        .where('agent', '=', this.agent)
        .where('task_id', 'in', taskIds.slice(start, start + 1000))
        .orderBy('task_id')
        .orderBy('finding')
        .orderBy('seq')
        .execute();
      for (const row of rows) {
        const findings = out.get(row.task_id) ?? new Map<string, CorrectionRecord>();
        findings.set(row.finding, recordOf(row));
        out.set(row.task_id, findings);
      }
    }
    return out;
  }

  /** The tasks of this agent with at least one finding that stands corrected now. */
  async standing(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('learnables_corrections')
      .selectAll()
      .where('agent', '=', this.agent)
      .orderBy('task_id')
      .orderBy('finding')
      .orderBy('seq')
      .execute();
    const latest = new Map<string, CorrectionRecord>();
    for (const row of rows) latest.set(`${row.task_id}\u0000${row.finding}`, recordOf(row));
    const tasks = new Set<string>();
    for (const record of latest.values()) if (standsCorrected(record)) tasks.add(record.taskId);
    return tasks;
  }
}
