import type { TaskStore, User } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import type { AuthorityClient } from '@learnables/authority';
import type { CorrectionOutcome, OutcomeData } from '@learnables/protocol';
import { CorrectionSchema, LEARNABLES_URI, OutcomeSchema, explainInvalid } from '@learnables/protocol';
import { contextFor } from '../a2a/recover-tasks.ts';
import type { CorrectionRecord, Corrections, Decided } from '../storage/corrections.ts';
import { CorrectionRaced, CorrectionsFull, MOST_CORRECTIONS } from '../storage/corrections.ts';
import { ANONYMOUS_OWNER } from '../storage/task-ledger.ts';
import { MethodRefused } from './method-refused.ts';

export interface CorrectDeps {
  readonly authority: AuthorityClient;
  readonly taskStore: TaskStore;
  readonly corrections: Corrections;
}

const unknownTask = (taskId: string) => new MethodRefused(404, { error: 'unknown-task', message: `There is no task "${taskId}" that you can read.` });

/** The caller's completed task and the Outcome its status message carries (SPEC §4.4); refused otherwise. */
async function decidedTask(deps: CorrectDeps, taskId: string, user: User, tenant: string | undefined): Promise<OutcomeData> {
  // Only the caller's own tasks: any other is answered as if it did not exist (§6.6).
  const task = await deps.taskStore.load(taskId, contextFor(tenant ?? '', user.userName || ANONYMOUS_OWNER));
  if (!task) throw unknownTask(taskId);
  const outcome = OutcomeSchema.safeParse(task.status?.message?.metadata?.[LEARNABLES_URI]);
  if (task.status?.state !== TaskState.TASK_STATE_COMPLETED || !outcome.success) {
    const waiting = task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    throw new MethodRefused(409, {
      error: 'not-correctable',
      message: waiting
        ? 'This task is still waiting for an answer; answer its question instead. Only a decided task can be corrected.'
        : 'This task decided nothing (it failed or was canceled), so there is no decision to correct.',
    });
  }
  return outcome.data;
}

/**
 * What the correction names, as the finding's collection knows it. A finding that named an entry of
 * its collection (its winner is one, in the version it was decided with or the one active now), or
 * a task that completed with "none", is corrected only to an entry that exists now, by key or label.
 * One whose winner is not an entry (a verdict, a column) or that names none takes the value in words.
 */
async function correctedTo(deps: CorrectDeps, collection: string, decided: Decided, pinned: number | undefined, said: string): Promise<string> {
  const active = await deps.authority.active(collection);
  const live = await deps.authority.definition(collection, active.version);
  const winner = decided.winner;
  const wasEntry =
    decided.none === true ||
    (winner !== undefined &&
      (live.entries.some((entry) => entry.key === winner) ||
        (pinned !== undefined &&
          pinned !== active.version &&
          (await deps.authority.definition(collection, pinned)).entries.some((entry) => entry.key === winner))));
  if (!wasEntry) return said;
  const lower = said.toLowerCase();
  const found = live.entries.find((entry) => entry.key === said) ?? live.entries.find((entry) => entry.label.trim().toLowerCase() === lower);
  if (found) return found.key;
  throw new MethodRefused(404, {
    error: 'unknown-entry',
    message: `"${said}" is not one of the ${collection} now; name one of them (by its key or name), or correct it to none.`,
    known: live.entries.map((entry) => entry.key),
  });
}

const outcomeOf = (record: CorrectionRecord, changed: boolean, count: number): CorrectionOutcome => ({
  taskId: record.taskId,
  finding: record.finding,
  decided: record.decided,
  ...(record.entry !== undefined && { entry: record.entry }),
  ...(record.none && { none: true }),
  changed,
  correctedBy: record.correctedBy,
  reason: record.reason,
  at: new Date(record.at).toISOString(),
  corrections: count,
});

/**
 * Correct: a person says a completed task's decision was wrong and what it should have been. It is
 * recorded beside the task with author, reason and the authenticated client; the task's pinned
 * reading, its journal and its outcome are left as they were decided, and no definition changes.
 */
export async function correct(deps: CorrectDeps, params: unknown, user: User, tenant: string | undefined): Promise<CorrectionOutcome> {
  if (!user.isAuthenticated) {
    throw new MethodRefused(401, {
      error: 'unauthorized',
      message: 'Correcting a decision of this agent needs a bearer token it accepts; nothing was written.',
    });
  }
  const parsed = CorrectionSchema.safeParse(params);
  if (!parsed.success) throw new MethodRefused(400, { error: 'malformed', message: `That correction cannot be read: ${explainInvalid(parsed.error)}.` });
  const asked = parsed.data;
  const outcome = await decidedTask(deps, asked.taskId, user, tenant);
  const names = Object.keys(outcome.findings);
  const name = asked.finding ?? (names.length === 1 ? names[0] : undefined);
  const finding = name !== undefined && Object.hasOwn(outcome.findings, name) ? outcome.findings[name] : undefined;
  if (name === undefined || finding === undefined) {
    throw new MethodRefused(400, {
      error: 'malformed',
      field: 'finding',
      message:
        asked.finding === undefined
          ? `This task decided ${names.length} things (${names.join(', ')}); say which one was wrong.`
          : `This task decided no "${asked.finding}"; it decided ${names.join(', ')}.`,
    });
  }
  const decided: Decided = {
    ...(finding.winner !== undefined && { winner: finding.winner }),
    ...(outcome.none && { none: true as const }),
    reads: finding.reads,
  };
  const entry =
    asked.entry !== undefined
      ? await correctedTo(
          deps,
          finding.collection,
          decided,
          Object.hasOwn(outcome.versions, finding.collection) ? outcome.versions[finding.collection] : undefined,
          asked.entry,
        )
      : undefined;
  const record: CorrectionRecord = {
    taskId: asked.taskId,
    finding: name,
    decided,
    ...(entry !== undefined && { entry }),
    ...(asked.none && { none: true as const }),
    correctedBy: asked.correctedBy,
    reason: asked.reason,
    client: user.userName,
    at: Date.now(),
  };
  try {
    const { changed, standing, count } = await deps.corrections.record(record);
    return outcomeOf(standing, changed, count);
  } catch (error) {
    if (error instanceof CorrectionRaced) {
      throw new MethodRefused(409, {
        error: 'conflict',
        message: 'Someone corrected this decision at the same moment; look at the task again before correcting it.',
      });
    }
    if (error instanceof CorrectionsFull) {
      throw new MethodRefused(409, {
        error: 'not-correctable',
        message: `This decision has been corrected ${MOST_CORRECTIONS} times already, the most one decision takes; nothing was written. Settle it among the people correcting it, then teach or take back a lesson instead.`,
      });
    }
    throw error;
  }
}

/** Corrections: what a task's decisions were corrected to, oldest first. Read-only; the caller's own tasks only. */
export async function corrections(
  deps: CorrectDeps,
  params: unknown,
  user: User,
  tenant: string | undefined,
): Promise<{ taskId: string; corrections: CorrectionOutcome[] }> {
  const taskId = (params as { taskId?: unknown } | null)?.taskId;
  if (typeof taskId !== 'string' || taskId.trim() === '') {
    throw new MethodRefused(400, { error: 'malformed', field: 'taskId', message: 'Corrections are read for one task: send its taskId.' });
  }
  const task = await deps.taskStore.load(taskId, contextFor(tenant ?? '', user.userName || ANONYMOUS_OWNER));
  if (!task) throw unknownTask(taskId);
  const records = await deps.corrections.of(taskId);
  const counts = new Map<string, number>();
  return {
    taskId,
    corrections: records.map((record) => {
      const count = (counts.get(record.finding) ?? 0) + 1;
      counts.set(record.finding, count);
      return outcomeOf(record, true, count);
    }),
  };
}
