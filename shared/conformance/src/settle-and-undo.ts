// The checks of settling every question and undoing a mistake: "none of these" writes nothing
// (§2.8), preview is read-only and right (§6.5), adding an entry is idempotent (§3.5), retraction
// keeps every later activation and happens once (§5.4, §5.6).
//
// Each runs only where the declaration offers what it checks (admitsNone, addsEntries,
// methods.preview, methods.retract); where it does not, the check says so and is skipped, since an
// agent may leave each of them out. What the run publishes is recorded in `run.writes`, so that
// clean-up can take it back.
import type { AddedEntry, Json, Run } from './run-context.ts';
import {
  COMPLETED,
  INPUT_REQUIRED,
  TAUGHT_BY,
  beforeWriting,
  countTasks,
  describeError,
  isObject,
  newestActivation,
  rereadTask,
  send,
  snapshot,
  stateOf,
  suggestedLesson,
  withTenant,
  write,
  wrote,
} from './run-context.ts';
import { validate } from './validate.ts';
import { brief, extensionMetadata, taskOf, wordsOf } from './wire.ts';

const collectionOf = (run: Run): string => String(run.declaration?.collection ?? '');

/** The label of the n-th entry the run adds: its tag makes it one no deployment has yet. */
const labelFor = (run: Run, n: number): string => (n === 0 ? `learnables-check ${run.tag}` : `learnables-check ${run.tag} (${n + 1})`);

const newEntryFor = (run: Run, label: string, reason: string): Json => ({ collection: collectionOf(run), newEntry: { label }, taughtBy: TAUGHT_BY, reason });

/** What a write can change, as seen from outside: the live versions reread reports, and the newest activation on the authority. */
interface Footprint {
  readonly versions: string;
  readonly activation: number | undefined;
}

async function footprint(run: Run): Promise<Footprint> {
  const readings = run.asked && run.methods.reread ? (await rereadTask(run, run.asked.id)).readings : undefined;
  const versions = readings
    ? Object.keys(readings)
        .sort()
        .map((name) => `${name} at version ${String(readings[name]?.version)}`)
        .join(', ')
    : 'unknown';
  return { versions, activation: await newestActivation(run, collectionOf(run)) };
}

/** What changed between two footprints, as clauses. */
function moved(before: Footprint, after: Footprint): string[] {
  const out: string[] = [];
  if (before.versions !== after.versions) out.push(`the live version moved (reread read ${before.versions} before, ${after.versions} after)`);
  if (before.activation !== after.activation)
    out.push(`the authority recorded a new activation (newest id ${String(before.activation)} before, ${String(after.activation)} after)`);
  return out;
}

const said = (footprint: Footprint): string =>
  `reread still reads ${footprint.versions}${footprint.activation === undefined ? '' : ` and the authority's newest activation is still ${footprint.activation}`}`;

// ---------------------------------------------------------------------------------------------
// none (§2.6, §2.8)

/** Answer a fresh question about the same input "none of these": it completes with no winner, and nothing is written. */
export async function noneAnswer(run: Run): Promise<void> {
  const { r } = run;
  if (!run.declaration || !run.jsonrpc || !run.asked || !run.input) return; // decided by question()
  if (run.declaration.admitsNone !== true) {
    r.skip('none.writes-nothing', 'the declaration does not say admitsNone: true, so its questions are not answered "none of these" (§2.8); nothing to check');
    return;
  }
  const collection = collectionOf(run);
  // A second question about the same input: the first is answered by the pinning checks.
  const again = taskOf((await send(run, run.input.parts, true)).result);
  if (again?.status?.state !== INPUT_REQUIRED) {
    r.fail(
      'none.writes-nothing',
      `expected ${run.input.source} to ask again (a second task to answer "none of these"), got ${stateOf(again)} ${brief(wordsOf(again?.status?.message), 100)}`,
    );
    return;
  }
  const before = await footprint(run);
  const answer = await send(run, [{ data: { none: true, answeredBy: TAUGHT_BY } }], true, again);
  const done = taskOf(answer.result);
  const after = await footprint(run);

  const problems: string[] = [];
  if (done?.status?.state !== COMPLETED) {
    problems.push(
      `the answer left task ${again.id} ${done ? `${stateOf(done)} ${brief(wordsOf(done.status?.message), 100)}` : `unanswered (${describeError(answer)})`}`,
    );
  } else {
    const outcome = extensionMetadata(done);
    const verdict = validate('outcome', outcome);
    if (!verdict.ok) problems.push(`its metadata[URI] is not an Outcome (${verdict.problems})`);
    const o = isObject(outcome) ? outcome : {};
    if (o.none !== true) problems.push(`its Outcome says none: ${brief(o.none)}, not true`);
    const findings = isObject(o.findings) ? o.findings : {};
    for (const [name, finding] of Object.entries(findings)) {
      if (isObject(finding) && finding.collection === collection && finding.winner !== undefined)
        problems.push(`its finding ${name} names the winner ${brief(finding.winner)}`);
    }
  }
  problems.push(...moved(before, after));
  r.verdict(
    'none.writes-nothing',
    problems.length === 0,
    `answering { "none": true } completed task ${again.id} with no winner, and ${said(after)}`,
    `expected the answer { "none": true } to complete task ${again.id} with none: true and no winner, writing nothing, but ${problems.join('; ')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// preview (§6.5)

/** Preview the suggestion (or, with no suggestion, a new entry) and check that nothing changed. */
export async function previewReadOnly(run: Run): Promise<void> {
  const { r } = run;
  if (!run.declaration || !run.jsonrpc || !run.asked) return; // decided by question()
  if (!run.methods.preview) {
    r.skipRest('Skipped: the declaration names no preview method (methods.preview, §1.8), so there is no preview to check.', 'preview');
    return;
  }
  let params: Json;
  let kind: 'lesson' | 'entry';
  let what: string;
  const suggestion = suggestedLesson(run, 'learnables-check: preview only (SPEC §6.5); nothing is taught by this.');
  if (typeof suggestion !== 'string') {
    params = { lesson: suggestion.lesson };
    kind = 'lesson';
    what = `the suggestion ${brief(suggestion.lesson.value, 80)} for ${suggestion.entry}`;
  } else if (run.declaration.addsEntries === true) {
    const label = labelFor(run, 0);
    params = { newEntry: newEntryFor(run, label, 'learnables-check: preview only (SPEC §6.5); nothing is added by this.') };
    kind = 'entry';
    what = `the new entry "${label}" (the question offers no suggestion)`;
  } else {
    r.skipRest(`Skipped: ${suggestion}, and the declaration does not say addsEntries: true, so the kit has nothing to preview.`, 'preview');
    return;
  }

  const asked = run.asked;
  // Tasks are counted right around the preview: the footprint's reread is not preview's doing.
  const was = await footprint(run);
  const before = { ...was, tasks: await countTasks(run), task: await snapshot(run, asked.id) };
  const answer = await run.wire.rpc(run.jsonrpc.url, run.methods.preview, withTenant(params, run.jsonrpc.tenant));
  const after = { tasks: await countTasks(run), task: await snapshot(run, asked.id), ...(await footprint(run)) };

  if (answer.error || !isObject(answer.result)) {
    r.fail('preview.read-only', `expected ${run.methods.preview} of ${what} to answer a PreviewResult, got ${describeError(answer)}`);
    r.skip('preview.agrees', 'preview answered no PreviewResult, so there is nothing to compare a reread with');
    return;
  }
  const result = answer.result;
  const problems: string[] = [];
  const verdict = validate('preview-result', result);
  if (!verdict.ok) problems.push(`its answer is not a PreviewResult (${verdict.problems})`);
  if (typeof before.tasks === 'number' && typeof after.tasks === 'number' && before.tasks !== after.tasks) {
    problems.push(`ListTasks counted ${before.tasks} tasks before and ${after.tasks} after: preview created a task`);
  }
  if (before.task && after.task) {
    if (after.task.state !== before.task.state) problems.push(`task ${asked.id} went from ${before.task.state} to ${after.task.state}`);
    if (after.task.history !== before.task.history)
      problems.push(`task ${asked.id}'s history went from ${before.task.history} to ${after.task.history} messages`);
    if (after.task.timestamp !== before.task.timestamp) problems.push(`task ${asked.id}'s status timestamp moved`);
  }
  problems.push(...moved(before, after));

  const examples = (Array.isArray(result.examples) ? result.examples : []).filter(isObject);
  const counts = isObject(result.counts) ? result.counts : {};
  const listed = (effect: string) => examples.filter((e) => e.effect === effect).length;
  const truncated = [
    ['settles', counts.settles],
    ['changes', counts.changes],
    ['unsettles', counts.unsettles],
    ['still-open', counts.stillOpen],
  ].some(([effect, count]) => typeof count === 'number' && count > listed(String(effect)));
  run.previewed = {
    kind,
    what,
    examples: new Map(examples.filter((e) => e.taskId === asked.id && typeof e.finding === 'string').map((e) => [String(e.finding), e])),
    truncated,
  };
  r.verdict(
    'preview.read-only',
    problems.length === 0,
    `preview of ${what} examined ${String(result.examined)} recent tasks (${brief(counts, 100)}); ListTasks still counts ${String(after.tasks)}, task ${asked.id} is as it was, and ${said(after)}`,
    `expected preview of ${what} to answer a PreviewResult and write nothing, but ${problems.join('; ')}`,
  );
}

const readingOf = (value: unknown): { settled: unknown; winner: unknown; reads: unknown } => {
  const o = isObject(value) ? value : {};
  return { settled: o.settled, winner: o.winner, reads: o.reads };
};
const describe = (reading: { settled: unknown; winner: unknown; reads: unknown }): string =>
  `settled ${String(reading.settled)}${reading.winner === undefined ? '' : `, winner ${brief(reading.winner)}`}, ${brief(reading.reads, 80)}`;

/**
 * Once what was previewed has really been taught (stage `lesson`) or added (stage `entry`), reread
 * the asked task: each finding must read as the preview's example for it said, or, where the
 * preview listed none, as it read before.
 */
export async function previewAgrees(run: Run, stage: 'lesson' | 'entry'): Promise<void> {
  const { r } = run;
  const previewed = run.previewed;
  if (!run.asked || previewed?.kind !== stage) return; // decided by previewReadOnly, or at the other stage
  const done = stage === 'lesson' ? run.taught : run.added[0];
  if (!done) {
    r.skip(
      'preview.agrees',
      `${previewed.what} was not ${stage === 'lesson' ? 'taught (see question.suggestion-accepted)' : 'added (see entries.add-idempotent)'}, so there is no reread to compare the preview with`,
    );
    return;
  }
  if (!run.before) {
    r.skip('preview.agrees', 'the task was not reread before anything was taught (see reread.readings), so what preview left out cannot be told');
    return;
  }
  const { readings, answer } = await rereadTask(run, run.asked.id);
  if (!readings) {
    r.fail('preview.agrees', `expected reread of task ${run.asked.id} to answer readings after ${previewed.what} took effect, got ${describeError(answer)}`);
    return;
  }
  const mismatches: string[] = [];
  let compared = 0;
  for (const [name, was] of Object.entries(run.before)) {
    const example = previewed.examples.get(name);
    const now = readingOf(readings[name]);
    if (example) {
      const predicted = readingOf(example.after);
      const before = readingOf(example.now);
      compared += 1;
      if (before.settled !== was.settled || before.winner !== was.winner) {
        mismatches.push(`preview said ${name} reads ${describe(before)} now, where reread had read ${describe(readingOf(was))}`);
      }
      if (now.settled !== predicted.settled || now.winner !== predicted.winner || now.reads !== predicted.reads) {
        mismatches.push(`preview said ${name} would read ${describe(predicted)}, and reread reads ${describe(now)}`);
      }
    } else if (!previewed.truncated) {
      // No example: preview said this finding would not change.
      compared += 1;
      if (now.settled !== was.settled || now.winner !== was.winner) {
        mismatches.push(`preview listed no change for ${name}, and reread now reads ${describe(now)} where it read ${describe(readingOf(was))}`);
      }
    }
  }
  if (compared === 0) {
    r.skip(
      'preview.agrees',
      `preview listed no example for task ${run.asked.id} and counted more tasks than it listed, so what it said about this task cannot be told`,
    );
    return;
  }
  r.verdict(
    'preview.agrees',
    mismatches.length === 0,
    `after ${previewed.what} took effect (version ${done.version}), reread reads task ${run.asked.id} as preview said: ${previewed.examples.size > 0 ? [...previewed.examples.values()].map((e) => `${String(e.finding)} ${String(e.effect)}`).join(', ') : 'no change'}`,
    `expected reread after ${previewed.what} took effect (version ${done.version}) to agree with the preview, but ${mismatches.join('; ')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// entries (§3.5)

type Added = { ok: true; entry: AddedEntry; changed: boolean; via: string } | { ok: false; skip?: string; problem?: string; via?: string };

/** Add an entry by label; what came back, or why nothing did. */
async function addEntry(run: Run, label: string, reason: string): Promise<Added> {
  const written = await write(run, 'entry', newEntryFor(run, label, reason));
  if (!written) return { ok: false, skip: 'the card declares no teach method and no --authority was given, so there is nowhere to add an entry' };
  if (written.refusal) {
    return written.refusal.error === 'unauthorized'
      ? {
          ok: false,
          skip: `adding an entry needs credentials the kit was not given (${brief(written.refusal.message)}); pass ${run.methods.teach ? '--token' : '--authority-token'}`,
        }
      : { ok: false, via: written.via, problem: `${written.via} refused it: ${brief(written.refusal.message, 160)}` };
  }
  const verdict = validate('lesson-outcome', written.result);
  if (!verdict.ok) return { ok: false, via: written.via, problem: `${written.via} answered no LessonOutcome (${verdict.problems})` };
  const outcome = written.result as { entry: string; changed: boolean; version: number };
  return { ok: true, entry: { label, key: outcome.entry, version: outcome.version }, changed: outcome.changed, via: written.via };
}

export async function addEntries(run: Run): Promise<void> {
  const { r } = run;
  if (!run.declaration || !run.jsonrpc) return; // decided by card()
  if (run.declaration.addsEntries !== true) {
    r.skip('entries.add-idempotent', 'the declaration does not say addsEntries: true (§1.3), so entries are not added through it; nothing to check');
    return;
  }
  await beforeWriting(run, collectionOf(run));
  const label = labelFor(run, 0);
  const first = await addEntry(run, label, 'learnables-check: adding an entry twice must publish one version (SPEC §3.5).');
  if (!first.ok) {
    if (first.skip) r.skip('entries.add-idempotent', first.skip);
    else r.fail('entries.add-idempotent', `expected the new entry "${label}" to be added, but ${first.problem}`);
    return;
  }
  if (first.changed) {
    run.added.push(first.entry);
    wrote(run, first.entry.version, `the entry ${first.entry.key}`);
  } else {
    r.fail(
      'entries.add-idempotent',
      `expected adding "${label}", which no deployment has, to answer changed: true, got changed: false at version ${first.entry.version}`,
    );
    return;
  }
  const second = await addEntry(run, label, 'learnables-check: the same entry again; this must change nothing (SPEC §3.5).');
  const problems: string[] = [];
  if (!second.ok) problems.push(second.skip ?? second.problem ?? 'nothing came back');
  else {
    if (second.changed) {
      problems.push(
        `it answered changed: true, version ${second.entry.version}${second.entry.key === first.entry.key ? '' : `, entry ${brief(second.entry.key)}`}`,
      );
      wrote(run, second.entry.version, `the entry ${second.entry.key}, added again`);
    } else if (second.entry.version !== first.entry.version) {
      problems.push(`it answered changed: false but version ${second.entry.version}, where the first answered ${first.entry.version}`);
    }
    if (second.entry.key !== first.entry.key)
      problems.push(`the key went from ${brief(first.entry.key)} to ${brief(second.entry.key)}: keys made from a label must be the same every time`);
  }
  r.verdict(
    'entries.add-idempotent',
    problems.length === 0,
    `adding "${label}" via ${first.via} published version ${first.entry.version} with the key ${first.entry.key}; adding it again answered changed: false at the same version`,
    `expected adding "${label}" a second time to answer changed: false at version ${first.entry.version}, but ${problems.join('; ')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// retraction (§5.4, §5.6)

/** Whether an entry is in the live version, asked read-only through preview where the agent offers it. */
async function stillThere(run: Run, entry: AddedEntry): Promise<{ there: boolean; how: string; wrote?: number } | undefined> {
  if (run.methods.preview) {
    const answer = await run.wire.rpc(
      run.jsonrpc!.url,
      run.methods.preview,
      withTenant({ newEntry: newEntryFor(run, entry.label, 'learnables-check: is this entry still there?') }, run.jsonrpc!.tenant),
    );
    if (isObject(answer.result) && typeof answer.result.changed === 'boolean') {
      return { there: answer.result.changed === false, how: `preview of adding it again answered changed: ${String(answer.result.changed)}` };
    }
  }
  const again = await addEntry(run, entry.label, 'learnables-check: is this entry still there? (adding it again changes nothing if it is)');
  if (!again.ok) return undefined;
  if (again.changed) wrote(run, again.entry.version, `the entry ${again.entry.key}, added again`);
  return { there: !again.changed, how: `adding it again answered changed: ${String(again.changed)}`, ...(again.changed && { wrote: again.entry.version }) };
}

/** The later activation a retraction must keep, and how to tell it is still in effect. */
interface Later {
  readonly version: number;
  readonly what: string;
  stillThere(): Promise<{ there: boolean; how: string; wrote?: number } | undefined>;
}

const entryLater = (run: Run, entry: AddedEntry): Later => ({
  version: entry.version,
  what: `${entry.key}, added later`,
  stillThere: () => stillThere(run, entry),
});

/**
 * A second lesson to an existing entry other than `taughtEntry`, taught now: the suggestion of the
 * first other card example that asks about another entry. Why there is none, as a clause.
 */
async function secondLesson(run: Run, collection: string, taughtEntry: string): Promise<Later | string> {
  const others = run.candidates.filter((candidate) => candidate !== run.input);
  for (const candidate of others) {
    const task = taskOf((await send(run, candidate.parts, true)).result);
    if (task?.status?.state !== INPUT_REQUIRED) continue;
    const block = extensionMetadata(task);
    if (!isObject(block) || block.collection !== collection || !isObject(block.suggested)) continue;
    // The entry the question names, else (the answers are the entries) the first answer other than the taught entry.
    const answers = (Array.isArray(block.entries) ? block.entries : [])
      .filter(isObject)
      .map((choice) => choice.key)
      .filter((key): key is string => typeof key === 'string');
    const entry = typeof block.entry === 'string' ? block.entry : answers.find((key) => key !== taughtEntry);
    // Another entry: a second lesson to the same one may replace the first, and then retracting the first rightly changes nothing.
    if (entry === undefined || entry === taughtEntry) continue;
    const lesson = {
      collection,
      entry,
      value: block.suggested,
      taughtBy: TAUGHT_BY,
      reason: 'learnables-check: a later lesson, to be kept when an earlier one is retracted (SPEC §5.4).',
    };
    const written = await write(run, 'teach', lesson);
    if (!written || written.refusal)
      return `teaching the suggestion of ${candidate.source} to ${entry} was ${written ? `refused (${brief(written.refusal!.message, 120)})` : 'not possible'}`;
    const outcome = (isObject(written.result) ? written.result : {}) as { changed?: unknown; version?: unknown };
    if (outcome.changed !== true || typeof outcome.version !== 'number') return `teaching the suggestion of ${candidate.source} to ${entry} changed nothing`;
    const version = outcome.version;
    wrote(run, version, `the suggestion for ${entry}`);
    return {
      version,
      what: `the lesson of version ${version} (the suggestion for ${entry}), taught later`,
      async stillThere() {
        // Taught again, a value still in effect changes nothing; one that is gone is taught anew (and cleaned up).
        const again = await write(run, 'teach', {
          ...lesson,
          reason: 'learnables-check: is this lesson still in effect? (teaching it again changes nothing if it is)',
        });
        const result = (isObject(again?.result) ? again.result : {}) as { changed?: unknown; version?: unknown };
        if (!again || again.refusal || typeof result.changed !== 'boolean') return undefined;
        if (result.changed && typeof result.version === 'number') wrote(run, result.version, `the suggestion for ${entry}, taught again`);
        return {
          there: !result.changed,
          how: `teaching it again answered changed: ${String(result.changed)}`,
          ...(result.changed && typeof result.version === 'number' && { wrote: result.version }),
        };
      },
    };
  }
  return `no other card example asks about another entry with a suggestion (${others.length} other example(s) tried)`;
}

export async function retraction(run: Run): Promise<void> {
  const { r } = run;
  if (!run.declaration || !run.jsonrpc) return; // decided by card()
  if (!run.methods.retract && !run.options.authority) {
    r.skipRest(
      'Skipped: the declaration names no retract method (methods.retract, §1.8) and no --authority was given, so there is nothing to retract through.',
      'retraction',
    );
    return;
  }
  const collection = collectionOf(run);
  // An earlier activation of the run's own, and a later one that must outlive its retraction.
  const taught = run.taught?.changed ? run.taught : undefined;
  const [firstEntry] = run.added;
  let earlier: { version: number; what: string; lesson: boolean };
  let later: Later;
  if (!firstEntry) {
    // No entry added (addsEntries is not true): two lessons to existing entries, the suggestion and
    // the suggestion of another of the card's examples, about another entry.
    const second = taught ? await secondLesson(run, collection, taught.entry) : 'the run taught no lesson (see question.suggestion-accepted)';
    if (!taught || typeof second === 'string') {
      r.skipRest(
        `Skipped: the run added no entry (see entries.add-idempotent), and ${typeof second === 'string' ? second : 'taught nothing'}, so it has no two activations to retract one of and keep the other.`,
        'retraction',
      );
      return;
    }
    earlier = { version: taught.version, what: `the lesson of version ${taught.version} (the suggestion for ${taught.entry})`, lesson: true };
    later = second;
  } else if (taught && taught.version < firstEntry.version) {
    earlier = { version: taught.version, what: `the lesson of version ${taught.version} (the suggestion for ${taught.entry})`, lesson: true };
    later = entryLater(run, firstEntry);
  } else {
    const second = await addEntry(run, labelFor(run, 1), 'learnables-check: a later activation, to be kept when an earlier one is retracted (SPEC §5.4).');
    if (!second.ok || !second.changed) {
      const why = !second.ok ? (second.skip ?? second.problem) : `adding it answered changed: false`;
      r.skipRest(`Skipped: the run taught no lesson, and a second entry to keep could not be added (${why ?? 'no answer'}).`, 'retraction');
      return;
    }
    run.added.push(second.entry);
    wrote(run, second.entry.version, `the entry ${second.entry.key}`);
    earlier = { version: firstEntry.version, what: `the entry ${firstEntry.key} added at version ${firstEntry.version}`, lesson: false };
    later = entryLater(run, second.entry);
  }

  const body = {
    collection,
    version: earlier.version,
    author: TAUGHT_BY,
    reason: 'learnables-check: retract one activation and keep every later one (SPEC §5.4).',
  };
  const first = await write(run, 'retract', body);
  if (!first || first.refusal) {
    const unauthorized = first?.refusal?.error === 'unauthorized';
    if (!first || unauthorized) {
      r.skipRest(
        `Skipped: retracting needs ${first ? `credentials the kit was not given (${brief(first.refusal!.message)})` : 'a retract method or --authority'}.`,
        'retraction',
      );
    } else {
      r.fail(
        'retraction.keeps-later',
        `expected retracting ${earlier.what} via ${first.via} to publish a new version, got a refusal: ${brief(first.refusal!.message, 160)}`,
      );
      r.skip('retraction.once', 'the first retraction was refused, so there is nothing to retract twice');
    }
    return;
  }
  const problems: string[] = [];
  const verdict = validate('retraction-outcome', first.result);
  if (!verdict.ok) problems.push(`it answered no RetractionOutcome (${verdict.problems})`);
  const outcome = (isObject(first.result) ? first.result : {}) as { changed?: unknown; version?: unknown; retracted?: unknown; audit?: unknown };
  const version = typeof outcome.version === 'number' ? outcome.version : undefined;
  if (outcome.changed !== true) problems.push(`it answered changed: ${brief(outcome.changed)}, where a lesson in effect must be taken out`);
  if (outcome.retracted !== earlier.version) problems.push(`it says it retracted ${brief(outcome.retracted)}, not ${earlier.version}`);
  if (version === undefined || version <= later.version)
    problems.push(`it answered version ${brief(outcome.version)}, where a retraction publishes a new version above ${later.version}, the live one`);
  // Taken back already: clean-up has nothing more to undo for it.
  if (outcome.changed === true) run.writes = run.writes.filter((w) => w.version !== earlier.version);
  let live = version;

  const kept = await later.stillThere();
  if (!kept) problems.push(`the kit could not tell whether ${later.what} at version ${later.version}, is still there`);
  else if (!kept.there) problems.push(`${later.what} at version ${later.version}, is gone: ${kept.how}`);
  if (kept?.wrote !== undefined) live = kept.wrote;
  if (earlier.lesson && run.asked && run.before) {
    // The lesson's value is out: the task it settled reads as it did before the lesson.
    const { readings } = await rereadTask(run, run.asked.id);
    for (const [name, was] of Object.entries(run.before)) {
      const now = readingOf(readings?.[name]);
      if (now.settled !== was.settled || now.winner !== was.winner) {
        problems.push(`task ${run.asked.id}'s ${name} still reads ${describe(now)}, where before the lesson it read ${describe(readingOf(was))}`);
      }
    }
  } else if (!earlier.lesson && firstEntry) {
    const gone = await stillThere(run, firstEntry);
    if (gone?.there) problems.push(`${firstEntry.key} is still there after its retraction: ${gone.how}`);
    if (gone?.wrote !== undefined) live = gone.wrote;
  }
  r.verdict(
    'retraction.keeps-later',
    problems.length === 0,
    `retracting ${earlier.what} via ${first.via} published version ${String(version)} (${brief(outcome.audit, 100)}); ${later.what}, is still there (${kept?.how ?? ''})${earlier.lesson ? `, and task ${run.asked?.id ?? ''} reads as before the lesson` : ''}`,
    `expected retracting ${earlier.what} to publish a version that keeps everything published after it, but ${problems.join('; ')}`,
  );

  if (outcome.changed !== true) {
    r.skip('retraction.once', 'the first retraction changed nothing, so a second one has nothing to be compared with');
    return;
  }
  const second = await write(run, 'retract', { ...body, reason: 'learnables-check: the same retraction again; this must change nothing (SPEC §5.6).' });
  const again = (isObject(second?.result) ? second.result : {}) as { changed?: unknown; version?: unknown };
  const twice: string[] = [];
  if (!second || second.refusal) twice.push(`it was refused: ${brief(second?.refusal?.message ?? 'no answer', 160)}`);
  else {
    const valid = validate('retraction-outcome', second.result);
    if (!valid.ok) twice.push(`it answered no RetractionOutcome (${valid.problems})`);
    if (again.changed !== false)
      twice.push(`it answered changed: ${brief(again.changed)}${typeof again.version === 'number' ? `, version ${again.version}` : ''}`);
    else if (again.version !== live) twice.push(`it answered changed: false at version ${brief(again.version)}, where the live version is ${String(live)}`);
  }
  r.verdict(
    'retraction.once',
    twice.length === 0,
    `retracting version ${earlier.version} again via ${first.via} answered changed: false at version ${String(live)}: one retraction, one version`,
    `expected retracting version ${earlier.version} a second time to answer changed: false at the live version ${String(live)}, but ${twice.join('; ')}`,
  );
}
