/// <reference lib="dom" />
import type { AgentView, SessionResponse } from '../api-types.ts';
import { ApiFailure, deleteJson, getJson, onSignedOut } from './api.ts';
import type { AppContext } from './app-context.ts';
import { fill, h, refreshRelativeTimes } from './dom.ts';
import type { LiveQuestions } from './live.ts';
import { openLiveQuestions } from './live.ts';
import { installShortcuts } from './shortcuts.ts';
import { pruneDrafts } from './drafts.ts';
import type { Route } from './routes.ts';
import { routeOf } from './routes.ts';
import { answerPage } from './views/answer-page.ts';
import { dashboardPage } from './views/dashboard-page.ts';
import { entryPage } from './views/entry-page.ts';
import { historyPage } from './views/history-page.ts';
import { inboxPage } from './views/inbox-page.ts';
import { errorNotice } from './views/notices.ts';
import { sendPage } from './views/send-page.ts';
import { signInPage } from './views/sign-in-page.ts';
import { taskPage } from './views/task-page.ts';

const NAV: readonly { readonly href: string; readonly label: string; readonly pages: readonly Route['page'][] }[] = [
  { href: '#/', label: 'Questions', pages: ['inbox', 'question', 'task'] },
  { href: '#/send', label: 'Send', pages: ['send'] },
  { href: '#/history', label: 'History', pages: ['history', 'entry'] },
  { href: '#/dashboard', label: 'Dashboard', pages: ['dashboard'] },
];

const TITLE = 'Learnables console';
/** Relative times ("4 min") are redrawn this often. */
const TICK_MS = 30_000;
let live: LiveQuestions | undefined;
let tick: ReturnType<typeof setInterval> | undefined;
let navigateTo: ((hash: string) => void) | undefined;

function render(main: HTMLElement, ctx: AppContext, route: Route): Promise<void> {
  switch (route.page) {
    case 'inbox':
      return inboxPage(main, ctx);
    case 'question':
      return answerPage(main, ctx, route.agentId, route.taskId);
    case 'task':
      return taskPage(main, ctx, route.agentId, route.taskId);
    case 'history':
      return historyPage(main, ctx, route.collection, route.version);
    case 'entry':
      return entryPage(main, ctx, route.collection, route.entry);
    case 'dashboard':
      return dashboardPage(main, ctx);
    case 'send':
      return sendPage(main, ctx);
  }
}

function startApp(root: HTMLElement, operator: string): void {
  let agents: { at: number; pending: Promise<readonly AgentView[]> } | undefined;
  const badge = h('span', { class: 'badge count', hidden: true });
  const links = NAV.map((item) => h('a', { href: item.href }, item.label, item.href === '#/' && badge));
  // Following the link of the page already shown shows it afresh, as people expect of a link.
  for (const [index, link] of links.entries()) {
    link.addEventListener('click', (event) => {
      if (location.hash === NAV[index]!.href || (NAV[index]!.href === '#/' && location.hash === '')) {
        event.preventDefault();
        void show();
      }
    });
  }
  const main = h('main', { id: 'main', tabindex: -1 });
  let shown = 0;
  // Listeners of the page on show; dropped when another page is shown.
  let pageWatchers: (() => void)[] = [];

  live?.close();
  live = openLiveQuestions();
  live.subscribe(({ questions }) => {
    badge.textContent = String(questions.length);
    badge.hidden = questions.length === 0;
    badge.setAttribute('aria-label', `${questions.length} waiting`);
    // The count in the tab's title, so a clerk sees work arrive from another tab.
    document.title = questions.length > 0 ? `(${questions.length}) ${TITLE}` : TITLE;
  });

  const ctx: AppContext = {
    operator,
    agents(fresh = false) {
      if (fresh || !agents || Date.now() - agents.at > 10_000) {
        const pending = getJson<{ agents: AgentView[] }>('/agents').then((body) => body.agents);
        agents = { at: Date.now(), pending };
        pending.catch(() => (agents = undefined));
      }
      return agents.pending;
    },
    navigate(hash) {
      if (location.hash === hash || (hash === '#/' && location.hash === '')) void show();
      else location.hash = hash;
    },
    latestQuestions: () => live?.latest(),
    watchQuestions(listener) {
      if (live) pageWatchers.push(live.subscribe(listener));
    },
  };

  async function show(): Promise<void> {
    const route = routeOf(location.hash);
    const current = ++shown;
    for (const [index, item] of NAV.entries()) links[index]!.toggleAttribute('aria-current', item.pages.includes(route.page));
    for (const stop of pageWatchers) stop();
    pageWatchers = [];
    main.setAttribute('aria-busy', 'true');
    fill(main, h('p', { class: 'loading' }, 'Loading…'));
    try {
      await render(main, ctx, route);
    } catch (error) {
      if (current !== shown) return;
      fill(main, h('h1', { tabindex: -1 }, 'This page could not be shown'), errorNotice(error instanceof ApiFailure ? error.message : String(error)));
    }
    if (current !== shown) return;
    main.removeAttribute('aria-busy');
    main.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
  }

  const signOut = h('button', { type: 'button', class: 'link-button' }, 'Sign out');
  signOut.addEventListener('click', () => {
    stopApp();
    void deleteJson('/session').then(() => start(root));
  });
  // The hash holds the route, so the skip link moves focus itself rather than by its href.
  const skip = h('a', { href: '#/', class: 'skip-link' }, 'Skip to content');
  skip.addEventListener('click', (event) => {
    event.preventDefault();
    main.focus();
  });
  fill(
    root,
    // Inside the banner, so every piece of the page sits in a landmark (axe's `region`); still first in Tab order.
    h(
      'header',
      { class: 'top' },
      skip,
      h('a', { href: '#/', class: 'brand' }, 'Learnables console'),
      h(
        'nav',
        { 'aria-label': 'Main' },
        h(
          'ul',
          {},
          links.map((link) => h('li', {}, link)),
        ),
      ),
      h('p', { class: 'operator' }, 'Signed in as ', h('strong', {}, operator), ' ', signOut),
    ),
    main,
  );
  window.onhashchange = () => void show();
  if (!navigateTo) installShortcuts((hash) => navigateTo?.(hash));
  navigateTo = (hash) => ctx.navigate(hash);
  clearInterval(tick);
  tick = setInterval(refreshRelativeTimes, TICK_MS);
  void show();
}

/** Leave the app for the sign-in page: no stream, no timers, nothing of the last operator's on screen. */
function stopApp(): void {
  live?.close();
  live = undefined;
  clearInterval(tick);
  window.onhashchange = null;
  document.title = TITLE;
}

async function start(root: HTMLElement, ended?: string): Promise<void> {
  pruneDrafts();
  try {
    const { operator } = await getJson<SessionResponse>('/session');
    if (operator) startApp(root, operator);
    else signInPage(root, () => void start(root), ended);
  } catch (error) {
    fill(root, h('main', {}, h('h1', {}, 'The console cannot start'), errorNotice(error instanceof ApiFailure ? error.message : String(error))));
  }
}

const root = document.getElementById('app')!;
let ending = false;
onSignedOut((message) => {
  // Several requests may hear it at once; the sign-in page is shown once.
  if (ending || !live) return;
  ending = true;
  stopApp();
  void start(root, message).finally(() => (ending = false));
});
void start(root);
