// Correction (SPEC §6.7): a completed task's decision said to be wrong is recorded with who, why and
// what it should have been, beside the task, which stays as it was decided; the same correction
// twice records one. The kit corrects the task it asked and answered itself, then corrects it back
// to what it decided, so the agent's numbers (§6.8) do not count the kit's correction as standing.
import type { Json, Run } from './run-context.ts';
import { TAUGHT_BY, isObject, withTenant } from './run-context.ts';
import { validate } from './validate.ts';
import type { RpcAnswer } from './wire.ts';
import { brief, extensionMetadata, taskOf } from './wire.ts';

const listed = (answer: RpcAnswer): Json[] | undefined => {
  const result = isObject(answer.result) ? answer.result : undefined;
  return Array.isArray(result?.corrections) ? (result.corrections as unknown[]).filter(isObject) : undefined;
};

export async function correction(run: Run): Promise<void> {
  const { r } = run;
  const { correct, corrections } = run.methods;
  if (!correct || !corrections) {
    r.skipRest(
      'Skipped: the declaration names no correct and corrections methods (methods.correct, methods.corrections, §1.8); correcting is OPTIONAL.',
      'correction',
    );
    return;
  }
  const task = run.completed;
  const outcome = extensionMetadata(task);
  const findings = isObject(outcome) && isObject(outcome.findings) ? outcome.findings : undefined;
  // The finding the question was about when the block named it (a field), else the first one.
  const asked = run.block?.entry;
  const [name, finding] =
    (asked !== undefined && findings && Object.hasOwn(findings, asked) ? [asked, findings[asked]] : Object.entries(findings ?? {})[0]) ?? [];
  if (!task || !name || !isObject(finding)) {
    r.skipRest('Skipped: the run completed no task with a finding (see pinning.answer-completes), so there is no decision to correct.', 'correction');
    return;
  }
  const winner = typeof finding.winner === 'string' ? finding.winner : undefined;
  // A finding that named an entry is corrected to another entry; one that names none (a column read
  // for a field) takes the right value in words (§6.7), so any other words will do.
  const namesEntries = winner !== undefined || (isObject(outcome) && outcome.none === true);
  const other =
    run.block?.entries.find((entry) => entry.key !== winner && entry.key !== run.answerEntry)?.key ??
    (namesEntries ? undefined : `learnables-check ${run.tag}`);
  if (other === undefined) {
    r.skipRest(
      `Skipped: the question offered no entry other than the one task ${task.id} was decided for, so there is nothing to correct it to.`,
      'correction',
    );
    return;
  }
  const { url, tenant } = run.jsonrpc!;
  const getTask = async () => extensionMetadata(taskOf((await run.wire.rpc(url, 'GetTask', withTenant({ id: task.id }, tenant))).result));
  const list = () => run.wire.rpc(url, corrections, withTenant({ taskId: task.id }, tenant));
  const body = (to: Json, reason: string) => withTenant({ taskId: task.id, finding: name, ...to, correctedBy: TAUGHT_BY, reason }, tenant);

  const before = JSON.stringify(await getTask());
  const first = await run.wire.rpc(
    url,
    correct,
    body({ entry: other }, `learnables-check: say the decision was wrong, and that it should have been ${other} (SPEC §6.7).`),
  );
  const problems: string[] = [];
  const result = isObject(first.result) ? first.result : undefined;
  if (first.error || !result)
    problems.push(`it answered ${first.error ? `JSON-RPC error ${first.error.code}: ${brief(first.error.message)}` : `no result (HTTP ${first.status})`}`);
  else {
    const valid = validate('correction-outcome', result);
    if (!valid.ok) problems.push(`it answered no CorrectionOutcome (${valid.problems})`);
    if (result.changed !== true) problems.push(`it answered changed: ${brief(result.changed)} for a correction never made before`);
    if (result.correctedBy !== TAUGHT_BY) problems.push(`it records correctedBy ${brief(result.correctedBy)}, not ${TAUGHT_BY}`);
  }
  const after = JSON.stringify(await getTask());
  if (after !== before) problems.push(`the task's own metadata changed: it was ${brief(before, 120)} and is now ${brief(after, 120)}`);
  const recorded = listed(await list());
  if (!recorded) problems.push(`${corrections} answered no list of corrections`);
  else if (!recorded.some((item) => item.finding === name && item.correctedBy === TAUGHT_BY))
    problems.push(`${corrections} does not list it (${brief(recorded, 120)})`);
  r.verdict(
    'correction.keeps-task',
    problems.length === 0,
    `correcting task ${task.id}'s ${name} to ${other} via ${correct} was recorded (${corrections} lists it) and GetTask answers the task as it was decided`,
    `expected correcting task ${task.id}'s ${name} to ${other} to be recorded beside the task and leave it as decided, but ${problems.join('; ')}`,
  );
  if (problems.length > 0) {
    r.skip('correction.once', 'the first correction was not recorded as it should be, so a second one has nothing to be compared with');
    return;
  }

  const count = recorded?.length ?? 0;
  const second = await run.wire.rpc(url, correct, body({ entry: other }, 'learnables-check: the same correction again; this must record nothing (SPEC §6.7).'));
  const again = isObject(second.result) ? second.result : undefined;
  const twice: string[] = [];
  if (second.error || !again) twice.push(`it answered ${second.error ? `JSON-RPC error ${second.error.code}: ${brief(second.error.message)}` : 'no result'}`);
  else if (again.changed !== false) twice.push(`it answered changed: ${brief(again.changed)}`);
  const nowListed = listed(await list());
  if ((nowListed?.length ?? -1) !== count) twice.push(`${corrections} lists ${nowListed?.length ?? 'no'} corrections, where it listed ${count}`);
  r.verdict(
    'correction.once',
    twice.length === 0,
    `the same correction again answered changed: false, and ${corrections} still lists ${count}`,
    `expected the same correction a second time to record nothing, but ${twice.join('; ')}`,
  );

  // Leave the task standing as it was decided, so the agent's numbers do not count the kit's correction.
  const back = winner !== undefined ? { entry: winner } : isObject(outcome) && outcome.none === true ? { none: true } : undefined;
  if (!back) {
    run.notes.push(`Task ${task.id} stands corrected in the agent's numbers: its ${name} named no entry, so there is nothing to correct it back to.`);
  } else {
    const undone = await run.wire.rpc(
      url,
      correct,
      body(back, 'learnables-check: corrected back to what the task decided; the kit only tested correcting (SPEC §6.7).'),
    );
    if (undone.error)
      run.notes.push(`Could not correct task ${task.id} back to what it decided (${brief(undone.error.message)}): it stands corrected in the agent's numbers.`);
  }
}
