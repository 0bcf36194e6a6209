/**
 * The SDK's task table (its `a2a-db` migrations make it), as its `DatabaseTaskStore` writes it:
 * the runtime writes a task's opening and resting rows itself, with the ledger's row in the same
 * transaction (`task-writes.ts`), and reads through the SDK's store.
 */
export interface TaskTable {
  tenant: string;
  owner: string;
  id: string;
  context_id: string;
  status_last_updated: number;
  status_state: string | null;
  status: string | null;
  artifacts: string | null;
  history: string | null;
  metadata: string | null;
  protocol_version: string;
}

/** The runtime's own tables, beside the SDK's `tasks`. */
export interface RuntimeTables {
  /** The SDK's; see TaskTable. */
  tasks: TaskTable;
  /** One row per finished step of a task: what `parse`, `pin`, `read`, `answer-N` returned. */
  learnables_journal: { task_id: string; step: string; result: string; at: number };
  /**
   * One row per task this agent started: who owns it (to find it again after a restart), the
   * message's own date and whether the agent had to ask (for questions per 100 messages).
   */
  learnables_tasks: {
    task_id: string;
    agent: string;
    tenant: string;
    owner: string;
    message_at: number;
    asked: number;
    state: string;
    created_at: number;
    /**
     * The task as it opened (the SDK's JSON of it), while it runs, for a task whose row the SDK's
     * table gets only at rest (nobody hears of it before: a plain send); null otherwise, and once
     * it rests.
     */
    opening: string | null;
  };
  /**
   * One row per correction of a completed task's decision (SPEC §6.7): what the task decided (as
   * its outcome said, JSON), what a person said it should have been, who, why, and the
   * authenticated client. The task's own journal and outcome are never rewritten.
   */
  learnables_corrections: {
    task_id: string;
    finding: string;
    seq: number;
    agent: string;
    entry: string | null;
    none: number;
    decided: string;
    corrected_by: string;
    reason: string;
    client: string;
    at: number;
  };
}
