/** The runtime's own tables, beside the SDK's `tasks`. */
export interface RuntimeTables {
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
  };
}
