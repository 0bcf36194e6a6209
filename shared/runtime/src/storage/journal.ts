import { inSpan } from '@learnables/tracing';
import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import { compiledOnce } from './compiled-once.ts';
import { boundedJson } from './kept-input.ts';
import type { RuntimeDatabase } from './open-database.ts';
import type { RuntimeTables } from './tables.ts';

/** The most a step's result may take in the journal, and what to throw for one that takes more. */
export interface JournalBound {
  readonly characters: number;
  readonly refuse: () => Error;
}

/** A step's result as the journal keeps it (`json`), and as a replay reads it back (`value`). */
export interface EncodedStep {
  readonly step: string;
  readonly json: string;
  readonly value: unknown;
}

/** Encode a step's result; one over its bound is refused (`bound.refuse()`) before anything is written. */
function encodeStep(step: string, result: unknown, bound?: JournalBound): EncodedStep {
  const json = bound === undefined ? JSON.stringify(result ?? null) : boundedJson(result, bound.characters);
  if (json === undefined) throw bound!.refuse();
  return { step, json, value: JSON.parse(json) as unknown };
}

/**
 * The step journal. `forTask(id).step(name, compute)` runs a step once per task: if the task already recorded that step,
 * its recorded result is returned and the step is not run again. That is what lets a task
 * resumed after a crash continue exactly where it stopped, on the version it pinned — and it is
 * also why re-running one task can never show the effect of a lesson: it replays.
 */
export class Journal {
  private readonly db: Kysely<RuntimeTables>;
  /** The statement inserting so many steps' rows, unless recorded already; each built once (see `compiledOnce`). */
  private readonly inserts = new Map<number, (values: Readonly<Record<string, unknown>>) => CompiledQuery>();

  constructor(
    /** Steps are written through `steps` (see `RuntimeDatabase.steps`), and read there too. */
    private readonly database: Pick<RuntimeDatabase, 'steps' | 'run'>,
    /** Test-only fault injection: die (SIGKILL) right after recording this step, or on reaching this point (see `reached`). */
    private readonly dieAfterStep: string | undefined = process.env.LEARNABLES_DIE_AFTER_STEP,
  ) {
    this.db = database.steps;
  }

  /** A point of a task's run that is not a step (`decided`: the outcome is known, not yet stored); test-only fault injection. */
  reached(point: string): void {
    if (this.dieAfterStep === point) process.kill(process.pid, 'SIGKILL');
  }

  private async recorded<T>(taskId: string, step: string): Promise<T | undefined> {
    const row = await this.db.selectFrom('learnables_journal').select('result').where('task_id', '=', taskId).where('step', '=', step).executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.result) as T);
  }

  /** Every step a task has recorded, read once so a run of steps costs one query, not one each. */
  async forTask(taskId: string, options: { fresh?: boolean } = {}): Promise<TaskJournal> {
    // A task the SDK has just created cannot have recorded anything yet.
    if (options.fresh) return new TaskJournal(this, taskId, new Map());
    const rows = await this.db.selectFrom('learnables_journal').select(['step', 'result']).where('task_id', '=', taskId).execute();
    return new TaskJournal(this, taskId, new Map(rows.map((row) => [row.step, JSON.parse(row.result) as unknown])));
  }

  /**
   * Record a step's result, unless one is recorded already; answers the result that counts. With
   * `bound`, a result whose JSON is longer than `bound.characters` is not recorded: `bound.refuse()`
   * is thrown instead, and nothing is written.
   */
  async record<T>(taskId: string, step: string, result: T, bound?: JournalBound): Promise<T> {
    const [kept] = await this.recordAll(taskId, [{ step, result, bound }]);
    return kept as T;
  }

  /**
   * Record several steps' results at once, in one statement (one commit where there would be one a
   * step), each unless one is recorded already; answers the results that count (another replica's,
   * where it recorded the step first). A result whose JSON is longer than its bound's `characters`
   * records none of them: its `refuse()` is thrown instead.
   */
  async recordAll(taskId: string, results: readonly { step: string; result: unknown; bound?: JournalBound }[]): Promise<unknown[]> {
    return (
      await this.recordEncoded(
        taskId,
        results.map(({ step, result, bound }) => encodeStep(step, result, bound)),
      )
    ).values;
  }

  /**
   * `recordAll` for results already encoded (`encodeStep`): one statement inserting every row,
   * atomic by itself, one round trip on PostgreSQL where a transaction of several would take four.
   * Answers the results that count: ours where written, another replica's where it recorded first.
   */
  async recordEncoded(taskId: string, steps: readonly EncodedStep[]): Promise<{ values: unknown[]; written: ReadonlySet<string> }> {
    const values: Record<string, unknown> = { task_id: taskId, at: Date.now() };
    steps.forEach(({ step, json }, i) => {
      values[`step_${i}`] = step;
      values[`result_${i}`] = json;
    });
    const [{ rows }] = (await this.database.run([this.insertOf(steps.length)(values)], 'steps')) as [{ rows: { step: string }[] }];
    for (const { step } of steps) if (this.dieAfterStep === step) process.kill(process.pid, 'SIGKILL');
    const written = new Set(rows.map((row) => row.step));
    // A step not written was recorded first by another replica; its result is the one that counts.
    return {
      written,
      values: await Promise.all(steps.map(async ({ step, value }) => (written.has(step) ? value : await this.recorded(taskId, step)))),
    };
  }

  /** The statement inserting `rows` steps of one task, unless recorded already; built once per count. */
  private insertOf(rows: number): (values: Readonly<Record<string, unknown>>) => CompiledQuery {
    let insert = this.inserts.get(rows);
    if (insert === undefined) {
      const names = ['task_id', 'at', ...Array.from({ length: rows }, (_, i) => [`step_${i}`, `result_${i}`]).flat()];
      insert = compiledOnce(names, (value) =>
        this.db
          .insertInto('learnables_journal')
          .values(
            Array.from({ length: rows }, (_, i) => ({ task_id: value('task_id'), step: value(`step_${i}`), result: value(`result_${i}`), at: value('at') })),
          )
          .onConflict((oc) => oc.columns(['task_id', 'step']).doNothing())
          .returning('step'),
      );
      this.inserts.set(rows, insert);
    }
    return insert;
  }

  /**
   * The recorded result of one step for many tasks (e.g. each one's parsed input), read-only:
   * tasks that never recorded it are absent. Chunked to stay under drivers' parameter limits.
   */
  async recordedFor(taskIds: readonly string[], step: string): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for (const [taskId, text] of await this.recordedTextFor(taskIds, step)) out.set(taskId, JSON.parse(text) as unknown);
    return out;
  }

  /**
   * Each task's recorded result of one step as its stored JSON text, not parsed: for a reader that
   * parses a large one in pieces (preview), since one JSON.parse of a 1.46 MB sheet holds the event
   * loop for tens of milliseconds at least.
   */
  async recordedTextFor(taskIds: readonly string[], step: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let start = 0; start < taskIds.length; start += 1000) {
      const rows = await this.db
        .selectFrom('learnables_journal')
        .select(['task_id', 'result'])
        .where('step', '=', step)
        .where('task_id', 'in', taskIds.slice(start, start + 1000))
        .execute();
      for (const row of rows) out.set(row.task_id, row.result);
    }
    return out;
  }

  /**
   * How many bytes each task's recorded result of one step takes, without reading it (SQLite and
   * PostgreSQL both answer `octet_length` from the row's header): what preview reads by, so that it
   * never takes more of the journal into memory at once than its budget allows.
   */
  async sizesFor(taskIds: readonly string[], step: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let start = 0; start < taskIds.length; start += 1000) {
      const rows = await this.db
        .selectFrom('learnables_journal')
        .select(['task_id', sql<number>`octet_length(result)`.as('bytes')])
        .where('step', '=', step)
        .where('task_id', 'in', taskIds.slice(start, start + 1000))
        .execute();
      for (const row of rows) out.set(row.task_id, Number(row.bytes));
    }
    return out;
  }

  /**
   * What a person's answer made of each task's reading: the reading of its last `answer-N` step and
   * the one it was asked with (`read`), for the tasks that have one; read-only. Preview holds a
   * lesson to what people answered (SPEC §6.5). A task records one answer step that settles it.
   */
  async answersFor(taskIds: readonly string[]): Promise<Map<string, { asked: unknown; answered: unknown }>> {
    const answered = new Map<string, { n: number; result: unknown }>();
    for (let start = 0; start < taskIds.length; start += 1000) {
      const rows = await this.db
        .selectFrom('learnables_journal')
        .select(['task_id', 'step', 'result'])
        .where('step', 'like', 'answer-%')
        .where('task_id', 'in', taskIds.slice(start, start + 1000))
        .execute();
      for (const row of rows) {
        const n = /^answer-(\d+)$/.exec(row.step)?.[1];
        if (n === undefined) continue;
        const was = answered.get(row.task_id);
        if (was === undefined || was.n < Number(n)) answered.set(row.task_id, { n: Number(n), result: JSON.parse(row.result) as unknown });
      }
    }
    const asked = await this.recordedFor([...answered.keys()], 'read');
    const out = new Map<string, { asked: unknown; answered: unknown }>();
    for (const [taskId, { result }] of answered) out.set(taskId, { asked: asked.get(taskId), answered: result });
    return out;
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('learnables_journal')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

/** One task's journal, read once; steps not yet recorded are run and recorded. */
export class TaskJournal {
  constructor(
    private readonly journal: Journal,
    private readonly taskId: string,
    private readonly known: Map<string, unknown>,
  ) {}

  async step<T>(step: string, compute: () => Promise<T> | T, bound?: JournalBound): Promise<T> {
    if (this.known.has(step)) return this.known.get(step) as T;
    return inSpan('learnables.journal.step', { 'learnables.task_id': this.taskId, 'learnables.steps': [step] }, async () => {
      const result = await this.journal.record(this.taskId, step, await compute(), bound);
      this.known.set(step, result);
      return result;
    });
  }

  /**
   * Steps that end together: those not recorded yet are all started at once, in the order given,
   * and their results recorded in one commit, so a crash leaves either all of them or none.
   * (`togetherThen` adds a step made from their results to the same commit: a task's pin, parse and
   * reading.)
   */
  async together<T extends readonly unknown[]>(steps: { readonly [K in keyof T]: StepOf<T[K]> }): Promise<T> {
    return (await this.run(steps as readonly StepOf<unknown>[])).values as unknown as T;
  }

  /**
   * `together`, then `then` computed from their results (as recorded: what a replay reads) and
   * recorded in the same commit as those of them not recorded yet. Nothing of it is seen before
   * that commit, so a crash before it leaves none of them, and the task starts again as one that
   * had not begun deciding; after it, none is computed again. (A task's pin, parse and reading:
   * one commit where there were two; BENCHMARKS.md, runtime overhead.)
   */
  async togetherThen<T extends readonly unknown[], R>(steps: { readonly [K in keyof T]: StepOf<T[K]> }, then: ThenOf<T, R>): Promise<[T, R]> {
    const { values, last } = await this.run(steps as readonly StepOf<unknown>[], then as ThenOf<readonly unknown[], unknown>);
    return [values as unknown as T, last as R];
  }

  private async run(steps: readonly StepOf<unknown>[], then?: ThenOf<readonly unknown[], unknown>): Promise<{ values: unknown[]; last: unknown }> {
    const pending = steps.filter((step) => !this.known.has(step.name));
    if (pending.length === 0 && (then === undefined || this.known.has(then.name))) return this.runSteps(steps, pending, then);
    const names = [...pending.map((step) => step.name), ...(then !== undefined && !this.known.has(then.name) ? [then.name] : [])];
    return inSpan('learnables.journal.step', { 'learnables.task_id': this.taskId, 'learnables.steps': names }, () => this.runSteps(steps, pending, then));
  }

  private async runSteps(
    steps: readonly StepOf<unknown>[],
    pending: readonly StepOf<unknown>[],
    then?: ThenOf<readonly unknown[], unknown>,
  ): Promise<{ values: unknown[]; last: unknown }> {
    const encoded: EncodedStep[] = [];
    if (pending.length > 0) {
      // Each one's failure, thrown at once or later, is the whole call's: none is left unheard.
      const computed = await Promise.all(pending.map(async (step) => step.compute()));
      this.journal.reached(`computed:${pending.map((step) => step.name).join('+')}`);
      // Encoded (and bounded) now: a result too large to keep refuses the task before `then` runs.
      for (const [i, step] of pending.entries()) encoded.push(encodeStep(step.name, computed[i], step.bound));
    }
    const stepValue = (name: string): unknown => {
      const mine = encoded.find((one) => one.step === name);
      return mine === undefined ? this.known.get(name) : mine.value;
    };
    if (then !== undefined && !this.known.has(then.name)) {
      // `then` reads what was computed as the journal will give it back on a replay.
      const result = await then.compute(steps.map((step) => stepValue(step.name)));
      this.journal.reached(`computed:${[...pending, then].map((step) => step.name).join('+')}`);
      encoded.push(encodeStep(then.name, result, then.bound));
    }
    if (encoded.length > 0) {
      const recorded = await this.journal.recordEncoded(this.taskId, encoded);
      // Another replica recording the same task records the same steps in one statement, so ours
      // are all written or none. Some but not all only beside a journal of an older version that
      // recorded these steps apart, at the same moment: `then` would not rest on what is recorded.
      if (then !== undefined && recorded.written.size > 0 && recorded.written.size < encoded.length) {
        throw new Error(`Task ${this.taskId} was recorded by another replica at the same moment, in part; it is not decided twice.`);
      }
      for (const [i, one] of encoded.entries()) this.known.set(one.step, recorded.values[i]);
    }
    return { values: steps.map((step) => this.known.get(step.name)), last: then === undefined ? undefined : this.known.get(then.name) };
  }
}

/** A step computed from the results of `TaskJournal.togetherThen`'s steps. */
export interface ThenOf<T extends readonly unknown[], R> {
  readonly name: string;
  readonly compute: (results: T) => Promise<R> | R;
  readonly bound?: JournalBound;
}

/** A step for `TaskJournal.together` and `togetherThen`. */
export interface StepOf<T> {
  readonly name: string;
  readonly compute: () => Promise<T> | T;
  readonly bound?: JournalBound;
}
