// The JSON the console's server answers on /api, shared by the server and the browser UI.
// Types only: the UI imports them with `import type`, so nothing here reaches the bundle.
import type { CorrectionOutcome, LessonOutcome, PreviewResult, Reading } from '@learnables/protocol';

/** Every error the console's server sends: a code for programs and a sentence for people. */
export interface ApiError {
  readonly error: string;
  readonly message: string;
  /** The lesson field (or form field) the sentence is about, when the refusal names one. */
  readonly field?: string;
}

/** What an agent's card says it can be taught, read leniently: the UI renders `lessonFields` blind. */
export interface LearnableView {
  readonly collection: string;
  readonly entry: string;
  readonly teaches: string;
  readonly how: string;
  /** `rules`, `model` or `hybrid`; anything else is passed on as it is and promised nothing. */
  readonly decidedBy: string;
  /** Exactly as the card has them; the UI turns them into controls with `fieldsToRender`. */
  readonly lessonFields: unknown;
  /** The JSON-RPC method that reads a task again under the live version, if the agent offers one. */
  readonly rereadMethod?: string;
  /** The JSON-RPC method that shows what a lesson would do before it is taught (SPEC §6.5), if offered. */
  readonly previewMethod?: string;
  /** The JSON-RPC methods that record and list corrections of completed tasks' decisions (SPEC §6.7), if offered. */
  readonly correctMethod?: string;
  readonly correctionsMethod?: string;
  /** Whether a question may be answered with a new entry, added on the spot (SPEC §3.5). */
  readonly addsEntries: boolean;
  /** Whether a question may be answered "none of these" (SPEC §2.8). */
  readonly admitsNone: boolean;
}

export interface AgentView {
  readonly id: string;
  readonly url: string;
  readonly reachable: boolean;
  /** Why the agent cannot be used right now, as a sentence. */
  readonly problem?: string;
  readonly name?: string;
  readonly description?: string;
  /** Media types the agent reads, from its skills (or its defaults when no skill says). */
  readonly accepts: readonly string[];
  readonly learnable?: LearnableView;
}

/** A teach block as the question carried it. Only `collection`, `entries`, `entry`, `suggested`, `says`, `version` are read. */
export interface TeachBlockView {
  readonly collection: string;
  readonly question?: string;
  /**
   * The question's entries, then (added by the console, not the agent) those added to the collection
   * since the question was asked, marked `since`: the runtime accepts an answer naming them.
   */
  readonly entries: readonly { readonly key: string; readonly label: string; readonly since?: true }[];
  readonly entry?: string;
  readonly suggested?: unknown;
  /** `suggested` in the learnable's own words for people (SPEC §3.6), only beside `suggested`. */
  readonly says?: string;
  readonly version?: number;
}

export type TaskStateName = 'asking' | 'decided' | 'failed' | 'working' | 'canceled' | 'rejected' | 'other';

/** One task as the console shows it: what the agent said, and what the learnables metadata adds. */
export interface TaskView {
  readonly agentId: string;
  readonly agentName: string;
  readonly taskId: string;
  readonly contextId: string;
  readonly state: TaskStateName;
  /** When the task last changed state (ISO time). */
  readonly at: string;
  /** The agent's words: its question, or its answer. */
  readonly said: string;
  /** The agent's own summary of the input (`metadata.summary`), rendered blind. */
  readonly summary?: unknown;
  /** Present while the task asks, and kept from history once it has been answered. */
  readonly teach?: TeachBlockView;
  /** Which version of which collection decided a finished task. */
  readonly versions?: Readonly<Record<string, number>>;
  /** `rules` when nobody was asked, `operator` when a person answered. */
  readonly decidedBy?: string;
  readonly answeredBy?: string;
  /** What decided a finished task, finding by finding, in the agent's words. */
  readonly findings?: readonly FindingView[];
  /** The operator answered that no entry applies (SPEC §2.8). */
  readonly none?: true;
}

/** One thing a finished task decided: the agent's sentence, and the entry that won, if one did. */
export interface FindingView {
  readonly name: string;
  readonly settled: boolean;
  readonly reads: string;
  readonly collection: string;
  readonly winner?: string;
}

export interface QuestionsResponse {
  readonly questions: readonly TaskView[];
  readonly problems: readonly AgentProblem[];
}

export interface DecisionsResponse {
  readonly decisions: readonly TaskView[];
  readonly problems: readonly AgentProblem[];
}

export interface AgentProblem {
  readonly agentId: string;
  readonly message: string;
}

/** What the agent reads now, after a lesson, in its own words. */
export interface ShowBack {
  readonly readings?: Readonly<Record<string, Reading>>;
  /** Why nothing could be read back, as a sentence. */
  readonly problem?: string;
}

/**
 * An answer names an entry of the question (`entry`), says that none applies (`none`), or names a
 * new entry to add first (`newEntry`, by its label): exactly one of the three.
 */
export interface AnswerRequest {
  readonly entry?: string;
  readonly none?: true;
  readonly newEntry?: { readonly label: string };
  /** Present when "remember this" is ticked. `value` holds the form's strings, untouched. */
  readonly lesson?: { readonly value: Readonly<Record<string, string>>; readonly reason: string };
}

export interface AnswerResponse {
  readonly task: TaskView;
  /** The entry added before answering, when the answer named a new one. */
  readonly added?: LessonOutcome;
  readonly lesson?: LessonOutcome;
  readonly showBack?: ShowBack;
}

export interface LessonRequest {
  /** The entry the lesson extends when the question did not name one. */
  readonly entry: string;
  readonly value: Readonly<Record<string, string>>;
  readonly reason: string;
}

export interface LessonResponse {
  readonly lesson: LessonOutcome;
  readonly showBack: ShowBack;
}

export interface CollectionView {
  readonly collection: string;
  readonly activeVersion: number | null;
  /** The agents whose cards declare this collection, with what they promise a lesson does. */
  readonly agents: readonly { readonly id: string; readonly name: string; readonly decidedBy: string }[];
}

export interface ActivationView {
  readonly id: number;
  readonly collection: string;
  readonly version: number;
  readonly kind: string;
  readonly author: string;
  readonly reason: string;
  readonly audit: string;
  readonly client: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** The entry a lesson, an added entry or a retraction is about. */
  readonly entry?: string;
  /** For a retraction: the version whose lesson it took back. */
  readonly retracts?: number;
  /** The lesson's value (or the value taken back) in the learnable's words for people (SPEC §3.6). */
  readonly says?: string;
  /** The label of `entry` in the active version, added by the console so a sentence names it in words. */
  readonly entryLabel?: string;
}

export interface HistoryResponse {
  readonly collection: string;
  readonly activeVersion: number | null;
  readonly activations: readonly ActivationView[];
}

export interface PeriodView {
  readonly period: string;
  readonly messages: number;
  readonly questions: number;
  readonly questionsPer100: number;
  /** Decisions on this week's messages that stand corrected now (SPEC §6.8); absent from an agent that does not count them. */
  readonly corrected?: number;
  /** Of those, the ones decided without asking. */
  readonly correctedUnasked?: number;
}

export interface StatsResponse {
  readonly agents: readonly {
    readonly agentId: string;
    readonly name: string;
    readonly periods: readonly PeriodView[];
    /** Lessons of the agent's collection taken back (retractions in the authority's history); `atLeast` when the history was longer than was read. */
    readonly takenBack?: { readonly collection: string; readonly lessons: number; readonly atLeast: boolean };
    readonly problem?: string;
  }[];
}

export interface SessionResponse {
  readonly operator: string | null;
}

/** What a lesson would do, asked before it is taught (SPEC §6.5): the agent's PreviewResult, or why there is none. */
export interface PreviewView {
  readonly preview?: PreviewResult;
  /** The learnable's refusal, word for word, as teach would give it. */
  readonly refusal?: ApiError;
  /** Why nothing could be previewed (the agent offers no preview, or could not be asked), as a sentence. */
  readonly problem?: string;
}

export interface PreviewRequest {
  /** The entry the lesson extends when the question did not name one. */
  readonly entry: string;
  readonly value: Readonly<Record<string, string>>;
  /** The reason typed so far, if any; a preview records nothing, so it is only passed along. */
  readonly reason?: string;
}

/** What rolling back to a version would take out of effect and bring back. */
/** What the console's rollback answers: the activation it recorded, whether anything changed, and what it undid. */
export interface RollbackOutcomeView extends ActivationView {
  /** False when the version asked for was already in effect: nothing was recorded. */
  readonly changed: boolean;
  readonly undoes?: readonly ActivationView[];
  readonly restores?: readonly ActivationView[];
}

export interface RollbackPreviewView {
  readonly collection: string;
  readonly from: number;
  readonly to: number;
  readonly undoes: readonly ActivationView[];
  readonly restores: readonly ActivationView[];
}

/** One entry of a collection and the activations that taught it what it holds now. */
export interface EntryView {
  readonly collection: string;
  readonly key: string;
  readonly label: string;
  readonly activeVersion: number;
  /** Lessons (and the entry's own addition) in effect in the active version, newest first. */
  readonly taught: readonly ActivationView[];
  /** Lessons taken back by a retraction in effect, newest first, each with the retraction. */
  readonly retracted: readonly { readonly lesson: ActivationView; readonly by: ActivationView }[];
}

export interface RetractRequest {
  readonly version: number;
  readonly reason: string;
}

/** One finding of a decided task that can be corrected, and what it may be corrected to. */
export interface CorrectableFinding {
  readonly name: string;
  readonly collection: string;
  /** The agent's sentence for what it decided. */
  readonly reads: string;
  /** The entry it decided, if it named one. */
  readonly winner?: string;
  /** The collection's entries now, when the finding names entries; absent: the right value is typed in words. */
  readonly choices?: readonly { readonly key: string; readonly label: string }[];
}

/** A decided task's corrections (SPEC §6.7), and what the form to add one offers. */
export interface CorrectionsView {
  /** Oldest first, as the agent recorded them. */
  readonly corrections: readonly CorrectionOutcome[];
  readonly findings: readonly CorrectableFinding[];
  /** "None of these" is a correction this agent's questions admit. */
  readonly admitsNone: boolean;
  /** Why corrections cannot be read or made here (the agent offers none, or could not be asked), as a sentence. */
  readonly problem?: string;
}

export interface CorrectionRequest {
  readonly finding: string;
  readonly entry?: string;
  readonly none?: true;
  readonly reason: string;
}
