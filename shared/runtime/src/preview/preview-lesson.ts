import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Definition, LearnableKind } from '@learnables/learnable';
import { MalformedLesson, UnknownCollection, absorbLesson, addEntry } from '@learnables/learnable';
import type { AuthorityClient } from '@learnables/authority';
import type { PreviewExample, PreviewResult, Reading as WireReading } from '@learnables/protocol';
import { LessonSchema, NewEntrySchema, explainInvalid } from '@learnables/protocol';
import type { Decider, Finding, LearnableAgent } from '../learnable-agent.ts';
import type { PinnedDefinitions } from '../pinned-definitions.ts';
import { pinDefinitions } from '../pinned-definitions.ts';
import type { EntryChange } from './preview-memory.ts';
import { PreviewMemory } from './preview-memory.ts';
import type { Journal } from '../storage/journal.ts';
import type { TaskLedger } from '../storage/task-ledger.ts';

/** Which recent tasks preview re-reads: the smaller of the two bounds wins. */
export interface PreviewWindow {
  /** Tasks started within this many days. Default 30. */
  readonly days?: number;
  /** At most this many, newest first. Default 5,000. */
  readonly tasks?: number;
}

export interface PreviewDeps<Input, Result> {
  readonly agent: LearnableAgent<Input, Result>;
  readonly authority: AuthorityClient;
  readonly journal: Journal;
  readonly ledger: TaskLedger;
  readonly window?: PreviewWindow;
  /** What previews keep of recent tasks between calls (agents with a Decider); one per running agent. */
  readonly memory?: PreviewMemory;
}

const DAY = 86_400_000;
/** Examples kept per effect; counts count them all. */
const EXAMPLES_PER_EFFECT = 20;
/** Re-read this many inputs, then let other requests run. */
const BATCH = 200;

type Effect = PreviewExample['effect'];

/**
 * What a lesson (or a new entry) would do, before it lands: the candidate definition is built in
 * memory by the same control plane the authority runs, from the live version, and the inputs of
 * the caller's recent tasks are read under both. Read-only: it selects from the ledger and the
 * journal and writes nothing anywhere — no task, no journal row, no pin, no version. A refusal is
 * the learnable's own, thrown exactly as teach would meet it.
 */
export async function previewLesson<Input, Result>(
  deps: PreviewDeps<Input, Result>,
  params: unknown,
  scope: { tenant: string; owner: string },
  now = Date.now(),
): Promise<PreviewResult> {
  const { agent, authority } = deps;
  const asked = (typeof params === 'object' && params !== null ? params : {}) as { lesson?: unknown; newEntry?: unknown };
  const collection = collectionOf(asked);
  const kind = agent.kinds.find((k) => k.collection === collection);
  if (!kind) throw new UnknownCollection(collection, agent.kinds.map((k) => k.collection));

  const actives = await Promise.all(agent.kinds.map((k) => authority.active(k.collection)));
  const pins = new Map(actives.map((active) => [active.collection, active.version]));
  const live = pinDefinitions(await Promise.all(agent.kinds.map((k) => authority.definition(k.collection, pins.get(k.collection)!))));
  const current = live.get(collection)!;
  const { definition, changed, audit, entry } = candidateOf(current, kind, asked);
  const candidate = pinDefinitions([...live.values(), { ...definition, version: current.version }]);

  const window = { days: deps.window?.days ?? 30, tasks: deps.window?.tasks ?? 5000 };
  const taskIds = await deps.ledger.recent(scope, now - window.days * DAY, window.tasks);
  const change: EntryChange = {
    collection,
    before: current.entries.find((e) => e.key === entry),
    after: definition.entries.find((e) => e.key === entry),
  };
  // Read twice, what the agent builds per version (the handling agent's classifier) is built off
  // the request path first, as for a task's pins: the candidate is a version no task pinned, and
  // building it inside the first read would hold the event loop (~0.5 s at 10,000 examples). A
  // Decider's findings take what they need of the candidate as they go (the email agent: a patch).
  // The live version too: what was built for it may have been put out since.
  if (!agent.decider) {
    await agent.prepare?.(live).catch(() => undefined);
    if (changed) await agent.prepare?.(candidate).catch(() => undefined);
  }
  const readings = agent.decider
    ? decideFast(agent.decider, deps, taskIds, live, candidate, changed ? change : undefined)
    : readTwice(agent, deps.journal, taskIds, live, candidate, changed);

  const counts = { settles: 0, changes: 0, unsettles: 0, stillOpen: 0 };
  const examples: PreviewExample[] = [];
  const kept = new Map<Effect, number>();
  let examined = 0;
  for await (const { taskId, before, after } of readings) {
    examined += 1;
    for (const [name, was] of Object.entries(before)) {
      if (was.collection !== collection) continue;
      const will = after[name] ?? was;
      const effect = effectOf(was, will);
      if (effect === undefined) continue;
      counts[effect === 'still-open' ? 'stillOpen' : effect] += 1;
      const shown = kept.get(effect) ?? 0;
      if (shown >= EXAMPLES_PER_EFFECT) continue;
      kept.set(effect, shown + 1);
      examples.push({ taskId, finding: name, effect, now: wire(was, current.version), after: wire(will, current.version) });
    }
  }
  return { collection, entry, changed, audit, version: current.version, examined, counts, examples };
}

type Findings = Readonly<Record<string, Finding>>;

/** One recent task's findings under the live definitions and under the candidate, newest task first. */
interface TwoReadings {
  readonly taskId: string;
  readonly before: Findings;
  readonly after: Findings;
}

/**
 * The plain way, for any agent: each recorded input read under both definitions with `read`
 * (questions, suggestions and all, which preview throws away).
 */
async function* readTwice<Input, Result>(
  agent: LearnableAgent<Input, Result>,
  journal: Journal,
  taskIds: readonly string[],
  live: PinnedDefinitions,
  candidate: PinnedDefinitions,
  changed: boolean,
): AsyncGenerator<TwoReadings> {
  const inputs = await journal.recordedFor(taskIds, 'parse');
  for (const [index, taskId] of taskIds.entries()) {
    if (index > 0 && index % BATCH === 0) await yieldToLoop();
    if (!inputs.has(taskId)) continue;
    const input = inputs.get(taskId) as Input;
    let before: Findings;
    let after: Findings;
    try {
      before = agent.read(input, live).findings;
      after = changed ? agent.read(input, candidate).findings : before;
    } catch {
      // An input the agent no longer reads (e.g. its category is gone) says nothing about the lesson.
      continue;
    }
    yield { taskId, before, after };
  }
}

/**
 * The quick way, for an agent with a Decider: the evidence of each recent task is taken from the
 * runtime's PreviewMemory (read from the journal and kept, the first time), its findings under the
 * live definitions too (decided again only for what changed since the last preview, as `affects`
 * says), and the candidate decides again only the inputs the lesson's entry can reach. It decides
 * exactly as `readTwice` does: `test/preview-fast-path.test.ts` compares the two.
 */
async function* decideFast<Input, Result>(
  decider: Decider<Input, unknown>,
  deps: PreviewDeps<Input, Result>,
  taskIds: readonly string[],
  live: PinnedDefinitions,
  candidate: PinnedDefinitions,
  change: EntryChange | undefined,
): AsyncGenerator<TwoReadings> {
  const memory = deps.memory ?? new PreviewMemory();
  const reachedBy = reachedByOf(decider);
  const at = memory.liveAt(live, reachedBy);
  const lessonReaches = change === undefined ? () => false : (reachedBy([change]) ?? (() => true));

  // Evidence: kept, or read from the journal once and kept.
  const evidence = new Map<string, unknown>();
  const missing: string[] = [];
  for (const taskId of taskIds) {
    const kept = memory.evidence(taskId);
    if (kept === undefined) missing.push(taskId);
    else evidence.set(taskId, kept.evidence);
  }
  if (missing.length > 0) {
    const inputs = await deps.journal.recordedFor(missing, 'parse');
    let done = 0;
    for (const [taskId, input] of inputs) {
      if (++done % BATCH === 0) await yieldToLoop();
      try {
        const found = decider.evidence(input as Input);
        evidence.set(taskId, found);
        memory.keep(taskId, found, decider.sizeOf(found));
      } catch {
        // An input the agent can no longer read says nothing about the lesson (as in readTwice).
      }
    }
  }

  for (const [index, taskId] of taskIds.entries()) {
    if (index > 0 && index % BATCH === 0) await yieldToLoop();
    if (!evidence.has(taskId)) continue;
    const found = evidence.get(taskId);
    let before: Findings;
    let after: Findings;
    try {
      const known = memory.findings(taskId, at);
      before = known ?? decider.findings(found, live);
      if (known === undefined) memory.decided(taskId, before, at);
      after = lessonReaches(found) ? decider.findings(found, candidate) : before;
    } catch {
      continue;
    }
    yield { taskId, before, after };
  }
}

/**
 * Fill preview's memory ahead of the first preview, off the request path: the evidence of this
 * agent's recent tasks (the same window a preview reads, of every scope) and their findings under
 * the live definitions, read from the journal 200 at a time with the event loop given back between
 * batches. A preview that comes meanwhile does what is left itself; either way the memory holds
 * what a preview would have put there (the same Decider calls), so answers do not change — only
 * the first preview's wait (1.4–2.2 s cold at 5,000 tasks and 10,000 marks). Resolves with how
 * many tasks were kept; does nothing for an agent without a Decider.
 */
export async function warmPreview<Input, Result>(deps: PreviewDeps<Input, Result>, now = Date.now(), signal?: AbortSignal): Promise<number> {
  const { agent, authority } = deps;
  const decider = agent.decider;
  const memory = deps.memory;
  if (decider === undefined || memory === undefined) return 0;
  const actives = await Promise.all(agent.kinds.map((k) => authority.active(k.collection)));
  const live = pinDefinitions(await Promise.all(actives.map((active) => authority.definition(active.collection, active.version))));
  await agent.prepare?.(live).catch(() => undefined);
  const window = { days: deps.window?.days ?? 30, tasks: deps.window?.tasks ?? 5000 };
  const taskIds = await deps.ledger.recentOfAll(now - window.days * DAY, window.tasks);
  // Findings are kept only under this generation: a preview with newer live definitions meanwhile
  // moves the memory on, and what is decided here after that is not kept (the evidence still is).
  const at = memory.liveAt(live, reachedByOf(decider));
  let kept = 0;
  for (let start = 0; start < taskIds.length; start += BATCH) {
    await yieldToLoop();
    if (signal?.aborted === true) break;
    const batch = taskIds.slice(start, start + BATCH).filter((taskId) => memory.evidence(taskId) === undefined);
    const inputs = await deps.journal.recordedFor(batch, 'parse');
    for (const [taskId, input] of inputs) {
      try {
        const found = decider.evidence(input as Input);
        memory.keep(taskId, found, decider.sizeOf(found));
        if (memory.findings(taskId, at) === undefined) memory.decided(taskId, decider.findings(found, live), at);
        kept += 1;
      } catch {
        // An input the agent can no longer read says nothing about a lesson (as in a preview).
      }
    }
  }
  return kept;
}

/** Which evidence a set of entry changes can reach, by the decider's `affects` (undefined: it cannot say). */
function reachedByOf(decider: Decider<any, unknown>): (changes: readonly EntryChange[]) => ((evidence: unknown) => boolean) | undefined {
  return (changes) => {
    const affects = decider.affects;
    if (affects === undefined) return undefined;
    const tests = changes.map((c) => affects.call(decider, c.collection, c.before, c.after));
    return (evidence: unknown) => tests.some((reaches) => reaches(evidence));
  };
}

function collectionOf(asked: { lesson?: unknown; newEntry?: unknown }): string {
  const given = (asked.lesson ?? asked.newEntry) as { collection?: unknown } | undefined;
  if ((asked.lesson === undefined) === (asked.newEntry === undefined) || typeof given !== 'object' || given === null) {
    throw new MalformedLesson('Preview needs either a lesson or a newEntry to try, and only one.');
  }
  if (typeof given.collection !== 'string') throw new MalformedLesson('That lesson cannot be read: collection must be a string.');
  return given.collection;
}

function candidateOf(
  current: Definition,
  kind: LearnableKind,
  asked: { lesson?: unknown; newEntry?: unknown },
): { definition: Definition; changed: boolean; audit: string; entry: string } {
  if (asked.lesson !== undefined) {
    const lesson = LessonSchema.safeParse(asked.lesson);
    if (!lesson.success) throw new MalformedLesson(`That lesson cannot be read: ${explainInvalid(lesson.error)}.`);
    return { ...absorbLesson(current, lesson.data), entry: lesson.data.entry };
  }
  const newEntry = NewEntrySchema.safeParse(asked.newEntry);
  if (!newEntry.success) throw new MalformedLesson(`That new entry cannot be read: ${explainInvalid(newEntry.error)}.`);
  return addEntry(current, kind, newEntry.data);
}

/** How a finding moves from the live version to the candidate, if it is worth reporting. */
function effectOf(was: Finding, will: Finding): Effect | undefined {
  if (!was.settled) return will.settled ? 'settles' : 'still-open';
  if (!will.settled) return 'unsettles';
  return was.winner !== will.winner ? 'changes' : undefined;
}

const wire = (finding: Finding, version: number): WireReading => ({
  settled: finding.settled,
  ...(finding.winner !== undefined && { winner: finding.winner }),
  reads: finding.reads,
  version,
});
