/// <reference lib="dom" />
import type { DecisionsResponse, QuestionsResponse, TaskView } from '../../api-types.ts';
import { getJson } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement } from '../dom.ts';
import { questionHref, taskHref } from '../routes.ts';
import { decidedByText, problemsNotice, versionsView } from './notices.ts';
import { summaryView } from './summary-view.ts';

function questionCard(task: TaskView): HTMLElement {
  const titleId = `question-${task.agentId}-${task.taskId}`;
  return h(
    'li',
    { class: 'card question-card', 'aria-labelledby': titleId },
    h('p', { class: 'eyebrow' }, task.agentName, ' · ', timeElement(task.at)),
    h('h2', { id: titleId, class: 'question-text' }, task.said || 'The agent needs an answer.'),
    summaryView(task.summary),
    h('p', { class: 'actions' }, h('a', { href: questionHref(task.agentId, task.taskId), class: 'button-link primary-link', 'aria-describedby': titleId }, 'Answer')),
  );
}

function decisionRow(task: TaskView): HTMLElement {
  return h(
    'tr',
    {},
    h('td', {}, timeElement(task.at)),
    h('td', {}, task.agentName),
    h('td', {}, h('a', { href: taskHref(task.agentId, task.taskId) }, task.said || '(no words)')),
    h('td', {}, versionsView(task.versions) ?? ''),
    h('td', {}, decidedByText(task)),
  );
}

export async function inboxPage(main: HTMLElement, ctx: AppContext): Promise<void> {
  const [{ questions, problems }, decided, agents] = await Promise.all([
    getJson<QuestionsResponse>('/questions'),
    getJson<DecisionsResponse>('/decisions?limit=8'),
    ctx.agents(),
  ]);
  const refresh = h('button', { type: 'button', class: 'secondary', onclick: () => ctx.navigate('#/') }, 'Refresh');
  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { tabindex: -1 }, 'Questions'), refresh),
    h('p', { class: 'lead' }, questions.length === 0 ? 'Nothing is waiting for an answer.' : `${questions.length} waiting for an answer, newest first.`),
    problemsNotice(problems, agents),
    questions.length > 0
      ? h('ol', { class: 'questions' }, questions.map(questionCard))
      : h('p', { class: 'card empty' }, 'When an agent cannot decide a message, its question appears here.'),
    h(
      'section',
      { class: 'recent', 'aria-labelledby': 'recent-title' },
      h('h2', { id: 'recent-title' }, 'Recently decided'),
      decided.decisions.length === 0
        ? h('p', { class: 'muted' }, 'No task has been decided yet.')
        : h(
            'table',
            { class: 'data' },
            h('thead', {}, h('tr', {}, ['When', 'Agent', 'What it said', 'Version', 'How'].map((title) => h('th', { scope: 'col' }, title)))),
            h('tbody', {}, decided.decisions.map(decisionRow)),
          ),
    ),
  );
}
