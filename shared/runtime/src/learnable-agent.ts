import type { InputPart, Learnable, LearnableKind, ValueOf } from '@learnables/learnable';
import type { Declaration, EntryChoice, LessonValue } from '@learnables/protocol';
import type { PinnedDefinitions } from './pinned-definitions.ts';

// Where a parse module takes them from (see @learnables/learnable's input.ts); agents may take them from here.
export { InputRefused } from '@learnables/learnable';
export type { InputPart } from '@learnables/learnable';

/** What the agent reads for one thing it decides (e.g. `customer`, or one field `waybill`). */
export interface Finding {
  readonly settled: boolean;
  readonly winner?: string;
  /** The agent's own sentence, e.g. "Reads as Northgate Motors Ltd, on billing@origin.example". */
  readonly reads: string;
  /** The collection whose version decided this finding. */
  readonly collection: string;
  /**
   * Optional, for an unsettled finding: the evidence that would have decided it is another entry's
   * too (the email agent: a reference shape two customers issue), so it asks. Preview counts a
   * decision a lesson leaves open so as `contested` (SPEC §6.5): a consequence, not a competition.
   */
  readonly contested?: true;
}

/**
 * What the agent asks when it cannot decide. The runtime adds the pinned version. `V` is the value
 * of the learnable a lesson would extend, so `suggested` is one it can take.
 */
export interface Question<V extends object = LessonValue> {
  readonly collection: string;
  readonly question: string;
  readonly entries: readonly EntryChoice[];
  /** The entry a lesson would extend, when the agent knows which: a key of the pinned collection. */
  readonly entry?: string;
  /**
   * Drawn from this input and never wider than it (SPEC.md §2.3), and one the learnable accepts
   * (§2.4): the runtime teaches it to the learnable, in memory, when it asks — a refused suggestion
   * is the agent's bug (strict: the task fails; otherwise it is logged and left out).
   */
  readonly suggested?: V;
  /**
   * `suggested` in words (SPEC §3.6). The runtime fills it from the learnable's `says` when it
   * checks the suggestion; an agent need not set it.
   */
  readonly says?: string;
}

/**
 * A reading of one input under pinned definitions: either settled, with a result to hand back,
 * or unsettled, with one question.
 */
export type Reading<Result, V extends object = LessonValue> =
  | { readonly settled: true; readonly findings: Readonly<Record<string, Finding>>; readonly result: Result }
  | { readonly settled: false; readonly findings: Readonly<Record<string, Finding>>; readonly question: Question<V> };

/** The person's answer to a question: which entry they named. */
export interface Answer {
  readonly entry: string;
  /** Who answered, when the client says so. */
  readonly answeredBy?: string;
  /**
   * Set when the entry is not among the question's: the person added it since the task was pinned
   * (SPEC.md §2.7). The pinned definitions do not hold it; this is where it was found, and its label.
   */
  readonly addedIn?: { readonly version: number; readonly label: string };
}

/** The person's answer that no entry applies ("none of these", SPEC.md §2.8). */
export interface NoneAnswer {
  readonly answeredBy?: string;
}

/**
 * Everything an agent supplies to become a learnable A2A agent. `parse` may do I/O-free work on
 * the message; `read` and `answer` must be pure functions of their arguments — that is what lets
 * the journal replay them safely and reread and preview run them read-only (memory of completed
 * tasks is kept in `completed`, never in them). `L` is the learnable its questions
 * teach (the declared collection's), which types a question's `suggested`.
 */
export interface LearnableAgent<Input, Result, L extends Learnable<any> = Learnable> {
  /** Card text. */
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly skill: {
    readonly id: string;
    readonly name: string;
    readonly description: string;
    readonly examples?: readonly string[];
    readonly inputModes?: readonly string[];
  };
  /** The declaration published on the card (the runtime adds `methods`). */
  readonly declaration: Omit<Declaration, 'methods'>;
  /** The collections `read` needs, with their kinds (`definitions.of(kind)` finds each). */
  readonly kinds: readonly LearnableKind<any>[];
  /** Largest request body accepted, e.g. '40mb' (an email of 25 MB grows by a third in base64). */
  readonly bodyLimit?: string;
  /** Turn the message into the agent's input, or throw InputRefused with a sentence. */
  parse(parts: readonly InputPart[]): Promise<Input> | Input;
  /**
   * Where `parse` can run off the event loop. With it, the runtime reads each message in a pool of
   * worker threads, so a large one never holds up `/healthz` or other requests; without it, `parse`
   * runs on the event loop. See ParseModule.
   */
  readonly parseModule?: ParseModule;
  /** The input's own date, for the questions-per-100-messages chart (e.g. an email's Date). */
  dateOf?(input: Input): Date | undefined;
  /**
   * Get ready to read with these definitions without holding up other requests (e.g. compile
   * what `read` needs in slices). Optional, and only ever a head start: the runtime calls it when
   * the change feed announces a version and awaits it before a task reads, but `read` must work
   * without it. A failure here is ignored; `read` meets the same problem and reports it.
   */
  prepare?(definitions: PinnedDefinitions): Promise<void>;
  /** Read the input under the pinned definitions. Pure. */
  read(input: Input, definitions: PinnedDefinitions): Reading<Result, ValueOf<L>>;
  /**
   * Finish a question with the person's answer: one of the question's entries, or (when `addedIn`
   * is set) an entry added to the collection since the pin. Pure.
   */
  answer(input: Input, definitions: PinnedDefinitions, question: Question<ValueOf<L>>, answer: Answer): Reading<Result, ValueOf<L>>;
  /**
   * Finish a question that the person answered "none of these": a settled reading with no winner.
   * Required when the declaration says `admitsNone: true`. Pure.
   */
  answerNone?(input: Input, definitions: PinnedDefinitions, question: Question<ValueOf<L>>, answer: NoneAnswer): Reading<Result, ValueOf<L>>;
  /**
   * Optional: told that a task completed, with its input and the result it completed with. The one
   * place an agent may keep memory of what it decided (the email agent's whom-senders-wrote-for):
   * `read` and `answer` stay pure, so a reread, a preview or a reading that asked leaves that memory
   * as it was, and what a later message is asked does not depend on them (SPEC §4.6). Called by the
   * runtime once the step that settled the task is in the journal, once per task in a process (a
   * task resumed after a restart is told again in the new process); never for a task that asks or
   * fails. Synchronous and best effort: what it throws is logged, and the task completes all the
   * same. Memory kept here is the process's own (each replica its own, empty after a restart), so it
   * may steer what is asked, never a decision.
   */
  completed?(input: Input, result: Result): void;
  /** A short summary of the input for inboxes (sender, subject, excerpt; or headings and first rows). */
  summarize?(input: Input): Record<string, unknown>;
  /**
   * Optional: `read`'s findings in two steps, so that preview can read thousands of recent inputs
   * under two definitions quickly (see Decider). Without it, preview calls `read` twice per input.
   */
  readonly decider?: Decider<Input, any>;
}

/**
 * The findings of `read`, split into what needs no definitions and what does. The runtime keeps the
 * evidence of recent tasks (bounded by bytes) and decides each under the live and the candidate
 * definitions; with `affects`, it re-decides only the inputs a changed entry can reach. Every part
 * is pure and has no side effect (unlike `read`, it never asks, suggests or remembers), and
 * `findings(evidence(input), d)` MUST equal `read(input, d).findings` for every input and
 * definitions: `test/preview-fast-path.test.ts` holds the email agent to it.
 */
export interface Decider<Input, Evidence> {
  /** The part of reading that needs no definitions (an email's fields as marks see them). Plain data. */
  evidence(input: Input): Evidence;
  /** About how many bytes the evidence holds in memory, for the runtime's bound on what it keeps. */
  sizeOf(evidence: Evidence): number;
  /** The findings `read` gives for this input under these definitions. */
  findings(evidence: Evidence, definitions: PinnedDefinitions): Readonly<Record<string, Finding>>;
  /**
   * Optional: a test of which evidence a change of one entry of `collection` (from `before` to
   * `after`; either absent when the entry is added or removed) could decide differently. It may say
   * yes too often, never too rarely: for evidence it says no to, `findings` under the definitions
   * with `after` MUST equal those with `before`.
   */
  affects?(collection: string, before: Learnable<any> | undefined, after: Learnable<any> | undefined): (evidence: Evidence) => boolean;
}

/**
 * The module that holds an agent's `parse`, for the runtime's parse threads: `url` (e.g.
 * `new URL('./parse-parts.ts', import.meta.url)`), the `name` of the export that does exactly what
 * `parse` does, and `options`, its second argument (plain data: it is copied to each thread). Each
 * thread imports the module once, so it should import only what parsing needs: `InputRefused` from
 * `@learnables/learnable`, not the runtime.
 */
export interface ParseModule {
  readonly url: string | URL;
  readonly name: string;
  readonly options?: unknown;
}
