import { TaskState } from '@a2a-js/sdk';
import type { AgentProblem, QuestionsResponse, TaskView } from '../api-types.ts';
import type { AgentDirectory, ConnectedAgent } from '../agents/agent-directory.ts';
import { listByState, PAGE_SIZE } from './agent-tasks.ts';
import { newestFirst, taskViewOf } from './task-view.ts';

export interface LiveQuestionsOptions {
  /** How often the agents are asked what changed while someone is watching. Default 2 s. */
  readonly pollMs?: number;
  /** How often every agent's waiting tasks are listed whole, to heal anything a delta missed. Default 60 s. */
  readonly resyncMs?: number;
}

/**
 * A task store's change time is set before the change is written, so a slow write can land with
 * a time just before the newest one already seen. Each delta reads this far back again.
 */
const OVERLAP_MS = 2_000;
/** A delta longer than this many pages is not read: the agent's waiting tasks are listed whole instead. */
const MAX_DELTA_PAGES = 5;

interface AgentState {
  /** Waiting tasks by task id. */
  readonly asking: Map<string, TaskView>;
  /** The newest status time seen on the agent (its own clock), in ms: the next delta starts from it. */
  cursor: number;
  resyncedAt: number;
  problem?: string;
}

export type QuestionsListener = (snapshot: QuestionsResponse) => void;

/**
 * The questions waiting across the agents, kept current while someone watches: each agent is
 * asked (ListTasks, statusTimestampAfter a cursor on its own clock) only for the tasks that
 * changed since the last look, and listed whole now and then. Listeners hear of every change.
 * Nothing polls while nobody listens.
 */
export class LiveQuestions {
  private readonly states = new Map<string, AgentState>();
  private readonly listeners = new Set<QuestionsListener>();
  private current: QuestionsResponse | undefined;
  private signature = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private polling: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly directory: AgentDirectory,
    private readonly options: LiveQuestionsOptions = {},
  ) {}

  /** The last snapshot, if one has been taken since someone started watching. */
  snapshot(): QuestionsResponse | undefined {
    return this.current;
  }

  /** Hear of every change from now on (and of the current state, once known). Returns the way to stop. */
  subscribe(listener: QuestionsListener): () => void {
    this.listeners.add(listener);
    if (this.current) listener(this.current);
    if (this.listeners.size === 1) this.nudge();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.pause();
    };
  }

  /** Look now rather than at the next tick: the console has just answered or sent something. */
  nudge(): void {
    if (this.stopped || this.listeners.size === 0) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.polling = this.poll().finally(() => {
      this.polling = undefined;
      if (this.stopped || this.listeners.size === 0) return;
      if (this.again) {
        this.again = false;
        this.nudge();
      } else {
        this.timer = setTimeout(() => this.nudge(), this.options.pollMs ?? 2_000);
      }
    });
  }

  stop(): void {
    this.stopped = true;
    this.pause();
    this.listeners.clear();
  }

  private pause(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // With nobody watching, what is known goes stale: the next watcher starts from a whole listing.
    this.states.clear();
    this.current = undefined;
    this.signature = '';
  }

  private async poll(): Promise<void> {
    await Promise.all(this.directory.agents.map((configured) => this.pollAgent(configured.id)));
    if (this.listeners.size === 0) return;
    const questions: TaskView[] = [];
    const problems: AgentProblem[] = [];
    for (const configured of this.directory.agents) {
      const state = this.states.get(configured.id);
      if (!state) continue;
      questions.push(...state.asking.values());
      if (state.problem !== undefined) problems.push({ agentId: configured.id, message: state.problem });
    }
    questions.sort(newestFirst);
    const signature = JSON.stringify([questions.map((task) => [task.agentId, task.taskId, task.at]), problems]);
    if (this.current && signature === this.signature) return;
    this.signature = signature;
    this.current = { questions, problems };
    for (const listener of [...this.listeners]) listener(this.current);
  }

  private async pollAgent(id: string): Promise<void> {
    const known = this.states.get(id);
    try {
      const agent = await this.directory.connect(id);
      const resyncDue = !known || known.problem !== undefined || Date.now() - known.resyncedAt > (this.options.resyncMs ?? 60_000);
      if (resyncDue || !(await this.applyDelta(agent, known))) await this.resync(agent);
    } catch (error) {
      const state: AgentState = known ?? { asking: new Map(), cursor: 0, resyncedAt: 0 };
      state.problem = (error as Error).message;
      this.states.set(id, state);
    }
  }

  /** List the agent's waiting tasks whole, after noting its newest change time as the next cursor. */
  private async resync(agent: ConnectedAgent): Promise<void> {
    const newest = await agent.client.listTasks(listRequest({ pageSize: 1 }));
    const cursor = Date.parse(newest.tasks[0]?.status?.timestamp ?? '') || 0;
    const waiting = await listByState(agent, TaskState.TASK_STATE_INPUT_REQUIRED, PAGE_SIZE * 10);
    this.states.set(agent.id, { asking: new Map(waiting.map((task) => [task.taskId, task])), cursor, resyncedAt: Date.now() });
  }

  /** Apply what changed since the cursor; false when there is too much of it to read as a delta. */
  private async applyDelta(agent: ConnectedAgent, state: AgentState): Promise<boolean> {
    const after = new Date(Math.max(0, state.cursor - OVERLAP_MS)).toISOString();
    const changed: TaskView[] = [];
    let pageToken = '';
    for (let page = 0; ; page++) {
      if (page === MAX_DELTA_PAGES) return false;
      const listed = await agent.client.listTasks(listRequest({ pageSize: PAGE_SIZE, pageToken, statusTimestampAfter: after }));
      changed.push(...listed.tasks.map((task) => taskViewOf(task, { id: agent.id, name: agent.card.name })));
      if (!listed.nextPageToken) break;
      pageToken = listed.nextPageToken;
    }
    // Oldest change first, so the newest state of a task is the one that stays.
    for (const task of changed.sort(newestFirst).reverse()) {
      if (task.state === 'asking') state.asking.set(task.taskId, task);
      else state.asking.delete(task.taskId);
      state.cursor = Math.max(state.cursor, Date.parse(task.at) || 0);
    }
    return true;
  }
}

function listRequest(options: { pageSize: number; pageToken?: string; statusTimestampAfter?: string }) {
  return {
    tenant: '',
    contextId: '',
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageSize: options.pageSize,
    pageToken: options.pageToken ?? '',
    historyLength: 1,
    statusTimestampAfter: options.statusTimestampAfter,
    includeArtifacts: false,
  };
}
