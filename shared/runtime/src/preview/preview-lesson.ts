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
import type { Corrections } from '../storage/corrections.ts';
import type { PreviewBudget } from './preview-budget.ts';
import { CHUNK_BYTES, DEFAULT_PREVIEW_BUDGET, PreviewSpend } from './preview-budget.ts';
import { parseInPieces } from './json-in-pieces.ts';

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
  /** Where what people corrected is kept: with answers, the truth a lesson is held to (SPEC §6.5). */
  readonly corrections?: Pick<Corrections, 'latestFor'>;
  /** What one preview may spend (time, bytes read); see PreviewBudget. */
  readonly budget?: PreviewBudget;
}

const DAY = 86_400_000;
/** Examples kept per effect; counts count them all. */
const EXAMPLES_PER_EFFECT = 20;

type Effect = PreviewExample['effect'];
/** What a person said a finding is: an answer to its question, or the latest correction of it. */
type Said = NonNullable<PreviewExample['said']>;

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
  if (!kind)
    throw new UnknownCollection(
      collection,
      agent.kinds.map((k) => k.collection),
    );

  const actives = await Promise.all(agent.kinds.map((k) => authority.active(k.collection)));
  const pins = new Map(actives.map((active) => [active.collection, active.version]));
  const live = pinDefinitions(await Promise.all(agent.kinds.map((k) => authority.definition(k.collection, pins.get(k.collection)!))));
  const current = live.get(collection)!;
  const { definition, changed, audit, says, entry } = candidateOf(current, kind, asked);
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
  const spend = new PreviewSpend({ ...DEFAULT_PREVIEW_BUDGET, ...deps.budget });
  const readings = agent.decider
    ? decideFast(agent.decider, deps, taskIds, live, candidate, changed ? change : undefined, spend)
    : readTwice(agent, deps.journal, taskIds, live, candidate, changed, spend);

  // Every finding the lesson would move, in task order; judged once what people said of them is known.
  const moved: { taskId: string; name: string; was: Finding; will: Finding }[] = [];
  let examined = 0;
  let tried = 0;
  let tooLarge = 0;
  for await (const tried_ of readings) {
    tried += 1;
    if (tried_.tooLarge) tooLarge += 1;
    if (tried_.readings === undefined) continue;
    const { before, after } = tried_.readings;
    examined += 1;
    for (const [name, was] of Object.entries(before)) {
      if (was.collection !== collection) continue;
      const will = after[name] ?? was;
      if (effectOf(was, will) !== undefined) moved.push({ taskId: tried_.taskId, name, was, will });
    }
  }

  // What people said (answers, then corrections over them) is the truth for the tasks whose reading
  // the lesson would settle: read for those only, so its cost follows what the lesson does.
  const settledBy = [...new Set(moved.filter((m) => m.will.settled).map((m) => m.taskId))];
  const said = await saidOf(deps, settledBy);

  const counts = { settles: 0, changes: 0, unsettles: 0, stillOpen: 0, against: 0, contested: 0 };
  const examples: PreviewExample[] = [];
  const kept = new Map<Effect, number>();
  for (const { taskId, name, was, will } of moved) {
    const word = said.get(taskId)?.get(name);
    const effect = judged(was, will, word)!;
    counts[effect === 'still-open' ? 'stillOpen' : effect] += 1;
    if (effect === 'changes' && word !== undefined && will.settled) counts.against += 1;
    if (effect === 'unsettles' && will.contested === true) counts.contested += 1;
    const shown = kept.get(effect) ?? 0;
    if (shown >= EXAMPLES_PER_EFFECT) continue;
    kept.set(effect, shown + 1);
    examples.push({
      taskId,
      finding: name,
      effect,
      now: wire(was, current.version),
      after: wire(will, current.version),
      ...(word !== undefined && { said: word }),
    });
  }
  return {
    collection,
    entry,
    changed,
    audit,
    ...(says !== undefined && { says }),
    version: current.version,
    examined,
    counts,
    examples,
    recent: taskIds.length,
    tried,
    ...(tooLarge > 0 && { tooLarge }),
    ...(spend.ended !== undefined && { budget: spend.ended }),
  };
}

/**
 * What people said of these tasks' findings: the answer each question was given (a finding asked
 * about and settled by the answer), then the latest correction of it over that. Read-only.
 */
async function saidOf(
  deps: Pick<PreviewDeps<unknown, unknown>, 'journal' | 'corrections'>,
  taskIds: readonly string[],
): Promise<Map<string, Map<string, Said>>> {
  const out = new Map<string, Map<string, Said>>();
  if (taskIds.length === 0) return out;
  const put = (taskId: string, name: string, word: Said) => {
    const findings = out.get(taskId) ?? new Map<string, Said>();
    findings.set(name, word);
    out.set(taskId, findings);
  };
  for (const [taskId, { asked, answered }] of await deps.journal.answersFor(taskIds)) {
    const before = findingsOf(asked);
    for (const [name, finding] of findingsOf(answered)) {
      // Only what the question was about: a finding settled already was the rules', not the person's.
      if (finding.settled !== true || before.get(name)?.settled !== false) continue;
      put(taskId, name, typeof finding.winner === 'string' ? { by: 'answer', entry: finding.winner } : { by: 'answer', none: true });
    }
  }
  for (const [taskId, findings] of (await deps.corrections?.latestFor(taskIds)) ?? []) {
    for (const [name, latest] of findings) {
      put(taskId, name, latest.none === true || latest.entry === undefined ? { by: 'correction', none: true } : { by: 'correction', entry: latest.entry });
    }
  }
  return out;
}

/** A recorded reading's findings by name, or none (a journal row is data, read as such: names are Map keys). */
function findingsOf(reading: unknown): Map<string, { settled?: unknown; winner?: unknown }> {
  const findings = (reading as { findings?: unknown } | null | undefined)?.findings;
  if (typeof findings !== 'object' || findings === null) return new Map();
  return new Map(
    Object.entries(findings as Record<string, unknown>).filter(
      (entry): entry is [string, { settled?: unknown; winner?: unknown }] => typeof entry[1] === 'object' && entry[1] !== null,
    ),
  );
}

/**
 * A moved finding's effect, held to what a person said of it when one did: a candidate that settles
 * it as they said `settles` it (even where the live rules decided otherwise, since corrected), one
 * that settles it otherwise `changes` it (it takes a message from what they said, "none" too).
 */
function judged(was: Finding, will: Finding, word: Said | undefined): Effect | undefined {
  const effect = effectOf(was, will);
  if (effect === undefined || word === undefined || !will.settled) return effect;
  const said = word.none === true ? undefined : word.entry;
  return will.winner === said ? 'settles' : 'changes';
}

type Findings = Readonly<Record<string, Finding>>;

/** One recent task tried, newest first: its findings under the live definitions and under the candidate, if it could be read. */
interface Tried {
  readonly taskId: string;
  readonly readings?: { readonly before: Findings; readonly after: Findings };
  /** Its recorded input is larger than a preview reads (`inputBytes`): not read. */
  readonly tooLarge?: true;
}

/**
 * The recorded inputs of `taskIds` that `wanted` asks for, in their order (others, and tasks that
 * recorded none, come as undefined), read from the journal at most CHUNK_BYTES at a time (a larger
 * input alone), each taken from `spend`'s bytes first: it stops at the first that does not fit, or
 * when its time is up. Nothing more than a chunk is held at once.
 */
async function* recordedInputs(
  journal: Journal,
  taskIds: readonly string[],
  spend: PreviewSpend,
  wanted: (taskId: string) => boolean = () => true,
): AsyncGenerator<{ taskId: string; input: unknown; tooLarge?: true }> {
  const sizes = await journal.sizesFor(taskIds.filter(wanted), 'parse');
  let at = 0;
  while (at < taskIds.length) {
    if (!(await spend.pace())) return;
    const chunk: string[] = [];
    const reading: string[] = [];
    const large = new Set<string>();
    let bytes = 0;
    let ending = false;
    for (let next = at; next < taskIds.length && chunk.length < 1000; next++) {
      const taskId = taskIds[next]!;
      const size = sizes.get(taskId);
      if (size !== undefined && size > spend.inputBytes) {
        large.add(taskId);
      } else if (size !== undefined) {
        if (reading.length > 0 && bytes + size > CHUNK_BYTES) break;
        if (!spend.take(size)) {
          ending = true;
          break;
        }
        reading.push(taskId);
        bytes += size;
      }
      chunk.push(taskId);
    }
    const texts = reading.length === 0 ? new Map<string, string>() : await journal.recordedTextFor(reading, 'parse');
    for (const taskId of chunk) {
      if (large.has(taskId)) {
        yield { taskId, input: undefined, tooLarge: true };
        continue;
      }
      // Parsed in pieces of about a millisecond, the loop given back between them as the slices
      // say: a sheet's one JSON.parse held /healthz 73-277 ms (issue 34, worst-input bench).
      const text = texts.get(taskId);
      yield { taskId, input: text === undefined ? undefined : await parseInPieces(text, () => spend.pace()) };
    }
    if (ending) return;
    at += chunk.length;
  }
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
  spend: PreviewSpend,
): AsyncGenerator<Tried> {
  for await (const { taskId, input, tooLarge } of recordedInputs(journal, taskIds, spend)) {
    // Each input is read whole, then the loop is given back once a slice is used up.
    if (!(await spend.pace())) return;
    if (tooLarge) {
      yield { taskId, tooLarge };
      continue;
    }
    if (input === undefined) {
      yield { taskId };
      continue;
    }
    let before: Findings;
    let after: Findings;
    try {
      before = agent.read(input as Input, live).findings;
      // A turn of the loop between the two readings, if the slice is used up (a wide sheet's each
      // takes up to ~27 ms); a time that ends here ends the preview at the next task, as before.
      if (changed) await spend.pace();
      after = changed ? agent.read(input as Input, candidate).findings : before;
    } catch {
      // An input the agent no longer reads (e.g. its category is gone) says nothing about the lesson.
      yield { taskId };
      continue;
    }
    yield { taskId, readings: { before, after } };
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
  spend: PreviewSpend,
): AsyncGenerator<Tried> {
  const memory = deps.memory ?? new PreviewMemory();
  const reachedBy = reachedByOf(decider);
  const at = memory.liveAt(live, reachedBy);
  const lessonReaches = change === undefined ? () => false : (reachedBy([change]) ?? (() => true));

  // Evidence: kept, or read from the journal (within the budget) and kept.
  // What is kept now is held here for this preview: keeping the inputs read meanwhile may push it out.
  const kept = new Map<string, unknown>();
  const missing = new Set<string>();
  for (const taskId of taskIds) {
    const known = memory.evidence(taskId);
    if (known === undefined) missing.add(taskId);
    else kept.set(taskId, known.evidence);
  }
  for await (const { taskId, input, tooLarge } of recordedInputs(deps.journal, taskIds, spend, (id) => missing.has(id))) {
    if (!(await spend.pace())) return;
    let found: unknown;
    if (missing.has(taskId)) {
      if (tooLarge) {
        yield { taskId, tooLarge };
        continue;
      }
      if (input === undefined) {
        yield { taskId };
        continue;
      }
      try {
        found = decider.evidence(input as Input);
        memory.keep(taskId, found, decider.sizeOf(found));
      } catch {
        // An input the agent can no longer read says nothing about the lesson (as in readTwice).
        yield { taskId };
        continue;
      }
    } else {
      found = kept.get(taskId);
    }
    let before: Findings;
    let after: Findings;
    try {
      const known = memory.findings(taskId, at);
      before = known ?? decider.findings(found, live);
      if (known === undefined) memory.decided(taskId, before, at);
      const reaches = lessonReaches(found);
      // As in readTwice: the loop may take a turn between the two decisions.
      if (reaches && known === undefined) await spend.pace();
      after = reaches ? decider.findings(found, candidate) : before;
    } catch {
      yield { taskId };
      continue;
    }
    yield { taskId, readings: { before, after } };
  }
}

/**
 * Fill preview's memory ahead of the first preview, off the request path: the evidence of this
 * agent's recent tasks (the same window a preview reads, of every scope) and their findings under
 * the live definitions, read from the journal about 1 MB at a time with the event loop given back
 * every few milliseconds. A preview that comes meanwhile does what is left itself; either way the memory holds
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
  // Unbounded in time and bytes (it runs in the background, once), but read by chunks and paced by
  // time slices as a preview is.
  const spend = new PreviewSpend({ ...DEFAULT_PREVIEW_BUDGET, milliseconds: Number.POSITIVE_INFINITY, bytes: Number.POSITIVE_INFINITY });
  const missing = new Set(taskIds.filter((taskId) => memory.evidence(taskId) === undefined));
  for await (const { taskId, input } of recordedInputs(deps.journal, taskIds, spend, (id) => missing.has(id))) {
    await spend.pace();
    if (signal?.aborted === true) break;
    if (input === undefined || memory.evidence(taskId) !== undefined) continue;
    try {
      const found = decider.evidence(input as Input);
      memory.keep(taskId, found, decider.sizeOf(found));
      if (memory.findings(taskId, at) === undefined) memory.decided(taskId, decider.findings(found, live), at);
      kept += 1;
    } catch {
      // An input the agent can no longer read says nothing about a lesson (as in a preview).
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
): { definition: Definition; changed: boolean; audit: string; says?: string; entry: string } {
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
  ...(finding.contested === true && { contested: true as const }),
});
