import type { AuthorityClient } from '@learnables/authority';
import type { CorrectionOutcome } from '@learnables/protocol';
import { CorrectionOutcomeSchema, explainInvalid } from '@learnables/protocol';
import type { CorrectableFinding, CorrectionRequest, CorrectionsView } from '../api-types.ts';
import type { AgentDirectory, ConnectedAgent } from '../agents/agent-directory.ts';
import { callMethod } from '../agents/call-method.ts';
import { ConsoleError } from '../console-error.ts';
import { fromAuthority } from '../history/collections.ts';
import { taskOf } from './agent-tasks.ts';

/**
 * What a decided task's findings may be corrected to: the collection's entries now for a finding
 * whose winner is one of its entries (now, or in the version that decided it) or a task that named
 * none; else nothing, and the right value is typed (a column, a verdict). The agent holds to the same rule.
 */
async function correctableFindings(authority: AuthorityClient, agent: ConnectedAgent, taskId: string): Promise<CorrectableFinding[]> {
  const task = await taskOf(agent, taskId);
  if (task.state !== 'decided' || !task.findings) return [];
  const keysOf = async (collection: string, version: number) =>
    (await authority.entries(collection, version)).entries.map((entry) => ({ key: entry.key, label: entry.label }));
  const entriesOf = new Map<string, Promise<{ now: { key: string; label: string }[]; decidedWith: Set<string> }>>();
  const lookUp = (collection: string) => {
    let found = entriesOf.get(collection);
    if (!found) {
      const pinned = task.versions && Object.hasOwn(task.versions, collection) ? task.versions[collection] : undefined;
      found = (async () => {
        const active = await authority.active(collection);
        const now = await keysOf(collection, active.version);
        const decidedWith = pinned !== undefined && pinned !== active.version ? await keysOf(collection, pinned) : now;
        return { now, decidedWith: new Set([...now, ...decidedWith].map((entry) => entry.key)) };
      })().catch((error: unknown) => {
        throw fromAuthority(error);
      });
      entriesOf.set(collection, found);
    }
    return found;
  };
  return Promise.all(
    task.findings.map(async (finding) => {
      const { now, decidedWith } = await lookUp(finding.collection);
      const namesEntries = task.none === true || (finding.winner !== undefined && decidedWith.has(finding.winner));
      return {
        name: finding.name,
        collection: finding.collection,
        reads: finding.reads,
        ...(finding.winner !== undefined && { winner: finding.winner }),
        ...(namesEntries && { choices: now }),
      };
    }),
  );
}

const outcomes = (result: unknown): CorrectionOutcome[] | string => {
  const list = (result as { corrections?: unknown } | null)?.corrections;
  if (!Array.isArray(list)) return 'it answered without a list of corrections';
  const parsed = list.map((item) => CorrectionOutcomeSchema.safeParse(item));
  const bad = parsed.find((item) => !item.success);
  return bad && !bad.success ? explainInvalid(bad.error) : parsed.flatMap((item) => (item.success ? [item.data] : []));
};

/** A decided task's corrections, oldest first, and what a new one may name (SPEC §6.7). Read-only. */
export async function correctionsOf(directory: AgentDirectory, authority: AuthorityClient, agent: ConnectedAgent, taskId: string): Promise<CorrectionsView> {
  const name = agent.card.name;
  const learnable = agent.view.learnable;
  const admitsNone = learnable?.admitsNone === true;
  if (!learnable?.correctMethod || !learnable.correctionsMethod) {
    return {
      corrections: [],
      findings: [],
      admitsNone,
      problem: `${name} does not take corrections of its decisions; teach it a lesson or take one back instead.`,
    };
  }
  const findings = await correctableFindings(authority, agent, taskId);
  const answer = await callMethod(directory, agent, learnable.correctionsMethod, { taskId });
  if ('problem' in answer) return { corrections: [], findings, admitsNone, problem: answer.problem };
  if ('refusal' in answer) return { corrections: [], findings, admitsNone, problem: `${name} could not list its corrections: ${answer.refusal.message}` };
  const listed = outcomes(answer.result);
  if (typeof listed === 'string')
    return { corrections: [], findings, admitsNone, problem: `${name} answered with corrections the console cannot read (${listed}).` };
  return { corrections: listed, findings, admitsNone };
}

/** Record that a decided task's decision was wrong; the person signed in is its author. The agent's refusal is passed on word for word. */
export async function correctTask(
  directory: AgentDirectory,
  agent: ConnectedAgent,
  taskId: string,
  request: CorrectionRequest,
  operator: string,
): Promise<CorrectionOutcome> {
  const method = agent.view.learnable?.correctMethod;
  if (!method) throw new ConsoleError(400, 'not-correctable', `${agent.card.name} does not take corrections of its decisions.`);
  const answer = await callMethod(directory, agent, method, {
    taskId,
    finding: request.finding,
    ...(request.none ? { none: true } : { entry: request.entry }),
    correctedBy: operator,
    reason: request.reason,
  });
  if ('problem' in answer) throw new ConsoleError(502, 'agent-unreachable', answer.problem);
  if ('refusal' in answer) {
    const status =
      answer.refusal.error === 'unknown-task' || answer.refusal.error === 'unknown-entry'
        ? 404
        : answer.refusal.error === 'unauthorized'
          ? 502
          : answer.refusal.error === 'malformed'
            ? 400
            : 409;
    throw new ConsoleError(status, answer.refusal.error, answer.refusal.message, answer.refusal.field === undefined ? 'correction' : answer.refusal.field);
  }
  const outcome = CorrectionOutcomeSchema.safeParse(answer.result);
  if (!outcome.success)
    throw new ConsoleError(
      502,
      'agent-answer',
      `${agent.card.name} answered the correction with something the console cannot read (${explainInvalid(outcome.error)}).`,
    );
  return outcome.data;
}
