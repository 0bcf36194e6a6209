/// <reference lib="dom" />
import type { AgentView, DecisionsResponse, QuestionsResponse, TaskView } from '../../api-types.ts';
import { getJson } from '../api.ts';
import { draftKey, hasDraft } from '../drafts.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement } from '../dom.ts';
import { questionHref, taskHref } from '../routes.ts';
import { summaryItems } from '../summary-items.ts';
import { decidedByText, problemsNotice } from './notices.ts';

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
      { href: questionHref(task.agentId, task.taskId), class: 'row-link', 'data-row-link': true },
      h('span', { class: 'row-agent' }, task.agentName),
      h('span', { class: 'row-about' }, about || question),
      about !== '' && h('span', { class: 'row-question' }, question),
    ),
    hasDraft(draftKey(task.agentId, task.taskId)) && h('span', { class: 'badge draft' }, 'draft'),
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
    h(
      'td',
      {},
      h('a', { href: taskHref(task.agentId, task.taskId) }, about || task.said || '(no words)'),
      about !== '' && task.said !== '' && h('span', { class: 'muted block' }, task.said),
    ),
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
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['When', 'Agent', 'Message', 'How'].map((title) => h('th', { scope: 'col' }, title)),
            ),
          ),
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

/** How the clerk last narrowed the list; kept while the console is open, so coming back finds it as left. */
const view = { text: '', agent: '', age: 0, order: 'newest' as 'newest' | 'oldest' | 'agent' };

const AGES: readonly (readonly [ms: number, label: string])[] = [
  [0, 'Any time'],
  [3_600_000, 'Over an hour'],
  [86_400_000, 'Over a day'],
  [7 * 86_400_000, 'Over a week'],
];

/** The questions the clerk asked to see, in the order asked for. */
export function narrowed(questions: readonly TaskView[], wanted: typeof view, now: number): TaskView[] {
  const words = wanted.text.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = questions.filter((task) => {
    if (wanted.agent !== '' && task.agentId !== wanted.agent) return false;
    if (wanted.age > 0 && now - (Date.parse(task.at) || now) < wanted.age) return false;
    if (words.length === 0) return true;
    const haystack = [
      task.agentName,
      task.said,
      aboutLine(task.summary),
      ...summaryItems(task.summary).flatMap((item) => (item.value.kind === 'text' ? [item.value.text] : item.value.kind === 'list' ? item.value.items : [])),
    ]
      .join(' ')
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  if (wanted.order === 'oldest') shown.reverse();
  if (wanted.order === 'agent') shown.sort((a, b) => a.agentName.localeCompare(b.agentName));
  return shown;
}

function toolbar(agents: readonly AgentView[], changed: () => void): HTMLElement {
  const search = h('input', { type: 'search', id: 'inbox-find', value: view.text, autocomplete: 'off', 'data-find': true, 'aria-keyshortcuts': '/' });
  search.addEventListener('input', () => {
    view.text = search.value;
    changed();
  });
  const select = (id: string, options: readonly (readonly [string, string])[], current: string, set: (value: string) => void) => {
    const element = h(
      'select',
      { id },
      options.map(([value, label]) => h('option', { value, selected: value === current }, label)),
    );
    element.addEventListener('change', () => {
      set(element.value);
      changed();
    });
    return element;
  };
  const named = agents.filter((agent) => agent.reachable);
  return h(
    'div',
    { class: 'inbox-tools', role: 'search', 'aria-label': 'Narrow the questions' },
    h('div', { class: 'tool' }, h('label', { for: 'inbox-find' }, 'Find'), search),
    named.length > 1 &&
      h(
        'div',
        { class: 'tool' },
        h('label', { for: 'inbox-agent' }, 'Agent'),
        select(
          'inbox-agent',
          [['', 'All agents'], ...named.map((agent) => [agent.id, agent.name ?? agent.id] as const)],
          view.agent,
          (value) => (view.agent = value),
        ),
      ),
    h(
      'div',
      { class: 'tool' },
      h('label', { for: 'inbox-age' }, 'Waiting'),
      select(
        'inbox-age',
        AGES.map(([ms, label]) => [String(ms), label] as const),
        String(view.age),
        (value) => (view.age = Number(value)),
      ),
    ),
    h(
      'div',
      { class: 'tool' },
      h('label', { for: 'inbox-order' }, 'Order'),
      select(
        'inbox-order',
        [
          ['newest', 'Newest first'],
          ['oldest', 'Oldest first'],
          ['agent', 'By agent'],
        ],
        view.order,
        (value) => (view.order = value as typeof view.order),
      ),
    ),
  );
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
  let last = first;
  let lastAgents = agents;

  const draw = (snapshot: QuestionsResponse, known: readonly AgentView[]) => {
    last = snapshot;
    lastAgents = known;
    const count = snapshot.questions.length;
    const shown = narrowed(snapshot.questions, view, Date.now());
    const order = view.order === 'newest' ? 'newest first' : view.order === 'oldest' ? 'oldest first' : 'by agent';
    const sentence =
      count === 0
        ? 'Nothing is waiting for an answer.'
        : shown.length === count
          ? `${count} waiting for an answer, ${order}.`
          : `${count} waiting for an answer; ${shown.length} shown, ${order}.`;
    if (lead.textContent !== sentence) lead.textContent = sentence;
    fill(problems, problemsNotice(snapshot.problems, known));
    reconcile(list, rows, shown);
    list.hidden = shown.length === 0;
    empty.textContent =
      count === 0
        ? 'When an agent cannot decide a message, its question appears here.'
        : 'No waiting question matches; clear the search or the filters to see them all.';
    empty.hidden = shown.length > 0;
    // A question that left the list was decided: the decisions below change with it.
    if (shownCount !== -1 && count < shownCount) {
      void getJson<DecisionsResponse>('/decisions?limit=8').then(
        (fresh) => fill(recent, decisionsTable(fresh)),
        () => undefined,
      );
    }
    shownCount = count;
  };
  draw(first, agents);

  fill(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', { tabindex: -1 }, 'Questions'),
      h('p', { class: 'muted hint' }, 'Press ', h('kbd', {}, '?'), ' for keyboard shortcuts'),
    ),
    toolbar(agents, () => draw(last, lastAgents)),
    lead,
    problems,
    list,
    empty,
    h('section', { class: 'recent', 'aria-labelledby': 'recent-title' }, h('h2', { id: 'recent-title' }, 'Recently decided'), recent),
  );
  ctx.watchQuestions((snapshot) => {
    void ctx.agents().then(
      (known) => draw(snapshot, known),
      () => draw(snapshot, agents),
    );
  });
}
