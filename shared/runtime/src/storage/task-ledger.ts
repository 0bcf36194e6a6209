import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import { MESSAGE_DATE_AHEAD_MS, plausibleMessageDate } from '@learnables/protocol';
import { compiledOnce } from './compiled-once.ts';
import type { RuntimeDatabase } from './open-database.ts';
import type { RuntimeTables } from './tables.ts';

export interface LedgerEntry {
  readonly taskId: string;
  readonly tenant: string;
  readonly owner: string;
}

/** A task the ledger found running: its row, and the task as it opened when the SDK's table does not hold it yet. */
export interface UnfinishedEntry extends LedgerEntry {
  /** The SDK's JSON of the task as it opened (`TaskWrites.open` for a task seen only at rest). */
  readonly opening?: string;
}

export interface PeriodCount {
  /** `2026-10-05` for a day, or the Monday of the week for a week (ISO weeks). */
  readonly period: string;
  readonly messages: number;
  readonly questions: number;
  readonly questionsPer100: number;
  /** Decisions on this period's messages that stand corrected now (SPEC §6.7), one per task. */
  readonly corrected: number;
  /** Of those, the ones the agent decided without asking. */
  readonly correctedUnasked: number;
}

/** Where a task can come to rest: a question, a decision, a failure. */
export type RestingState = 'asking' | 'done' | 'failed';

const DAY = 86_400_000;

/** The owner the SDK's task store gives every anonymous caller's tasks (its `resolveUserScope`). */
export const ANONYMOUS_OWNER = 'unknown';

/** The first instant of a day number from the database, within the dates a Date can hold (1970 if not). */
const dayStart = (day: number): number => (Number.isFinite(day) && Math.abs(day * DAY) <= 8.64e15 ? Math.floor(day) * DAY : 0);

/** The first instant of the period a moment falls in (UTC days; weeks start on Monday). */
function periodStart(at: number, by: 'day' | 'week'): number {
  const day = Math.floor(at / DAY) * DAY;
  if (by === 'day') return day;
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return day - weekday * DAY;
}

/** The values of a ledger row a task opens with (`TaskLedger.open`). */
export const OPEN_VALUES = ['task_id', 'agent', 'tenant', 'owner', 'message_at', 'created_at', 'opening'] as const;
/** The values a task comes to rest with, without and with the message's own date (`TaskLedger.settle`). */
export const SETTLE_VALUES = ['task_id', 'state', 'asked'] as const;
export const SETTLE_DATED_VALUES = [...SETTLE_VALUES, 'message_at'] as const;

type Placeholder<Name extends string> = (name: Name) => never;

/** The ledger row a task opens with; a second open of the same task changes nothing. Shared with `TaskWrites`. */
export const openRow = (db: Kysely<RuntimeTables>, value: Placeholder<(typeof OPEN_VALUES)[number]>) =>
  db
    .insertInto('learnables_tasks')
    .values({
      task_id: value('task_id'),
      agent: value('agent'),
      tenant: value('tenant'),
      owner: value('owner'),
      message_at: value('message_at'),
      asked: 0,
      state: 'running',
      created_at: value('created_at'),
      opening: value('opening'),
    })
    .onConflict((oc) => oc.column('task_id').doNothing());

/**
 * Where a task came to rest. `asked` is 1 once it has asked (it stays 1); the message's own date
 * is believed only from an authenticated sender (see `TaskLedger.settle`). Shared with `TaskWrites`.
 */
export const settleRow = (db: Kysely<RuntimeTables>, value: Placeholder<(typeof SETTLE_DATED_VALUES)[number]>, dated: boolean) =>
  db
    .updateTable('learnables_tasks')
    .set((eb) => ({
      state: value('state'),
      // At rest the SDK's table holds the task (the same transaction writes it): the opening kept
      // for a restart is not needed any more.
      opening: null,
      asked: sql<number>`case when ${value('asked')} = 1 then 1 else ${eb.ref('asked')} end`,
      ...(dated && { message_at: eb.case().when('owner', '=', ANONYMOUS_OWNER).then(eb.ref('message_at')).else(value('message_at')).end() }),
    }))
    .where('task_id', '=', value('task_id'));

/** The values of `settleRow` for a task and where it came to rest. */
export const settleValues = (taskId: string, state: RestingState, messageAt?: number): SettleValues =>
  messageAt === undefined
    ? { dated: false, values: { task_id: taskId, state, asked: state === 'asking' ? 1 : 0 } }
    : { dated: true, values: { task_id: taskId, state, asked: state === 'asking' ? 1 : 0, message_at: messageAt } };

type SettleValues =
  | { readonly dated: false; readonly values: Readonly<Record<(typeof SETTLE_VALUES)[number], unknown>> }
  | { readonly dated: true; readonly values: Readonly<Record<(typeof SETTLE_DATED_VALUES)[number], unknown>> };

/**
 * Which tasks this agent started, who owns them, the message's own date and whether the agent
 * asked. It finds tasks to resume after a restart, and counts questions per 100 messages.
 */
export class TaskLedger {
  /** Where tasks have come to rest, not yet recorded: the task store must hold it first (see `settleWhenStored`). */
  private readonly resting = new Map<string, { state: RestingState; messageAt: number | undefined }>();
  private written = 0;

  /** The statements every task runs, built once (see `compiledOnce`). */
  private readonly statements: {
    readonly open: (values: Readonly<Record<(typeof OPEN_VALUES)[number], unknown>>) => CompiledQuery;
    readonly resume: (values: Readonly<Record<'task_id', unknown>>) => CompiledQuery;
    readonly settle: (values: Readonly<Record<(typeof SETTLE_VALUES)[number], unknown>>) => CompiledQuery;
    readonly settleDated: (values: Readonly<Record<(typeof SETTLE_DATED_VALUES)[number], unknown>>) => CompiledQuery;
  };

  private readonly db: Kysely<RuntimeTables>;

  constructor(
    /** A task's row is opened through `db`; its later states are written through `steps` (`RuntimeDatabase.steps`). */
    private readonly database: Pick<RuntimeDatabase, 'db' | 'steps' | 'run'>,
    readonly agent: string,
  ) {
    const db = database.db;
    const steps = database.steps;
    this.db = db;
    this.statements = {
      open: compiledOnce(OPEN_VALUES, (value) => openRow(db, value)),
      resume: compiledOnce(['task_id'], (value) => steps.updateTable('learnables_tasks').set({ state: 'running' }).where('task_id', '=', value('task_id'))),
      settle: compiledOnce(SETTLE_VALUES, (value) => settleRow(steps, value as Placeholder<(typeof SETTLE_DATED_VALUES)[number]>, false)),
      settleDated: compiledOnce(SETTLE_DATED_VALUES, (value) => settleRow(steps, value, true)),
    };
  }

  /**
   * Record where a task came to rest once the task store holds that state (`takeRest`), not before:
   * a process killed in between leaves the task `running` here, so it is resumed on the next start
   * (replaying its journal) instead of staying "working" in the store with nobody to finish it.
   */
  settleWhenStored(taskId: string, state: RestingState, messageAt?: number): void {
    // A date no message can have (before 1970, over a year ahead: plausibleMessageDate) is not recorded;
    // the task counts on the day it arrived, as one without a date does.
    this.resting.set(taskId, { state, messageAt: messageAt !== undefined && plausibleMessageDate(messageAt) ? messageAt : undefined });
  }

  /** How many times this process has written the ledger: the numbers computed before are stale after. */
  get writes(): number {
    return this.written;
  }

  /** A write of the ledger has committed (this class's own, or `TaskWrites`' beside a task's save). */
  touched(): void {
    this.written += 1;
  }

  /**
   * The rest a task is waiting for, if the task store is saving it in that state now: taken, so the
   * store records it in the same transaction as the save (`TaskWrites.save`).
   */
  takeRest(taskId: string, state: RestingState | undefined): { state: RestingState; messageAt: number | undefined } | undefined {
    const rest = this.resting.get(taskId);
    if (rest === undefined || rest.state !== state) return undefined;
    this.resting.delete(taskId);
    return rest;
  }

  /**
   * The values of a task's opening row (`openRow`); `opening`, the task as it opened, only when the
   * SDK's table gets no row for it before it rests (`TaskWrites.open`).
   */
  openValues(entry: LedgerEntry & { messageAt: number; opening?: string }) {
    return {
      task_id: entry.taskId,
      agent: this.agent,
      tenant: entry.tenant,
      owner: entry.owner,
      message_at: entry.messageAt,
      created_at: Date.now(),
      opening: entry.opening ?? null,
    };
  }

  /** The statement of a task's opening row, to run alone (`open`) or beside the task's first save (`TaskWrites`). */
  openStatement(entry: LedgerEntry & { messageAt: number; opening?: string }): CompiledQuery {
    return this.statements.open(this.openValues(entry));
  }

  /** The statement recording where a task came to rest, to run alone (`settle`) or beside its resting save (`TaskWrites`). */
  settleStatement(taskId: string, state: RestingState, messageAt?: number): CompiledQuery {
    const settle = settleValues(taskId, state, messageAt);
    return settle.dated ? this.statements.settleDated(settle.values) : this.statements.settle(settle.values);
  }

  async open(entry: LedgerEntry & { messageAt: number }): Promise<void> {
    await this.database.run([this.openStatement(entry)]);
    this.touched();
  }

  /** A task is being worked on again (a follow-up arrived): resume it if the process stops. */
  async resume(taskId: string): Promise<void> {
    await this.database.run([this.statements.resume({ task_id: taskId })], 'steps');
    this.touched();
  }

  /**
   * Record where a task came to rest. `messageAt` is the date the message claims for itself; it
   * is believed only from an authenticated sender: an anonymous one could put its messages in any
   * week of the numbers, so its tasks stay counted when they arrived.
   */
  async settle(taskId: string, state: RestingState, messageAt?: number): Promise<void> {
    const dated = messageAt !== undefined && plausibleMessageDate(messageAt) ? messageAt : undefined;
    await this.database.run([this.settleStatement(taskId, state, dated)], 'steps');
    this.touched();
  }

  /** Tasks that were running when the process stopped: they are to be resumed. */
  async unfinished(): Promise<UnfinishedEntry[]> {
    const rows = await this.db
      .selectFrom('learnables_tasks')
      .select(['task_id', 'tenant', 'owner', 'opening'])
      .where('agent', '=', this.agent)
      // A literal, not a parameter: the index on running rows (`state = 'running'`) serves only a
      // query whose condition is that one, as its statement is planned.
      .where('state', '=', sql.lit('running'))
      .execute();
    return rows.map((row) => ({ taskId: row.task_id, tenant: row.tenant, owner: row.owner, ...(row.opening !== null && { opening: row.opening }) }));
  }

  async totals(): Promise<{ messages: number; questions: number }> {
    const row = await this.db
      .selectFrom('learnables_tasks')
      .select((eb) => [eb.fn.countAll().as('messages'), eb.fn.sum<number>('asked').as('questions')])
      .where('agent', '=', this.agent)
      .executeTakeFirst();
    return { messages: Number(row?.messages ?? 0), questions: Number(row?.questions ?? 0) };
  }

  /**
   * Questions per 100 messages, by the messages' own dates, and how many of each period's
   * decisions stand corrected (`corrected`: the task ids that do, from `Corrections.standing`).
   * Counted by day in the database (one row a day comes back, not one a task), and whatever a row
   * holds: a date no message can have (written before dates were checked where they enter, e.g.
   * `-271821-04-20`) counts on the day the task arrived, as `plausibleMessageDate` would have had it.
   */
  async byPeriod(by: 'day' | 'week', corrected: ReadonlySet<string> = new Set()): Promise<PeriodCount[]> {
    // Literals, not parameters: the expression is grouped by, and must read the same in both places.
    const day = sql<number>`(case when message_at >= 0 and message_at <= created_at + ${sql.lit(MESSAGE_DATE_AHEAD_MS)} then message_at else created_at end) / ${sql.lit(DAY)}`;
    const rows = await this.db
      .selectFrom('learnables_tasks')
      .select((eb) => [day.as('day'), eb.fn.countAll().as('messages'), eb.fn.sum<number>('asked').as('questions')])
      .where('agent', '=', this.agent)
      .groupBy(day)
      .execute();
    const periods = new Map<number, { messages: number; questions: number; corrected: number; correctedUnasked: number }>();
    const countOf = (dayNumber: number) => {
      const start = periodStart(dayStart(dayNumber), by);
      const count = periods.get(start) ?? { messages: 0, questions: 0, corrected: 0, correctedUnasked: 0 };
      periods.set(start, count);
      return count;
    };
    for (const row of rows) {
      const count = countOf(Number(row.day));
      count.messages += Number(row.messages);
      count.questions += Number(row.questions ?? 0);
    }
    // The corrected tasks are few (people correct them one at a time): their days, looked up by id.
    const ids = [...corrected];
    for (let start = 0; start < ids.length; start += 1000) {
      const found = await this.db
        .selectFrom('learnables_tasks')
        .select([day.as('day'), 'asked'])
        .where('agent', '=', this.agent)
        .where('task_id', 'in', ids.slice(start, start + 1000))
        .execute();
      for (const row of found) {
        const count = countOf(Number(row.day));
        count.corrected += 1;
        if (Number(row.asked) === 0) count.correctedUnasked += 1;
      }
    }
    return [...periods]
      .filter(([, count]) => count.messages > 0)
      .sort(([a], [b]) => a - b)
      .map(([start, count]) => ({
        period: new Date(start).toISOString().slice(0, 10),
        messages: count.messages,
        questions: count.questions,
        questionsPer100: Math.round((count.questions / count.messages) * 1000) / 10,
        corrected: count.corrected,
        correctedUnasked: count.correctedUnasked,
      }));
  }

  /** Whether the agent asked on this task (undefined: not a task of this agent). */
  async asked(taskId: string): Promise<boolean | undefined> {
    const row = await this.db.selectFrom('learnables_tasks').select('asked').where('task_id', '=', taskId).where('agent', '=', this.agent).executeTakeFirst();
    return row === undefined ? undefined : Number(row.asked) === 1;
  }

  /**
   * The newest tasks of one owner started since a moment, newest first, at most `limit`: what
   * preview re-reads. Read-only.
   */
  async recent(scope: { tenant: string; owner: string }, since: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('learnables_tasks')
      .select('task_id')
      .where('agent', '=', this.agent)
      .where('tenant', '=', scope.tenant)
      .where('owner', '=', scope.owner)
      .where('created_at', '>=', since)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.task_id);
  }

  /**
   * This agent's most recent task ids of every scope, newest first: what preview's memory is filled
   * with ahead of the first preview. The ids are only keys there; each preview still asks `recent`
   * for the caller's own tasks.
   */
  async recentOfAll(since: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('learnables_tasks')
      .select('task_id')
      .where('agent', '=', this.agent)
      .where('created_at', '>=', since)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.task_id);
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('learnables_tasks').select(sql<number>`count(*)`.as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
