/// <reference lib="dom" />
import type { LessonOutcome, Reading } from '@learnables/protocol';
import type { AgentView, AnswerResponse, LessonRequest, LessonResponse, ShowBack, TaskView } from '../../api-types.ts';
import { ApiFailure, postJson, segment } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h } from '../dom.ts';
import { lessonPromise } from '../honesty.ts';
import { entryHref, historyHref, taskHref } from '../routes.ts';
import { labelOf } from '../summary-items.ts';
import { lessonFields } from './lesson-fields.ts';
import { errorNotice, versionsView, warningNotice } from './notices.ts';

export interface ShowBackState {
  readonly agent: AgentView | undefined;
  /** The task as it was while asking: its teach block and summary. */
  readonly question: TaskView;
  /** The entry the person answered with. */
  readonly entry: string;
  /** How to name the answer when it is not one of the question's entries ("None of these", a new entry's name). */
  readonly label?: string;
  readonly result: AnswerResponse;
  /** What the lesson form held last, to start "teach again" from. */
  readonly lastValues?: Readonly<Record<string, string>>;
}

/** The confirmation in a sentence: what was taught, in the learnable's words when it gives them. */
function lessonLine(lesson: LessonOutcome, label: string, agentName: string): HTMLElement {
  const history = (words: string) => h('a', { href: historyHref(lesson.collection, lesson.version) }, words);
  if (!lesson.changed) return h('p', { class: 'lesson-kept' }, `${agentName} knew this already, so nothing new was written. `, history('See the history'));
  return h(
    'p',
    { class: 'lesson-kept' },
    h('strong', {}, 'Remembered: '),
    lesson.says !== undefined ? `${label}: ${lesson.says}. ` : `${lesson.audit}. `,
    history('See it in the history'),
  );
}

function readingItem(name: string, reading: Reading, teachAgain: (() => void) | undefined): HTMLElement {
  const label = h('span', { class: 'reading-name' }, labelOf(name));
  if (reading.settled) return h('li', { class: 'reading settled' }, label, h('p', { class: 'reads' }, reading.reads));
  return h(
    'li',
    { class: 'reading unsettled', role: 'alert' },
    label,
    h('p', { class: 'reads' }, reading.reads),
    h(
      'p',
      {},
      'The lesson was kept, but with it the agent still cannot decide this message. Teach it again with something this message shows, or undo the lesson in the history.',
    ),
    teachAgain && h('button', { type: 'button', class: 'secondary', onclick: teachAgain }, 'Teach again'),
  );
}

function readingsView(showBack: ShowBack | undefined, teachAgain: (() => void) | undefined): HTMLElement | undefined {
  if (!showBack) return undefined;
  if (showBack.problem !== undefined) return warningNotice(showBack.problem);
  const readings = Object.entries(showBack.readings ?? {});
  if (readings.length === 0) return warningNotice('The agent read the message again but said nothing about it.');
  return h(
    'ul',
    { class: 'readings' },
    readings.map(([name, reading]) => readingItem(name, reading, teachAgain)),
  );
}

/** After an answer: what the agent said, the lesson that was kept, and what the agent reads now. */
export function showBackView(main: HTMLElement, ctx: AppContext, state: ShowBackState): void {
  const { agent, question, entry, result } = state;
  const learnable = agent?.learnable;
  const teach = question.teach;
  const answeredLabel = state.label ?? teach?.entries.find((choice) => choice.key === entry)?.label ?? entry;
  const again = h('div', { class: 'teach-again' });

  const teachAgain =
    learnable && teach && result.lesson
      ? () => {
          const lesson = result.lesson!;
          // Teaching again means changing the lesson: the fields show at once, without the suggestion's words.
          const { says: _suggestionWords, ...withoutWords } = teach;
          const fields = lessonFields(learnable, { ...withoutWords, suggested: state.lastValues ?? teach.suggested });
          fields.setRequired(true);
          const errors = h('div', { class: 'form-errors' });
          const send = h('button', { type: 'submit', class: 'primary' }, 'Teach this');
          const form = h(
            'form',
            { class: 'card' },
            h('h2', {}, 'Teach again'),
            h('p', { class: 'honesty' }, lessonPromise(learnable.decidedBy)),
            errors,
            fields.element,
            h('div', { class: 'actions' }, send),
          );
          form.addEventListener('submit', (event) => {
            event.preventDefault();
            errors.replaceChildren();
            fields.clearErrors();
            const request: LessonRequest = { entry: lesson.entry, value: fields.values(), reason: fields.reason() };
            send.disabled = true;
            void postJson<LessonResponse>(`/agents/${segment(question.agentId)}/tasks/${segment(question.taskId)}/lessons`, request)
              .then((taught) => {
                showBackView(main, ctx, { ...state, lastValues: request.value, result: { ...result, lesson: taught.lesson, showBack: taught.showBack } });
              })
              .catch((error: unknown) => {
                send.disabled = false;
                const failure = error instanceof ApiFailure ? error.body : { error: 'internal', message: String(error) };
                if (!fields.showError(failure.field, failure.message)) errors.replaceChildren(errorNotice(failure.message));
              });
          });
          fill(again, form);
          form.querySelector<HTMLElement>('input, select, textarea')?.focus();
        }
      : undefined;

  fill(
    main,
    h('h1', { tabindex: -1 }, result.lesson ? 'What the agent reads now' : 'Answered'),
    h(
      'section',
      { class: 'card' },
      h(
        'p',
        { class: 'lead' },
        `You answered “${answeredLabel}”.`,
        result.task.said !== '' && [' ', h('span', { class: 'muted' }, `${result.task.agentName}:`), ' ', h('q', {}, result.task.said)],
      ),
      result.added &&
        h(
          'p',
          { class: 'lesson-kept' },
          result.added.changed ? `Added “${answeredLabel}” as a new ${learnable?.entry || 'entry'}. ` : `“${answeredLabel}” was there already. `,
          h('a', { href: entryHref(result.added.collection, result.added.entry) }, 'See what it holds'),
        ),
      result.lesson
        ? h('p', { class: 'muted' }, 'This message was decided with what the agent knew when it arrived; below, it is read again with the lesson.')
        : h('p', { class: 'muted' }, versionsView(result.task.versions)),
    ),
    result.lesson &&
      h(
        'section',
        { class: 'card show-back', 'aria-labelledby': 'show-back-title' },
        h('h2', { id: 'show-back-title' }, 'The same message, read again with the lesson'),
        lessonLine(result.lesson, answeredLabel, result.task.agentName),
        learnable && h('p', { class: 'honesty' }, lessonPromise(learnable.decidedBy)),
        readingsView(result.showBack, teachAgain),
      ),
    again,
    h(
      'p',
      { class: 'actions' },
      h('a', { href: '#/', class: 'button-link primary-link' }, 'Back to questions'),
      h('a', { href: taskHref(question.agentId, question.taskId), class: 'button-link' }, 'Task details'),
    ),
  );
  main.querySelector<HTMLElement>('h1')?.focus();
}
