import type { Artifact, Message, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { OutcomeData, TeachBlock } from '@learnables/protocol';
import { LEARNABLES_URI } from '@learnables/protocol';
import type { Advanced } from './advance-task.ts';
import { agentMessage, dataPart, textPart } from './parts.ts';

export interface Outcome {
  readonly state: TaskState;
  readonly message: Message;
  readonly artifact?: Artifact;
}

const listEntries = (labels: readonly string[]): string =>
  labels.length <= 8 ? labels.join(', ') : `${labels.slice(0, 8).join(', ')} and ${labels.length - 8} more`;

/**
 * What a task says once advanced: the answer with the versions that decided it, or the question
 * in words with its teach block under `metadata[URI]` — one key a client may ignore.
 */
export function outcomeOf<Input, Result>(taskId: string, contextId: string, advanced: Advanced<Input, Result>, summary?: Record<string, unknown>): Outcome {
  const { reading, pins } = advanced;
  if (reading.settled) {
    const said = Object.values(reading.findings)
      .map((finding) => finding.reads)
      .join('\n');
    const extension: OutcomeData = {
      versions: pins,
      findings: reading.findings,
      decidedBy: advanced.answered ? 'operator' : 'rules',
      ...(advanced.answeredBy !== undefined && { answeredBy: advanced.answeredBy }),
      // Said honestly: no entry applied, or the entry came from a version later than the pin.
      ...(advanced.none && { none: true }),
      ...(advanced.addedIn && { addedIn: advanced.addedIn }),
    };
    return {
      state: TaskState.TASK_STATE_COMPLETED,
      // The summary rides along here too, so a list of what was decided can name each message.
      message: agentMessage(taskId, contextId, [textPart(said)], { [LEARNABLES_URI]: extension, ...(summary && { summary }) }),
      artifact: {
        artifactId: 'result',
        name: 'result',
        description: 'What the agent decided, and which version of each collection decided it.',
        parts: [dataPart({ result: reading.result, findings: reading.findings, versions: pins })],
        metadata: { [LEARNABLES_URI]: { versions: pins } },
        extensions: [LEARNABLES_URI],
      },
    };
  }
  const question = reading.question;
  const teach: TeachBlock = {
    collection: question.collection,
    question: question.question,
    entries: [...question.entries],
    ...(question.entry !== undefined && { entry: question.entry }),
    ...(question.suggested !== undefined && { suggested: question.suggested }),
    ...(question.suggested !== undefined && question.says !== undefined && { says: question.says }),
    version: pins[question.collection] ?? 1,
  };
  const retry = advanced.noneRefused
    ? `This question needs one of its answers; "none of these" is not one here. Answer with one of: ${listEntries(question.entries.map((e) => e.label || e.key))}. `
    : advanced.unmatchedAnswer !== undefined
      ? `"${advanced.unmatchedAnswer}" is not one of the choices; answer with one of: ${listEntries(question.entries.map((e) => e.label || e.key))}. `
      : '';
  return {
    state: TaskState.TASK_STATE_INPUT_REQUIRED,
    message: agentMessage(taskId, contextId, [textPart(`${retry}${question.question}`)], {
      [LEARNABLES_URI]: teach,
      findings: reading.findings,
      // What the input was, in the agent's own terms, for inboxes that show what is being asked about.
      ...(summary && { summary }),
    }),
  };
}

export function failureOf(taskId: string, contextId: string, sentence: string): Outcome {
  return { state: TaskState.TASK_STATE_FAILED, message: agentMessage(taskId, contextId, [textPart(sentence)]) };
}

/**
 * A task as it rests with an outcome: what the SDK makes of the artifact's event (replacing the
 * artifact of the same id in place, or adding it) and of the status event (the status, and its
 * message added to the history unless there already). For a task published once, at rest
 * (LearnablesExecutor), and one resumed after a restart (recoverTasks).
 */
export function restedTask(task: Task, outcome: Outcome, timestamp: string): Task {
  const artifact = outcome.artifact;
  const artifacts =
    artifact === undefined
      ? task.artifacts
      : task.artifacts.some((one) => one.artifactId === artifact.artifactId)
        ? task.artifacts.map((one) => (one.artifactId === artifact.artifactId ? artifact : one))
        : [...task.artifacts, artifact];
  const history = task.history.some((message) => message.messageId === outcome.message.messageId) ? task.history : [...task.history, outcome.message];
  return { ...task, artifacts, history, status: { state: outcome.state, message: outcome.message, timestamp } };
}
