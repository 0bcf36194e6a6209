import type { Kysely } from 'kysely';
import type { RuntimeTables } from './tables.ts';

/**
 * The step journal. `step` runs a step once per task: if the task already recorded that step,
 * its recorded result is returned and the step is not run again. That is what lets a task
 * resumed after a crash continue exactly where it stopped, on the version it pinned — and it is
 * also why re-running one task can never show the effect of a lesson: it replays.
 */
export class Journal {
  constructor(
    private readonly db: Kysely<RuntimeTables>,
    /** Test-only fault injection: die (SIGKILL) right after recording this step. */
    private readonly dieAfterStep: string | undefined = process.env.LEARNABLES_DIE_AFTER_STEP,
  ) {}

  async recorded<T>(taskId: string, step: string): Promise<T | undefined> {
    const row = await this.db
      .selectFrom('learnables_journal')
      .select('result')
      .where('task_id', '=', taskId)
      .where('step', '=', step)
      .executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.result) as T);
  }

  async step<T>(taskId: string, step: string, compute: () => Promise<T> | T): Promise<T> {
    const known = await this.recorded<T>(taskId, step);
    if (known !== undefined) return known;
    const result = await compute();
    await this.db
      .insertInto('learnables_journal')
      .values({ task_id: taskId, step, result: JSON.stringify(result ?? null), at: Date.now() })
      .onConflict((oc) => oc.columns(['task_id', 'step']).doNothing())
      .execute();
    if (this.dieAfterStep === step) process.kill(process.pid, 'SIGKILL');
    // Another replica may have recorded the same step first; its result is the one that counts.
    return (await this.recorded<T>(taskId, step)) as T;
  }

  async steps(taskId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('learnables_journal').select('step').where('task_id', '=', taskId).orderBy('at').execute();
    return rows.map((row) => row.step);
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('learnables_journal').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
