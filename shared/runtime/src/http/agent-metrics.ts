import type { Counter, Histogram } from 'prom-client';
import { ServiceMetrics } from '@learnables/authority';

/** How long a message's reading took, from its task's start to its rest: a list of fields to a large file. */
const DECISION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Why a task failed, as `learnables_tasks_failed_total{cause}` says it. */
export type FailureCause = 'input-refused' | 'authority-unavailable' | 'authority-refused' | 'internal';

/**
 * An agent's Prometheus series, counted by this process alone: replicas sharing one database
 * each count their own, so `sum()` across them is the whole (the counts of the shared database,
 * per 100 messages and by week, stay on /learnables/stats). Questions per 100 messages is PromQL's
 * to compute (docs/prometheus-rules.yml). docs/operations.md lists every series.
 */
export class AgentMetrics {
  readonly service: ServiceMetrics;
  readonly messages: Counter;
  readonly answers: Counter;
  readonly questions: Counter<'collection'>;
  readonly decisions: Counter<'decided_by'>;
  readonly failures: Counter<'cause'>;
  readonly refusals: Counter<'reason'>;
  readonly busy: Counter<'binding'>;
  readonly corrections: Counter;
  readonly decisionDuration: Histogram<'outcome'>;

  constructor(agentName: string, skillId: string) {
    this.service = new ServiceMetrics(agentName, { agent: skillId });
    const s = this.service;
    this.messages = s.counter('learnables_messages_total', 'Messages this instance took as new tasks (answers to its questions are learnables_answers_total).');
    this.answers = s.counter('learnables_answers_total', 'Messages this instance took that answer a question of a task it asked.');
    this.questions = s.counter('learnables_questions_total', 'New tasks on which this instance had to ask a person, by the collection asked about.', [
      'collection',
    ]);
    this.decisions = s.counter(
      'learnables_decisions_total',
      'Tasks this instance decided, by who decided: rules (what was taught) or operator (an answer to its question).',
      ['decided_by'],
    );
    this.failures = s.counter('learnables_tasks_failed_total', 'Tasks that failed on this instance, by cause.', ['cause']);
    this.refusals = s.counter(
      'learnables_refusals_total',
      'Requests this instance refused with a Refusal, by its error code (SPEC §3.4): unauthorized, busy, malformed, too-large, ….',
      ['reason'],
    );
    this.busy = s.counter('learnables_busy_total', 'Messages answered busy (HTTP 503, Retry-After) before anything was stored, by binding.', ['binding']);
    this.corrections = s.counter(
      'learnables_corrections_total',
      'Corrections of decided tasks this instance recorded (learnables/correct that changed something; SPEC §6.7).',
    );
    this.decisionDuration = s.histogram(
      'learnables_decision_duration_seconds',
      "Time from a message's task starting to its rest on this instance (pin, parse, read, answers), by outcome: decided, asked or failed.",
      DECISION_BUCKETS,
      ['outcome'],
    );
  }
}
