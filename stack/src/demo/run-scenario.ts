/**
 * The six-week replay: every message of fixtures/scenario/stream.json, in order, through the
 * running agents with the A2A SDK's client. A simulated operator answers each question from the
 * ground truth and — when learning is on — ticks "remember this" as a person would: the lesson
 * posted to the authority is the teach block's suggestion, untouched.
 *
 * The replay counts what it observes (messages sent, questions received, by each message's own
 * week). A decision it finds wrong (made without asking, or answered and still wrong) it corrects
 * on the agent as the operator would (`learnables/correct`, SPEC §6.7), with the truth. It checks
 * its counts against the agents' own (`GET /learnables/stats?by=week`): messages, questions, and
 * the decisions corrected (`corrected`, `correctedUnasked`, §6.8), week by week.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { AuthorityClient, AuthorityRefused } from '@learnables/authority';
import type { LessonValue } from '@learnables/protocol';
import { LEARNABLES_METHODS, PreviewResultSchema, TeachBlockSchema } from '@learnables/protocol';
import { LOCAL_DEV_TOKEN } from '../config.ts';
import { wrongFields } from './manifest-truth.ts';
import { evidenceReasons } from './evidence-questions.ts';
import {
  answerNone,
  answerTask,
  callMethod,
  connectAgent,
  correctTask,
  isAsking,
  isDone,
  resultOf,
  sendFile,
  statusText,
  teachBlockOf,
} from './scenario-client.ts';
import type { PeriodNumbers, StatsCheck } from './stats-check.ts';
import { checkAgent, countedBetween, statsByWeek } from './stats-check.ts';
import type { Stream, StreamItem } from './stream.ts';
import { DAY_MS, SCENARIO_DIR, loadStream, weekStart } from './stream.ts';

export type Learning = 'on' | 'off';
/**
 * Who answers. `careful` (the six-week scenario's): remembers the suggestion unless the stream
 * says a person would not (`remember: false`). `trusting` (the trap scenario's): a busy clerk who
 * teaches every suggestion exactly as offered, but first looks at the preview (SPEC §6.5) and does
 * not remember one that warns it would take messages decided for another entry or make decided
 * ones undecided; and who takes back an earlier lesson of their own on a sender when a question
 * about that sender's mail names the entry the lesson went to, for a message that is not its
 * (the lesson was wrong: it is counted as a correction).
 */
export type Operator = 'careful' | 'trusting';
export type AgentName = 'email' | 'manifest';

export interface RunScenarioOptions {
  readonly emailAgentUrl?: string;
  readonly manifestAgentUrl?: string;
  readonly authorityUrl?: string;
  /** Bearer token the agents accept (the operator's desk). */
  readonly agentToken?: string;
  /** Bearer token the authority accepts for lessons. */
  readonly authorityToken?: string;
  /** `on`: answers are remembered (lessons posted). `off`: answered, nothing remembered. Default `on`. */
  readonly learning?: Learning;
  /** Replay only the first N weeks. */
  readonly weeks?: number;
  /** Where stream.json and its files are. Default fixtures/scenario. */
  readonly scenarioDir?: string;
  /** Who the lessons say taught them. */
  readonly taughtBy?: string;
  /** Called as the replay goes: once at the start, per message, per finished week, at the end. */
  readonly onProgress?: (event: ScenarioProgress) => void;
  /** Stops the replay between two messages; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** A sentence for the results, saying what the replay ran against. */
  readonly stack?: string;
  /** Who answers the questions; default `careful`. */
  readonly operator?: Operator;
  /** What the results call the stream (charts and tables); default the six-week scenario. */
  readonly name?: string;
  /**
   * Correct each decision found wrong on its agent (SPEC §6.7), as the operator would; default true.
   * Off only to show that the check against the agents' counts catches a replay that does not.
   */
  readonly correctWrong?: boolean;
}

export interface Count {
  readonly messages: number;
  readonly questions: number;
  /** Questions per 100 messages, one decimal. */
  readonly per100: number;
}

export interface WeekNumbers {
  readonly week: number;
  /** The Monday the week starts on, `YYYY-MM-DD`. */
  readonly start: string;
  readonly all: Count;
  readonly email: Count;
  readonly manifest: Count;
  /** Lessons that changed a definition during the week. */
  readonly lessons: number;
  /** Messages decided without asking, for a customer or a column other than the truth. */
  readonly misreads: number;
  /**
   * The week's messages whose decision stands corrected later, as the agents count them
   * (`corrected` of GET /learnables/stats?by=week, both agents, this run's): every misread, and any
   * answered decision that still came out wrong, corrected by the replay on its agent.
   */
  readonly corrected: number;
  /** Of those, the ones decided without asking (the agents' `correctedUnasked`); the check holds it equal to `misreads`. */
  readonly correctedUnasked: number;
  /** Lessons the operator took back during the week, having seen they were wrong. */
  readonly corrections?: number;
  /**
   * Email questions the evidence rule of issue 35 asked (the question says why: automated mail, an
   * outsider's forward, marks only in quoted text…), and of them those whose lesson the operator
   * taught, so that the same evidence no longer asks. Present when the agent asked any.
   */
  readonly evidence?: { readonly asked: number; readonly taught: number };
}

export type LessonOutcome = 'changed' | 'unchanged' | 'refused' | 'no-suggestion' | 'declined' | 'warned';

export interface LessonRecord {
  readonly file: string;
  readonly week: number;
  readonly agent: AgentName;
  readonly collection: string;
  readonly entry: string;
  /** The teach block's suggestion, exactly as the agent sent it (absent when it sent none). */
  readonly suggested?: LessonValue;
  /** The value posted; always the suggestion, untouched. Absent when nothing was posted. */
  readonly posted?: LessonValue;
  readonly outcome: LessonOutcome;
  readonly version?: number;
  /** The authority's audit sentence, its refusal, or why nothing was posted. */
  readonly sentence?: string;
}

export interface Problem {
  readonly file: string;
  readonly week: number;
  readonly agent: AgentName;
  readonly kind: 'failed' | 'answer-not-taken' | 'misread' | 'answered-wrong' | 'correction-refused' | 'bad-teach-block' | 'retraction-failed';
  readonly sentence: string;
}

export type ScenarioProgress =
  | { readonly kind: 'start'; readonly learning: Learning; readonly total: number; readonly weeks: number; readonly warnings: readonly string[] }
  | {
      readonly kind: 'message';
      readonly index: number;
      readonly total: number;
      readonly week: number;
      readonly agent: AgentName;
      readonly file: string;
      readonly asked: boolean;
      readonly lesson?: LessonOutcome;
    }
  | { readonly kind: 'week'; readonly numbers: WeekNumbers }
  | { readonly kind: 'done'; readonly result: ScenarioResult };

/** A lesson the operator took back. */
export interface CorrectionRecord {
  readonly file: string;
  readonly week: number;
  readonly collection: string;
  readonly entry: string;
  /** The version the lesson published. */
  readonly version: number;
  readonly sentence: string;
}

/** A decision the replay found wrong and corrected on its agent (SPEC §6.7). */
export interface DecisionCorrection {
  readonly file: string;
  readonly week: number;
  readonly agent: AgentName;
  /** Whether the agent asked before deciding it (answered, and still wrong). */
  readonly asked: boolean;
  /** The finding corrected (a manifest's field); absent for an email, which decides one thing. */
  readonly finding?: string;
  /** What it decided: the customer, or the column the field was read from (null: none). */
  readonly decided: string | null;
  /** What it should have been: the customer's key or the column's heading; absent with `none`. */
  readonly entry?: string;
  /** No column: the sheet has none for that field. */
  readonly none?: true;
  readonly reason: string;
  /** For an email decided without asking: the marks that decided it, as its result names them (what a clerk looks at to see why). */
  readonly marks?: readonly { readonly pattern: string; readonly where: string; readonly sender?: string; readonly foundIn?: string; readonly text?: string }[];
  /** The class of the message, as the stream says (`trap`). */
  readonly trap?: string;
}

/** A question the evidence rule asked (evidence-questions.ts), and what became of its lesson. */
export interface EvidenceQuestion {
  readonly file: string;
  readonly week: number;
  readonly trap?: string;
  readonly reasons: readonly string[];
  /** The lesson the operator taught from it published a new version. */
  readonly taught: boolean;
}

export interface ScenarioResult {
  readonly learning: Learning;
  readonly operator?: Operator;
  /** What the stream is called, when it is not the six-week scenario. */
  readonly name?: string;
  readonly scenario: { readonly from: string; readonly to: string; readonly weeks: number; readonly messages: number };
  readonly stack: string;
  readonly weeks: readonly WeekNumbers[];
  readonly totals: { readonly all: Count; readonly email: Count; readonly manifest: Count };
  readonly lessons: readonly LessonRecord[];
  readonly corrections?: readonly CorrectionRecord[];
  /** Decisions found wrong and corrected on the agents, in the order they were found. */
  readonly correctedDecisions: readonly DecisionCorrection[];
  /** The questions the evidence rule asked (issue 35), when the agent asked any. */
  readonly evidenceQuestions?: readonly EvidenceQuestion[];
  /** Customers the operator added, the first time their mail was asked about or found decided wrongly (SPEC §3.5). */
  readonly addedEntries?: readonly {
    readonly file: string;
    readonly week: number;
    readonly entry: string;
    readonly label: string;
    readonly version?: number;
  }[];
  readonly lessonOutcomes: Readonly<Record<LessonOutcome, number>>;
  readonly problems: readonly Problem[];
  readonly check: StatsCheck;
  /** Things the replay noticed before it started (e.g. definitions that already hold lessons). */
  readonly warnings: readonly string[];
  /** How long the run took; printed, not written to the results file (which stays the same run to run). */
  readonly durationMs: number;
}

export const SIMULATED_OPERATOR = 'simulated operator';
export const SIMULATED_OPERATOR_EMAIL = 'simulated-operator@warehouse.example';

/** The URLs and tokens of `pnpm start`, unless the environment says otherwise. */
export function optionsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Required<Pick<RunScenarioOptions, 'emailAgentUrl' | 'manifestAgentUrl' | 'authorityUrl' | 'agentToken' | 'authorityToken'>> {
  return {
    emailAgentUrl: env.EMAIL_AGENT_URL ?? 'http://127.0.0.1:4201',
    manifestAgentUrl: env.MANIFEST_AGENT_URL ?? 'http://127.0.0.1:4202',
    authorityUrl: env.AUTHORITY_URL ?? 'http://127.0.0.1:4100',
    agentToken: env.AGENT_TOKEN ?? LOCAL_DEV_TOKEN,
    authorityToken: env.AUTHORITY_TOKEN ?? LOCAL_DEV_TOKEN,
  };
}

const per100 = (questions: number, messages: number) => (messages === 0 ? 0 : Math.round((questions / messages) * 1000) / 10);
const count = (messages: number, questions: number): Count => ({ messages, questions, per100: per100(questions, messages) });
const sameHeading = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

class Tally {
  messages = 0;
  questions = 0;
  /** Decisions the replay corrected on the agent, and those of them made without asking. */
  corrected = 0;
  correctedUnasked = 0;
  add(asked: boolean) {
    this.messages += 1;
    if (asked) this.questions += 1;
  }
  get count(): Count {
    return count(this.messages, this.questions);
  }
}

/** Replay the scenario through the running agents. Resolves with the numbers it observed. */
export async function runScenario(options: RunScenarioOptions = {}): Promise<ScenarioResult> {
  const started = performance.now();
  const defaults = optionsFromEnv({});
  const learning = options.learning ?? 'on';
  const urls = {
    email: (options.emailAgentUrl ?? defaults.emailAgentUrl).replace(/\/+$/, ''),
    manifest: (options.manifestAgentUrl ?? defaults.manifestAgentUrl).replace(/\/+$/, ''),
  };
  const agentToken = options.agentToken ?? defaults.agentToken;
  const authority = new AuthorityClient({ url: options.authorityUrl ?? defaults.authorityUrl, token: options.authorityToken ?? defaults.authorityToken });
  const dir = options.scenarioDir ?? SCENARIO_DIR;
  const stream: Stream = loadStream(dir);
  const weeks = Math.min(options.weeks ?? stream.weeks, stream.weeks);
  if (!Number.isInteger(weeks) || weeks < 1) throw new RangeError(`--weeks must be a whole number from 1 to ${stream.weeks}; ${options.weeks} is not.`);
  const items = stream.messages.filter((item) => item.week <= weeks);
  const emit = options.onProgress ?? (() => undefined);

  const warnings = await preflight(authority, learning);
  const clients: Record<AgentName, Client> = { email: await connectAgent(urls.email, agentToken), manifest: await connectAgent(urls.manifest, agentToken) };
  const before = { email: await statsByWeek(urls.email), manifest: await statsByWeek(urls.manifest) };
  const correctWrong = options.correctWrong ?? true;
  /** The agents' own count of a week's corrected decisions, this run's (their stats now, less before). */
  const correctedByAgents = async (start: string): Promise<{ corrected: number; correctedUnasked: number }> => {
    const sum = { corrected: 0, correctedUnasked: 0 };
    for (const agent of ['email', 'manifest'] as const) {
      const counted = countedBetween(before[agent], await statsByWeek(urls[agent])).find((p) => p.period === start);
      sum.corrected += counted?.corrected ?? 0;
      sum.correctedUnasked += counted?.correctedUnasked ?? 0;
    }
    return sum;
  };
  emit({ kind: 'start', learning, total: items.length, weeks, warnings });

  const operator = options.operator ?? 'careful';
  const byWeek = new Map<
    number,
    { all: Tally; email: Tally; manifest: Tally; lessons: number; misreads: number; corrections: number; evidence: { asked: number; taught: number } }
  >();
  const evidenceQuestions: EvidenceQuestion[] = [];
  const addedEntries: { file: string; week: number; entry: string; label: string; version?: number }[] = [];
  const added = new Set<string>();
  const corrections: CorrectionRecord[] = [];
  const correctedDecisions: DecisionCorrection[] = [];
  const taughtBy = options.taughtBy ?? SIMULATED_OPERATOR_EMAIL;
  const byPeriod: Record<AgentName, Map<string, Tally>> = { email: new Map(), manifest: new Map() };
  const lessons: LessonRecord[] = [];
  const problems: Problem[] = [];
  const finishedWeeks: WeekNumbers[] = [];
  const weekNumbers = async (week: number): Promise<WeekNumbers> => {
    const tally = byWeek.get(week);
    const start = new Date(Date.parse(stream.from) + (week - 1) * 7 * DAY_MS).toISOString().slice(0, 10);
    return {
      week,
      start,
      all: tally?.all.count ?? count(0, 0),
      email: tally?.email.count ?? count(0, 0),
      manifest: tally?.manifest.count ?? count(0, 0),
      lessons: tally?.lessons ?? 0,
      misreads: tally?.misreads ?? 0,
      // Read from the agents once the week's messages are in: the replay corrects as it finds.
      ...(await correctedByAgents(start)),
      ...(operator === 'trusting' && { corrections: tally?.corrections ?? 0 }),
      ...(tally !== undefined && tally.evidence.asked > 0 && { evidence: { ...tally.evidence } }),
    };
  };

  for (const [index, item] of items.entries()) {
    options.signal?.throwIfAborted();
    const tally = byWeek.get(item.week) ?? {
      all: new Tally(),
      email: new Tally(),
      manifest: new Tally(),
      lessons: 0,
      misreads: 0,
      corrections: 0,
      evidence: { asked: 0, taught: 0 },
    };
    byWeek.set(item.week, tally);
    const client = clients[item.agent];
    const problem = (kind: Problem['kind'], sentence: string) => problems.push({ file: item.file, week: item.week, agent: item.agent, kind, sentence });

    const task = await sendFile(client, readFileSync(join(dir, item.file)), basename(item.file));
    const asked = isAsking(task);
    tally.all.add(asked);
    tally[item.agent].add(asked);
    const period = weekStart(item.date);
    const periods = byPeriod[item.agent];
    const inPeriod = periods.get(period) ?? new Tally();
    inPeriod.add(asked);
    periods.set(period, inPeriod);

    /**
     * A customer the seed does not have is added, as the console's "add a customer" does (SPEC §3.5),
     * the first time its mail is asked about or found decided for another; whatever the learning,
     * since without it the message cannot be answered or corrected at all.
     */
    const ensureEntry = async (collection: string): Promise<void> => {
      if (item.agent !== 'email' || item.truth.label === undefined || added.has(item.truth.entry)) return;
      added.add(item.truth.entry);
      try {
        const outcome = await authority.addEntry({
          collection,
          newEntry: { label: item.truth.label, key: item.truth.entry },
          taughtBy,
          reason: `A new customer: ${item.truth.label} first wrote in ${item.file}.`,
        });
        addedEntries.push({
          file: item.file,
          week: item.week,
          entry: item.truth.entry,
          label: item.truth.label,
          ...(outcome.version !== undefined && { version: outcome.version }),
        });
      } catch (error) {
        problem('failed', `Could not add the customer ${item.truth.label}: ${(error as Error).message}`);
      }
    };

    /**
     * A completed task the truth disagrees with: a problem in words, and — as the operator who
     * notices it would — a correction on the agent for each wrong finding, with the truth, author
     * and reason (SPEC §6.7). True when it was wrong.
     */
    const correctIfWrong = async (done: Task, answeredFirst: boolean): Promise<boolean> => {
      const wrong = misread(item, done);
      if (!wrong) return false;
      problem(answeredFirst ? 'answered-wrong' : 'misread', answeredFirst ? `Answered, and still wrong: ${wrong.sentence}` : wrong.sentence);
      // What the agent must count: every wrong decision, corrected once (whether or not the
      // corrections below get through; one that does not shows as a mismatch in the check).
      inPeriod.corrected += 1;
      if (!answeredFirst) inPeriod.correctedUnasked += 1;
      if (!correctWrong) return true;
      await ensureEntry('customers');
      for (const fix of wrong.fixes) {
        const reason = answeredFirst ? `Found wrong after answering: ${wrong.sentence}` : `Found wrong, decided without asking: ${wrong.sentence}`;
        try {
          await correctTask(urls[item.agent], agentToken, {
            taskId: done.id,
            ...(fix.finding !== undefined && { finding: fix.finding }),
            ...(fix.entry !== undefined ? { entry: fix.entry } : { none: true as const }),
            correctedBy: taughtBy,
            reason,
          });
          const marks = item.agent === 'email' && !answeredFirst ? marksOf(done) : undefined;
          correctedDecisions.push({
            file: item.file,
            week: item.week,
            agent: item.agent,
            asked: answeredFirst,
            ...fix,
            reason,
            ...(marks && { marks }),
            ...(item.trap !== undefined && { trap: item.trap }),
          });
        } catch (error) {
          problem('correction-refused', `Could not correct ${fix.finding ?? 'the decision'} to ${fix.entry ?? 'none'}: ${(error as Error).message}`);
        }
      }
      return true;
    };

    let lesson: LessonRecord | undefined;
    if (asked) {
      const parsed = TeachBlockSchema.safeParse(teachBlockOf(task));
      if (!parsed.success) problem('bad-teach-block', `The question carries no valid teach block: ${parsed.error.message}`);
      const teach = parsed.success ? parsed.data : undefined;
      const answer = item.agent === 'email' ? item.truth.entry : item.truth.column;
      // Nobody's mail of a stream that says so is answered "none of these" (SPEC §2.8): nothing to remember.
      const none = item.agent === 'email' && item.truth.none === true;
      const reasons = item.agent === 'email' ? evidenceReasons(task) : [];
      await ensureEntry(teach?.collection ?? 'customers');
      const trusting = operator === 'trusting' && learning === 'on' && teach !== undefined;
      if (trusting) {
        // Before answering, as a clerk reads the question: a lesson of theirs it shows to be wrong is taken back.
        for (const taken of await takeBack(authority, item, teach, lessons, corrections, taughtBy)) {
          if ('problem' in taken) problem('retraction-failed', taken.problem);
          else tally.corrections += 1;
        }
      }
      // The lesson is previewed on the question, before the answer, as the console shows it; a
      // warning (or a refusal) is a reason not to remember it.
      const heeded = trusting && !none ? await heedPreview(urls[item.agent], agentToken, item, teach, taughtBy) : undefined;
      const answered = none ? await answerNone(client, task, SIMULATED_OPERATOR) : await answerTask(client, task, answer, SIMULATED_OPERATOR);
      if (!isDone(answered))
        problem('answer-not-taken', `Answered "${none ? 'none of these' : answer}"; the task is now ${answered.status?.state}: ${statusText(answered)}`);
      else await correctIfWrong(answered, true);
      if (learning === 'on' && teach && !none) {
        lesson = heeded ?? (await remember(authority, item, teach, taughtBy, operator));
        lessons.push(lesson);
        if (lesson.outcome === 'changed') tally.lessons += 1;
      }
      if (reasons.length > 0) {
        const taught = lesson?.outcome === 'changed';
        tally.evidence.asked += 1;
        if (taught) tally.evidence.taught += 1;
        evidenceQuestions.push({ file: item.file, week: item.week, ...(item.trap !== undefined && { trap: item.trap }), reasons, taught });
      }
    } else if (isDone(task)) {
      if (await correctIfWrong(task, false)) tally.misreads += 1;
    } else {
      problem('failed', `The task ended ${task.status?.state}: ${statusText(task)}`);
    }

    emit({
      kind: 'message',
      index: index + 1,
      total: items.length,
      week: item.week,
      agent: item.agent,
      file: item.file,
      asked,
      ...(lesson && { lesson: lesson.outcome }),
    });
    const next = items[index + 1];
    if (next === undefined || next.week !== item.week) {
      const numbers = await weekNumbers(item.week);
      finishedWeeks.push(numbers);
      emit({ kind: 'week', numbers });
    }
  }

  const after = { email: await statsByWeek(urls.email), manifest: await statsByWeek(urls.manifest) };
  const replayed = (agent: AgentName): PeriodNumbers[] =>
    [...byPeriod[agent]]
      .map(([p, t]) => ({ period: p, messages: t.messages, questions: t.questions, corrected: t.corrected, correctedUnasked: t.correctedUnasked }))
      .sort((a, b) => a.period.localeCompare(b.period));
  const agents = (['email', 'manifest'] as const).map((agent) => checkAgent(agent, urls[agent], replayed(agent), countedBetween(before[agent], after[agent])));
  const sum = (agent: 'all' | AgentName) => {
    const messages = finishedWeeks.reduce((n, w) => n + w[agent].messages, 0);
    return count(
      messages,
      finishedWeeks.reduce((n, w) => n + w[agent].questions, 0),
    );
  };
  const outcomes: Record<LessonOutcome, number> = { changed: 0, unchanged: 0, refused: 0, 'no-suggestion': 0, declined: 0, warned: 0 };
  for (const lesson of lessons) outcomes[lesson.outcome] += 1;

  const result: ScenarioResult = {
    learning,
    ...(operator === 'trusting' && { operator }),
    ...(options.name !== undefined && { name: options.name }),
    scenario: { from: stream.from, to: new Date(Date.parse(stream.from) + (weeks * 7 - 1) * DAY_MS).toISOString().slice(0, 10), weeks, messages: items.length },
    stack: options.stack ?? `the running stack: email agent ${urls.email}, manifest agent ${urls.manifest}`,
    weeks: finishedWeeks,
    totals: { all: sum('all'), email: sum('email'), manifest: sum('manifest') },
    lessons,
    ...(operator === 'trusting' && { corrections }),
    correctedDecisions,
    ...(evidenceQuestions.length > 0 && { evidenceQuestions }),
    ...(addedEntries.length > 0 && { addedEntries }),
    lessonOutcomes: outcomes,
    problems,
    check: { agrees: agents.every((a) => a.outcome === 'match'), agents },
    warnings,
    durationMs: Math.round(performance.now() - started),
  };
  emit({ kind: 'done', result });
  return result;
}

/** Before replaying: is the stack in the state this run assumes? Sentences, not failures. */
async function preflight(authority: AuthorityClient, learning: Learning): Promise<string[]> {
  const { collections } = await authority.collections();
  const warnings: string[] = [];
  for (const { collection, activeVersion } of collections) {
    if (activeVersion === null || activeVersion <= 1) continue;
    const lessons = (await authority.history(collection, { limit: 500 })).activations.filter((a) => a.kind === 'lesson').length;
    if (lessons === 0) continue;
    warnings.push(
      learning === 'off'
        ? `${collection} already holds ${lessons} lesson(s) (active version ${activeVersion}): with learning off, this run measures those lessons, not the baseline. Run it against a fresh stack (delete data/), or use pnpm demo:compare.`
        : `${collection} already holds ${lessons} lesson(s) (active version ${activeVersion}): week one will ask less than on a fresh stack.`,
    );
  }
  return warnings;
}

/**
 * "Remember this", as a person would tick it: the lesson is the teach block's suggestion, untouched,
 * for the entry the answer named. A person does not remember a suggestion that says something else
 * than their answer, nor a sender that writes for everyone (`remember: false` in the truth).
 */
async function remember(authority: AuthorityClient, item: StreamItem, teach: Teach, taughtBy: string, operator: Operator = 'careful'): Promise<LessonRecord> {
  const entry = lessonEntry(item, teach);
  const base = {
    file: item.file,
    week: item.week,
    agent: item.agent,
    collection: teach.collection,
    entry,
    ...(teach.suggested && { suggested: teach.suggested }),
  };
  if (item.remember === false && operator === 'careful') return { ...base, outcome: 'declined', sentence: item.why ?? 'A person would not remember this one.' };
  if (teach.suggested === undefined)
    return { ...base, outcome: 'no-suggestion', sentence: 'The question came with no suggestion, so there was nothing to confirm.' };
  if (item.agent === 'manifest') {
    const column = teach.suggested.column;
    if (typeof column !== 'string' || !sameHeading(column, item.truth.column)) {
      return {
        ...base,
        outcome: 'declined',
        sentence: `The suggestion reads ${JSON.stringify(teach.suggested)}, and the answer was the '${item.truth.column}' column.`,
      };
    }
  }
  const reason =
    item.agent === 'email'
      ? `Confirmed the suggestion while answering: mail from ${item.source} belongs to ${teach.entries.find((e) => e.key === entry)?.label ?? entry}.`
      : `Confirmed the suggestion while answering: ${item.source} heads the ${entry} column '${item.truth.column}'.`;
  try {
    const outcome = await authority.postLesson({ collection: teach.collection, entry, value: teach.suggested, taughtBy, reason });
    return { ...base, posted: teach.suggested, outcome: outcome.changed ? 'changed' : 'unchanged', version: outcome.version, sentence: outcome.audit };
  } catch (error) {
    if (error instanceof AuthorityRefused) return { ...base, posted: teach.suggested, outcome: 'refused', sentence: error.message };
    throw error;
  }
}

type Teach = NonNullable<ReturnType<typeof TeachBlockSchema.safeParse>['data']>;

/** The entry a lesson extends (SPEC §2.9): the block's own, else the answer's. */
function lessonEntry(item: StreamItem, teach: Teach): string {
  return item.agent === 'email' ? item.truth.entry : (teach.entry ?? item.truth.entry);
}

/**
 * The trusting operator's look at the preview before "remember this": a record of why the lesson is
 * not taught (the agent would refuse it, or the preview warns that it would take messages decided
 * for another entry or make decided ones undecided), or undefined to teach it. An agent that offers
 * no preview is trusted without one.
 */
async function heedPreview(agentUrl: string, token: string, item: StreamItem, teach: Teach, taughtBy: string): Promise<LessonRecord | undefined> {
  if (teach.suggested === undefined) return undefined;
  const entry = lessonEntry(item, teach);
  const base = { file: item.file, week: item.week, agent: item.agent, collection: teach.collection, entry, suggested: teach.suggested };
  const lesson = { collection: teach.collection, entry, value: teach.suggested, taughtBy, reason: 'A preview before teaching.' };
  const answer = await callMethod(agentUrl, token, LEARNABLES_METHODS.preview.jsonrpc, { lesson });
  if ('refused' in answer) {
    // Method not found: the agent offers no preview.
    if (answer.refused.code === -32601) return undefined;
    return { ...base, outcome: 'refused', sentence: answer.refused.message };
  }
  const preview = PreviewResultSchema.parse(answer.result);
  // A decision left open because the lesson shows its evidence is another entry's too (a reference shape two
  // customers issue) is what the lesson is for: the console says so as information, not as a warning.
  const unsettles = preview.counts.unsettles - (preview.counts.contested ?? 0);
  if (preview.counts.changes === 0 && unsettles === 0) return undefined;
  const said = [
    preview.counts.changes > 0 ? `${preview.counts.changes} message(s) decided for another entry would go to ${entry} instead` : '',
    unsettles > 0 ? `${unsettles} message(s) decided now would be asked about again` : '',
  ].filter((part) => part !== '');
  return { ...base, outcome: 'warned', sentence: `Answered without remembering: the preview warned that ${said.join(' and ')}.` };
}

/**
 * Take back the operator's own earlier lessons that a question shows to be wrong: a lesson that
 * named this message's sender (the original one, for a forward) for another entry, when the
 * question names that entry (as a contender, or as the holder of the sender's mark). A clerk who
 * knows whose this message is sees that the sender writes for more than that one entry.
 */
async function takeBack(
  authority: AuthorityClient,
  item: StreamItem,
  teach: Teach,
  lessons: LessonRecord[],
  corrections: CorrectionRecord[],
  taughtBy: string,
): Promise<({ correction: CorrectionRecord } | { problem: string })[]> {
  if (item.agent !== 'email') return [];
  const sender = item.source.split(' ').at(-1)?.toLowerCase() ?? '';
  const done: ({ correction: CorrectionRecord } | { problem: string })[] = [];
  for (const earlier of lessons) {
    if (earlier.outcome !== 'changed' || earlier.version === undefined || earlier.entry === item.truth.entry) continue;
    if (corrections.some((c) => c.collection === earlier.collection && c.version === earlier.version)) continue;
    const value = earlier.posted as { pattern?: unknown; where?: unknown } | undefined;
    if (value?.where !== 'from' || typeof value.pattern !== 'string') continue;
    if (!value.pattern.replace(/\\(.)/g, '$1').toLowerCase().includes(`<${sender}>`)) continue;
    const label = teach.entries.find((e) => e.key === earlier.entry)?.label ?? earlier.entry;
    if (!teach.question.includes(label)) continue;
    const reason = `Taken back: ${sender} also writes for ${item.truth.entry}, so its address is no mark of ${earlier.entry} alone.`;
    try {
      const outcome = await authority.retract({ collection: earlier.collection, version: earlier.version, author: taughtBy, reason });
      const correction = {
        file: item.file,
        week: item.week,
        collection: earlier.collection,
        entry: earlier.entry,
        version: earlier.version,
        sentence: outcome.audit,
      };
      corrections.push(correction);
      done.push({ correction });
    } catch (error) {
      done.push({ problem: `Could not take back version ${earlier.version}: ${(error as Error).message}` });
    }
  }
  return done;
}

/** The marks an email's result says decided it. */
function marksOf(task: Task): DecisionCorrection['marks'] {
  const marks = resultOf(task)?.marks;
  if (!Array.isArray(marks)) return undefined;
  return marks
    .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && typeof (m as { pattern?: unknown }).pattern === 'string')
    .map((m) => ({
      pattern: String(m.pattern),
      where: String(m.where ?? ''),
      ...(typeof m.sender === 'string' && m.sender !== '' && { sender: m.sender }),
      ...(typeof m.foundIn === 'string' && { foundIn: m.foundIn }),
      ...(typeof m.text === 'string' && { text: m.text.slice(0, 120) }),
    }));
}

/** One correction a wrong decision needs: the finding (a manifest's field) and what it should have been. */
type Fix = Pick<DecisionCorrection, 'finding' | 'decided' | 'entry' | 'none'>;

/**
 * A decision the truth disagrees with, in a sentence, with the corrections that put it right;
 * undefined when right. An email's is its customer (the truth's key; the trap scenario's nobody's
 * mail is the seed's `no-customer` entry). A manifest's are its wrong fields, each corrected to the
 * right column's heading in words, or to none where the sheet has no column for it.
 */
function misread(item: StreamItem, task: Task): { sentence: string; fixes: Fix[] } | undefined {
  const result = resultOf(task);
  if (item.agent === 'email') {
    const customer = result?.customer;
    const decided = typeof customer === 'string' ? customer : null;
    if (item.truth.none === true) {
      // Nobody's: no customer, or the entry that stands for nobody's mail, is right.
      if (decided === null || decided === item.truth.entry || result?.noCustomer === true) return undefined;
      return { sentence: `Decided ${decided} for a message that is nobody's (${item.trap ?? 'no customer'}).`, fixes: [{ decided, none: true }] };
    }
    if (customer === item.truth.entry) return undefined;
    return { sentence: `Decided ${decided ?? 'no customer'} for a message of ${item.truth.entry}.`, fixes: [{ decided, entry: item.truth.entry }] };
  }
  const wrong = wrongFields(item.truth, result?.columns as Record<string, unknown> | undefined);
  if (wrong.length === 0) return undefined;
  const said = wrong.map(
    ({ field, read, right }) =>
      `${field} from ${read === null ? 'no column' : `'${read}'`}; ${right === null ? 'the sheet has no column for it' : `it is in '${right}'`}`,
  );
  return {
    sentence: `Read ${said.join(', and ')}.`,
    fixes: wrong.map(({ field, read, right }) => ({ finding: field, decided: read, ...(right === null ? { none: true as const } : { entry: right }) })),
  };
}
