import type { Lesson, LessonOutcome } from '@learnables/protocol';
import type { AuthorityClient } from '@learnables/authority';
import { AuthorityRefused } from '@learnables/authority';
import type { AnswerRequest, AnswerResponse, LessonRequest, LessonResponse, TeachBlockView } from '../api-types.ts';
import type { AgentDirectory, ConnectedAgent } from '../agents/agent-directory.ts';
import { ConsoleError } from '../console-error.ts';
import { loadTask, sendToAgent, withEntriesSince } from '../tasks/agent-tasks.ts';
import { taskViewOf } from '../tasks/task-view.ts';
import { rereadTask } from './reread.ts';

export interface LessonDeps {
  readonly directory: AgentDirectory;
  readonly authority: AuthorityClient;
}

/** The authority's refusal, passed on word for word with its status and the field it names. */
async function postLesson(authority: AuthorityClient, lesson: Lesson): Promise<LessonOutcome> {
  try {
    return await authority.postLesson(lesson);
  } catch (error) {
    if (error instanceof AuthorityRefused) throw new ConsoleError(error.status, error.refusal.error, error.refusal.message, error.refusal.field);
    throw new ConsoleError(502, 'authority-unreachable', `${(error as Error).message} Nothing was written and the question was not answered.`);
  }
}

/** Add the entry the person named, before the answer that names it (SPEC §3.5): idempotent for the same label. */
async function addEntry(
  deps: LessonDeps,
  agent: ConnectedAgent,
  teach: TeachBlockView,
  label: string,
  reason: string,
  operator: string,
): Promise<LessonOutcome> {
  if (!agent.view.learnable?.addsEntries) {
    throw new ConsoleError(
      400,
      'no-new-entries',
      `${agent.card.name} takes no new ${agent.view.learnable?.entry || 'entries'}; choose one of the answers.`,
      'entry',
    );
  }
  try {
    return await deps.authority.addEntry({ collection: teach.collection, newEntry: { label }, taughtBy: operator, reason });
  } catch (error) {
    if (error instanceof AuthorityRefused)
      throw new ConsoleError(error.status, error.refusal.error, error.refusal.message, error.refusal.field === undefined ? 'new-entry' : error.refusal.field);
    throw new ConsoleError(502, 'authority-unreachable', `${(error as Error).message} Nothing was written and the question was not answered.`);
  }
}

function checkEntry(teach: TeachBlockView | undefined, entry: string): void {
  if (teach && teach.entries.length > 0 && !teach.entries.some((choice) => choice.key === entry)) {
    throw new ConsoleError(
      400,
      'unknown-entry',
      `"${entry}" is not one of the answers this question offers: ${teach.entries.map((choice) => choice.label).join(', ')}.`,
      'entry',
    );
  }
}

function learnableTeach(agent: ConnectedAgent, teach: TeachBlockView | undefined): TeachBlockView {
  if (!agent.view.learnable || !teach) {
    throw new ConsoleError(400, 'not-learnable', `${agent.card.name} does not say what it can be taught on this question, so nothing can be remembered.`);
  }
  return teach;
}

/**
 * Answer a question, and if the person asked for it, remember the answer as a lesson. The lesson
 * is posted first: if the authority refuses it, the question stays unanswered, so the person can
 * fix the lesson (or untick it) without losing anything.
 */
export async function answerQuestion(deps: LessonDeps, agentId: string, taskId: string, request: AnswerRequest, operator: string): Promise<AnswerResponse> {
  const agent = await deps.directory.connect(agentId);
  const task = await loadTask(agent, taskId);
  // With the entries added since it was asked, as the answer page offered them.
  const before = await withEntriesSince(taskViewOf(task, { id: agent.id, name: agent.card.name }), deps.authority);
  if (before.state !== 'asking') {
    throw new ConsoleError(409, 'not-asking', `${agent.card.name} is no longer asking on this task (it is ${before.state}); nothing was written.`);
  }
  if (request.none) {
    if (!agent.view.learnable?.admitsNone) {
      throw new ConsoleError(400, 'needs-an-entry', `${agent.card.name} needs one of its answers on this question; “none of these” is not one.`, 'entry');
    }
    if (request.lesson) throw new ConsoleError(400, 'malformed', '“None of these” teaches nothing; untick “remember this”.', 'entry');
    const answered = await sendToAgent(agent, [{ data: { none: true, answeredBy: operator } }], { id: task.id, contextId: task.contextId });
    return { task: answered };
  }

  let added: LessonOutcome | undefined;
  let entry = request.entry ?? '';
  if (request.newEntry) {
    const teach = learnableTeach(agent, before.teach);
    if (teach.entry !== undefined)
      throw new ConsoleError(
        400,
        'no-new-entries',
        `This question asks for one of the offered answers; a new ${agent.view.learnable?.entry || 'entry'} cannot be added here.`,
        'entry',
      );
    const reason = request.lesson?.reason ?? `Added while answering ${agent.card.name}'s question.`;
    added = await addEntry(deps, agent, teach, request.newEntry.label, reason, operator);
    entry = added.entry;
  } else {
    checkEntry(before.teach, entry);
  }

  let lesson: LessonOutcome | undefined;
  if (request.lesson) {
    const teach = learnableTeach(agent, before.teach);
    lesson = await postLesson(deps.authority, {
      collection: teach.collection,
      entry: teach.entry ?? entry,
      value: { ...request.lesson.value },
      taughtBy: operator,
      reason: request.lesson.reason,
    });
  }

  // Extension-aware answer: a data part naming the entry and who chose it.
  const answer = before.teach ? { data: { entry, answeredBy: operator } } : { text: entry };
  let answered: Awaited<ReturnType<typeof sendToAgent>>;
  try {
    answered = await sendToAgent(agent, [answer], { id: task.id, contextId: task.contextId });
  } catch (error) {
    if (!lesson) throw error;
    throw new ConsoleError(
      502,
      'agent-refused',
      `The lesson was kept as version ${lesson.version} of ${lesson.collection}, but the answer did not reach the agent: ${(error as Error).message} Answer it again from the questions.`,
    );
  }
  const showBack = lesson ? await rereadTask(deps.directory, agent, taskId) : undefined;
  return { task: answered, ...(added && { added }), ...(lesson && { lesson }), ...(showBack && { showBack }) };
}

/** Teach again on a task already answered (or still asking): a lesson, then show-back. Answers nothing. */
export async function teachOnTask(deps: LessonDeps, agentId: string, taskId: string, request: LessonRequest, operator: string): Promise<LessonResponse> {
  const agent = await deps.directory.connect(agentId);
  const view = taskViewOf(await loadTask(agent, taskId), { id: agent.id, name: agent.card.name });
  const teach = learnableTeach(agent, view.teach);
  // An entry added since the question was asked is not among its entries; the authority refuses one that does not exist.
  if (!teach.entry && !agent.view.learnable?.addsEntries) checkEntry(teach, request.entry);
  const lesson = await postLesson(deps.authority, {
    collection: teach.collection,
    entry: teach.entry ?? request.entry,
    value: { ...request.value },
    taughtBy: operator,
    reason: request.reason,
  });
  return { lesson, showBack: await rereadTask(deps.directory, agent, taskId) };
}
