/// <reference lib="dom" />
import type { AgentView, DecisionsResponse, QuestionsResponse, TaskView } from '../../api-types.ts';
import { getJson } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement } from '../dom.ts';
import { questionHref, taskHref } from '../routes.ts';
import { summaryItems } from '../summary-items.ts';
import { decidedByText, problemsNotice, versionsView } from './notices.ts';

/**
 * What a message is, in one line, from the agent's summary read by shape alone: its first two
 * short values (a sender and a subject, a file name and its first heading — whatever the agent put first).
 */
export function aboutLine(summary: unknown): string {
  const parts: string[] = [];
  for (const item of summaryItems(summary)) {
    if (parts.length === 2) break;
    if (item.value.kind === 'text') parts.push(item.value.text);
    else if (item.value.kind === 'list' && item.value.items[0]) parts.push(item.value.items[0]);
  }
  return parts.map((part) => (part.length > 120 ? `${part.slice(0, 119)}…` : part)).join(' · ');
}

const keyOf = (task: TaskView) => `${task.agentId}\u0000${task.taskId}`;

/** One line per question: agent, what the message is, what the agent asks, how long it has waited. */
function questionRow(task: TaskView): HTMLElement {
  const about = aboutLine(task.summary);
  const question = task.said || task.teach?.question || 'The agent needs an answer.';
  return h(
    'li',
    { class: 'question-row', 'data-task': task.taskId },
    h(
      'a',
      { href: questionHref(task.agentId, task.taskId), class: 'row-link' },
      h('span', { class: 'row-agent' }, task.agentName),
      h('span', { class: 'row-about' }, about || question),
      about !== '' && h('span', { class: 'row-question' }, question),
    ),
    h('span', { class: 'row-waiting' }, timeElement(task.at, 'waited')),
  );
}

function decisionRow(task: TaskView): HTMLElement {
  const about = aboutLine(task.summary);
  return h(
    'tr',
    {},
    h('td', { class: 'nowrap' }, timeElement(task.at)),
    h('td', {}, task.agentName),
    h('td', {}, h('a', { href: taskHref(task.agentId, task.taskId) }, about || task.said || '(no words)'), about !== '' && task.said !== '' && h('span', { class: 'muted block' }, task.said)),
    h('td', {}, versionsView(task.versions, '') ?? ''),
    h('td', {}, decidedByText(task)),
  );
}

function decisionsTable(decided: DecisionsResponse): HTMLElement {
  return decided.decisions.length === 0
    ? h('p', { class: 'muted' }, 'No task has been decided yet.')
    : h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'data' },
          h('thead', {}, h('tr', {}, ['When', 'Agent', 'Message', 'Version', 'How'].map((title) => h('th', { scope: 'col' }, title)))),
          h('tbody', {}, decided.decisions.map(decisionRow)),
        ),
      );
}

/**
 * Put the rows of `questions` in `list` in order, keeping the element of every question already
 * shown: a row with focus keeps it, and nothing under the clerk's pointer jumps needlessly.
 */
function reconcile(list: HTMLElement, rows: Map<string, HTMLElement>, questions: readonly TaskView[]): void {
  const wanted = new Map(questions.map((task) => [keyOf(task), task]));
  for (const [key, row] of rows) {
    if (!wanted.has(key)) {
      row.remove();
      rows.delete(key);
    }
  }
  let at = 0;
  for (const [key, task] of wanted) {
    let row = rows.get(key);
    if (!row) {
      row = questionRow(task);
      rows.set(key, row);
    }
    if (list.children[at] !== row) list.insertBefore(row, list.children[at] ?? null);
    at++;
  }
}

export async function inboxPage(main: HTMLElement, ctx: AppContext): Promise<void> {
  const [first, decided, agents] = await Promise.all([
    ctx.latestQuestions() ?? getJson<QuestionsResponse>('/questions'),
    getJson<DecisionsResponse>('/decisions?limit=8'),
    ctx.agents(),
  ]);
  const lead = h('p', { class: 'lead', role: 'status' });
  const problems = h('div', {});
  const list = h('ol', { class: 'questions', 'aria-label': 'Waiting questions' });
  const empty = h('p', { class: 'card empty' }, 'When an agent cannot decide a message, its question appears here.');
  const recent = h('div', {}, decisionsTable(decided));
  const rows = new Map<string, HTMLElement>();
  let shownCount = -1;

  const draw = (snapshot: QuestionsResponse, known: readonly AgentView[]) => {
    const count = snapshot.questions.length;
    if (count !== shownCount) lead.textContent = count === 0 ? 'Nothing is waiting for an answer.' : `${count} waiting for an answer, newest first.`;
    fill(problems, problemsNotice(snapshot.problems, known));
    reconcile(list, rows, snapshot.questions);
    list.hidden = count === 0;
    empty.hidden = count > 0;
    // A question that left the list was decided: the decisions below change with it.
    if (shownCount !== -1 && count < shownCount) {
      void getJson<DecisionsResponse>('/decisions?limit=8').then((fresh) => fill(recent, decisionsTable(fresh)), () => undefined);
    }
    shownCount = count;
  };
  draw(first, agents);

  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { tabindex: -1 }, 'Questions')),
    lead,
    problems,
    list,
    empty,
    h('section', { class: 'recent', 'aria-labelledby': 'recent-title' }, h('h2', { id: 'recent-title' }, 'Recently decided'), recent),
  );
  ctx.watchQuestions((snapshot) => {
    void ctx.agents().then((known) => draw(snapshot, known), () => draw(snapshot, agents));
  });
}
