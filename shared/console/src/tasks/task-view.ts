import type { Message, Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import { LEARNABLES_URI, SaysSchema } from '@learnables/protocol';
import type { FindingView, TaskStateName, TaskView, TeachBlockView } from '../api-types.ts';

const STATE_NAMES: ReadonlyMap<TaskState, TaskStateName> = new Map([
  [TaskState.TASK_STATE_INPUT_REQUIRED, 'asking'],
  [TaskState.TASK_STATE_COMPLETED, 'decided'],
  [TaskState.TASK_STATE_FAILED, 'failed'],
  [TaskState.TASK_STATE_SUBMITTED, 'working'],
  [TaskState.TASK_STATE_WORKING, 'working'],
  [TaskState.TASK_STATE_CANCELED, 'canceled'],
  [TaskState.TASK_STATE_REJECTED, 'rejected'],
]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a message says in words: its text parts, joined. */
export function wordsOf(message: Message | undefined): string {
  return (message?.parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** A teach block read from a message's `metadata[URI]`, when it is one (it names a collection and entries). */
export function teachBlockOf(message: Message | undefined): TeachBlockView | undefined {
  const block = message?.metadata?.[LEARNABLES_URI];
  if (!isObject(block) || typeof block.collection !== 'string' || !Array.isArray(block.entries)) return undefined;
  const entries = block.entries.flatMap((entry: unknown) =>
    isObject(entry) && typeof entry.key === 'string'
      ? [{ key: entry.key, label: typeof entry.label === 'string' && entry.label !== '' ? entry.label : entry.key }]
      : [],
  );
  return {
    collection: block.collection,
    entries,
    ...(typeof block.question === 'string' && { question: block.question }),
    ...(typeof block.entry === 'string' && block.entry !== '' && { entry: block.entry }),
    ...(block.suggested !== undefined && { suggested: block.suggested }),
    // The learnable's words for its suggestion; anything that is not one line of words is dropped,
    // and the form falls back to the card's fields as if none had been given.
    ...(block.suggested !== undefined && SaysSchema.safeParse(block.says).success && { says: block.says as string }),
    ...(typeof block.version === 'number' && { version: block.version }),
  };
}

function versionsOf(message: Message | undefined): Record<string, number> | undefined {
  const block = message?.metadata?.[LEARNABLES_URI];
  if (!isObject(block) || !isObject(block.versions)) return undefined;
  const versions = Object.entries(block.versions).filter((pair): pair is [string, number] => typeof pair[1] === 'number');
  return versions.length > 0 ? Object.fromEntries(versions) : undefined;
}

/** What each finding of a finished task says (SPEC §4.4 Outcome), read leniently: the agent's words and the entry that won. */
function findingsOf(block: unknown): FindingView[] | undefined {
  if (!isObject(block) || !isObject(block.findings)) return undefined;
  const findings = Object.entries(block.findings).flatMap(([name, finding]): FindingView[] =>
    isObject(finding) && typeof finding.reads === 'string' && typeof finding.collection === 'string'
      ? [
          {
            name,
            settled: finding.settled === true,
            reads: finding.reads,
            collection: finding.collection,
            ...(typeof finding.winner === 'string' && { winner: finding.winner }),
          },
        ]
      : [],
  );
  return findings.length > 0 ? findings : undefined;
}

/** The last agent message in a task's history that asked a question, for a task answered since. */
function lastQuestionOf(task: Task): Message | undefined {
  return [...task.history].reverse().find((message) => message.role === Role.ROLE_AGENT && teachBlockOf(message) !== undefined);
}

/** A task as the console shows it. The summary and teach block come from the question, even after it was answered. */
export function taskViewOf(task: Task, agent: { id: string; name: string }): TaskView {
  const status = task.status?.message;
  const question = teachBlockOf(status) ? status : lastQuestionOf(task);
  const summary = status?.metadata?.summary ?? question?.metadata?.summary;
  const teach = teachBlockOf(question);
  const versions = versionsOf(status);
  const extension = status?.metadata?.[LEARNABLES_URI];
  const decidedBy = isObject(extension) && typeof extension.decidedBy === 'string' ? extension.decidedBy : undefined;
  const answeredBy = isObject(extension) && typeof extension.answeredBy === 'string' ? extension.answeredBy : undefined;
  const findings = findingsOf(extension);
  const none = isObject(extension) && extension.none === true;
  return {
    agentId: agent.id,
    agentName: agent.name,
    taskId: task.id,
    contextId: task.contextId,
    state: STATE_NAMES.get(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED) ?? 'other',
    at: task.status?.timestamp ?? '',
    said: wordsOf(status),
    ...(summary !== undefined && { summary }),
    ...(teach && { teach }),
    ...(versions && { versions }),
    ...(decidedBy !== undefined && { decidedBy }),
    ...(answeredBy !== undefined && { answeredBy }),
    ...(findings && { findings }),
    ...(none && { none: true }),
  };
}

/** Newest first, by the time each task last changed state. */
export const newestFirst = (a: TaskView, b: TaskView): number => Date.parse(b.at || '0') - Date.parse(a.at || '0') || a.taskId.localeCompare(b.taskId);
