import type { Message, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { AgentEvent } from '@a2a-js/sdk/server';
import { AuthorityRefused, AuthorityUnavailable } from '@learnables/authority';
import type { AuthorityClient, Logger } from '@learnables/authority';
import type { AgentMetrics, FailureCause } from '../http/agent-metrics.ts';
import { InputRefused } from '../learnable-agent.ts';
import type { LearnableAgent } from '../learnable-agent.ts';
import type { InputReader } from '../parsing/input-reader.ts';
import { ParseTicket } from '../parsing/input-reader.ts';
import type { Journal } from '../storage/journal.ts';
import type { KeptInput } from '../storage/kept-input.ts';
import { keptTask } from '../storage/kept-input.ts';
import type { TaskLedger } from '../storage/task-ledger.ts';
import type { RuntimeTaskStore } from '../storage/ledger-task-store.ts';
import { foreground } from '../background-turn.ts';
import { advanceTask, pinFields } from './advance-task.ts';
import type { Outcome } from './outcome.ts';
import { failureOf, outcomeOf, restedTask } from './outcome.ts';

export interface ExecutorDeps<Input, Result> {
  readonly agent: LearnableAgent<Input, Result>;
  readonly journal: Journal;
  readonly ledger: TaskLedger;
  /** Where the SDK keeps tasks; a new task is saved here, with its ledger row, before any of its steps runs. */
  readonly taskStore: RuntimeTaskStore;
  readonly authority: AuthorityClient;
  readonly reader: Pick<InputReader<Input>, 'parse'>;
  readonly kept: KeptInput;
  /** The agent's logger; each task's lines go through a child with its taskId and contextId (and pins, once known). */
  readonly logger: Logger;
  /** This instance's counters; none counts nothing (recovery at start-up counts as the live path does). */
  readonly metrics?: AgentMetrics;
  /** See AdvanceDeps.strict. */
  readonly strict?: boolean;
}

const now = () => new Date().toISOString();

/** Where the call context carries the parse ticket of the request that brought the message (start-agent's context builder). */
export const PARSE_TICKET = 'learnables-runtime/parse-ticket';

/** Where the call context says the request is a send that asked for no stream (start-agent's context builder). */
export const PLAIN_SEND = 'learnables-runtime/plain-send';

/**
 * Whether nobody hears of this new task before it rests: a send that asked for no stream, to be
 * answered when the task rests (not at once), with no push notifications. Its opening then need
 * not wait for the disk: the resting save does, and PostgreSQL writes its log in order, so that
 * wait makes the opening durable before the answer (the only time anyone learns the task's id).
 * Nor does the task store need its row before then: the ledger's row keeps the task for a restart
 * (TaskWrites.open), and the row is written once, at rest.
 */
function seenOnlyAtRest(context: RequestContext): boolean {
  const configuration = context.request.configuration;
  return context.context.state.get(PLAIN_SEND) === true && configuration?.returnImmediately !== true && configuration?.taskPushNotificationConfig === undefined;
}

/** Why a task failed, for the metrics. */
function causeOf(error: unknown): FailureCause {
  if (error instanceof InputRefused) return 'input-refused';
  if (error instanceof AuthorityUnavailable) return 'authority-unavailable';
  if (error instanceof AuthorityRefused) return 'authority-refused';
  return 'internal';
}

/** A sentence for what went wrong, for the person waiting on the task. */
function explainFailure(error: unknown): string {
  if (error instanceof InputRefused) return error.message;
  if (error instanceof AuthorityUnavailable) {
    return 'The authority that holds what this agent has learned cannot be reached, so it cannot tell which rules are in force. Nothing was decided; send the message again once it is back.';
  }
  if (error instanceof AuthorityRefused) return `The authority refused to say which rules are in force: ${error.message}`;
  return 'The agent failed while reading this message; nothing was decided. The agent keeps serving; see its log for the cause.';
}

/**
 * Run a task from its history to its next resting state (a question, an answer or a failure).
 * Used both by the live executor and by recovery after a restart. The ledger records the rest only
 * when the task store has saved it (LedgerTaskStore), so a crash in between is resumed.
 */
export async function settleTask<Input, Result>(
  deps: ExecutorDeps<Input, Result>,
  taskId: string,
  contextId: string,
  history: readonly Message[],
  options: { fresh?: boolean; ticket?: ParseTicket } = {},
): Promise<Outcome> {
  const started = performance.now();
  const taskLog = deps.logger.child({ taskId, contextId });
  const took = () => (performance.now() - started) / 1000;
  try {
    const advanced = await advanceTask({ ...deps, logger: taskLog }, taskId, history, options);
    const pinnedLog = taskLog.child(pinFields(advanced.pins));
    // Completed, its settling step journaled: the only moment the agent may remember it (never
    // while reading, which reread and preview do too).
    if (advanced.reading.settled && deps.agent.completed !== undefined) {
      try {
        deps.agent.completed(advanced.input, advanced.reading.result);
      } catch (error) {
        pinnedLog.error({ err: error }, 'the agent failed to note its completion');
      }
    }
    const date = deps.agent.dateOf?.(advanced.input);
    deps.ledger.settleWhenStored(taskId, advanced.reading.settled ? 'done' : 'asking', date && !Number.isNaN(date.getTime()) ? date.getTime() : undefined);
    const outcome = outcomeOf(taskId, contextId, advanced, deps.agent.summarize?.(advanced.input));
    if (advanced.reading.settled) {
      const decidedBy = advanced.answered ? 'operator' : 'rules';
      deps.metrics?.decisions.inc({ decided_by: decidedBy });
      deps.metrics?.decisionDuration.observe({ outcome: 'decided' }, took());
      pinnedLog.info({ outcome: 'decided', decidedBy }, 'task decided');
    } else {
      // A question counts once, on the message that opened the task (an answer asked again is not a new question).
      if (options.fresh) deps.metrics?.questions.inc({ collection: advanced.reading.question.collection });
      deps.metrics?.decisionDuration.observe({ outcome: 'asked' }, took());
      pinnedLog.info({ outcome: 'asked', asking: advanced.reading.question.collection }, 'task asks a person');
    }
    return outcome;
  } catch (error) {
    const cause = causeOf(error);
    deps.metrics?.failures.inc({ cause });
    deps.metrics?.decisionDuration.observe({ outcome: 'failed' }, took());
    // A refused input is the sender's to fix (said to them in the task), not the operator's: info, without a stack.
    if (error instanceof InputRefused) taskLog.info({ outcome: 'failed', cause, reason: error.message }, 'task refused its input');
    else taskLog.error({ outcome: 'failed', cause, err: error }, 'task failed');
    deps.ledger.settleWhenStored(taskId, 'failed');
    return failureOf(taskId, contextId, explainFailure(error));
  }
}

/**
 * The AgentExecutor every learnable agent runs on: it records the task, advances it through
 * the journal and publishes the outcome. Answering a question writes nothing to the authority.
 */
export class LearnablesExecutor<Input, Result> implements AgentExecutor {
  constructor(private readonly deps: ExecutorDeps<Input, Result>) {}

  execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    // Foreground: an agent's background catching up waits for a pause in it (backgroundTurn).
    return foreground(() => this.advance(context, bus));
  }

  private async advance(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    const task: Task = context.task ?? {
      id: taskId,
      contextId,
      artifacts: [],
      history: [userMessage],
      metadata: {},
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
    };
    // In the ledger and in the task store, in one transaction, before any step runs: a process
    // killed at any point after this leaves a running row and a stored task, which the next start
    // resumes; killed before, it leaves neither (nobody saw the task).
    // (The SDK would save the task only when it gets to the first event, after steps may have run.)
    // (A task nobody hears of before it rests is opened in the ledger alone, the task kept in its
    // row, without waiting for the disk; the task store gets it at rest: seenOnlyAtRest, TaskWrites.open.)
    const quiet = !context.task && seenOnlyAtRest(context);
    if (context.task) this.deps.metrics?.answers.inc();
    else this.deps.metrics?.messages.inc();
    if (context.task) await this.deps.ledger.resume(taskId);
    else await this.deps.taskStore.open(task, context.context, { taskId, messageAt: Date.now() }, { seenOnlyAtRest: quiet });
    // The task as it is kept: the message as the task keeps it (a large part as its digest), so the
    // SDK neither copies the whole message again nor echoes it back; the parse reads `task`.
    const kept = keptTask(task, this.deps.kept.message);
    const ticket = context.context.state.get(PARSE_TICKET);
    const settle = () => settleTask(this.deps, taskId, contextId, task.history, { fresh: !context.task, ...(ticket instanceof ParseTicket && { ticket }) });
    if (quiet) {
      // Nobody can see this task before it rests (no stream, no answer at once, no push, no row in
      // the task store until then), so it is published once, as it rests: the one event the SDK
      // turns into the same task as the four below (restedTask), at a quarter of its handling
      // (each event is a load, a merge and a save of the task; about a tenth of the agent's CPU a
      // message, BENCHMARKS.md, runtime overhead). `one-event.test.ts` holds the two paths alike.
      const outcome = await settle();
      this.deps.journal.reached('decided');
      bus.publish(AgentEvent.task(restedTask(kept, outcome, now())));
      bus.finished();
      return;
    }
    // The first event must be the task itself, on follow-ups too (republished as loaded, so its
    // history is kept).
    bus.publish(AgentEvent.task(kept));
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: undefined,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
      }),
    );
    const outcome = await settle();
    this.deps.journal.reached('decided');
    if (outcome.artifact) {
      bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, append: false, lastChunk: true, metadata: undefined, artifact: outcome.artifact }));
    }
    bus.publish(
      AgentEvent.statusUpdate({ taskId, contextId, metadata: undefined, status: { state: outcome.state, message: outcome.message, timestamp: now() } }),
    );
    bus.finished();
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    await this.deps.ledger.settle(taskId, 'failed');
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        metadata: undefined,
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
      }),
    );
  }
}
