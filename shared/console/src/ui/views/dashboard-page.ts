/// <reference lib="dom" />
import type { StatsResponse } from '../../api-types.ts';
import type { ReplayState } from '../../http/replay-job.ts';
import type { AppContext } from '../app-context.ts';
import { ApiFailure, getJson, postJson } from '../api.ts';
import { fill, h, uniqueId } from '../dom.ts';
import { headlinePeriod, MIN_MESSAGES, periodLabel, sharedScaleMax } from '../chart-geometry.ts';
import { chartView } from './chart-view.ts';
import { historyHref } from '../routes.ts';
import { warningNotice } from './notices.ts';

type AgentStats = StatsResponse['agents'][number];

function headline(stats: AgentStats): HTMLElement {
  const chosen = headlinePeriod(stats.periods);
  const latest = stats.periods.at(-1);
  const earliest = stats.periods.find((period) => period.messages >= MIN_MESSAGES);
  if (!chosen) {
    return h(
      'p',
      { class: 'headline few' },
      `No week has ${MIN_MESSAGES} messages yet, too few for a figure worth a headline; the chart shows each week with its count.`,
    );
  }
  return h(
    'p',
    { class: 'headline' },
    h('span', { class: 'figure' }, String(chosen.questionsPer100)),
    ` questions per 100 messages in the week of ${periodLabel(chosen.period)} (${chosen.messages} messages`,
    (chosen.corrected ?? 0) > 0 && `; ${decisions(chosen.corrected ?? 0)} corrected later`,
    ')',
    earliest && earliest !== chosen && h('span', { class: 'muted' }, ` — ${earliest.questionsPer100} in the week of ${periodLabel(earliest.period)}`),
    latest &&
      latest !== chosen &&
      h(
        'span',
        { class: 'muted block' },
        ` Later weeks had fewer than ${MIN_MESSAGES} messages (${latest.messages} in the week of ${periodLabel(latest.period)}), too few to count.`,
      ),
  );
}

const decisions = (count: number) => `${count} decision${count === 1 ? '' : 's'}`;

/**
 * Beside questions per 100: how many decisions were later said to be wrong (SPEC §6.8), because a
 * line that falls by deciding wrongly is worse than a flat one. Only what the agent recorded counts.
 */
function correctionsLine(stats: AgentStats): HTMLElement {
  const taken = stats.takenBack;
  const takenBack = taken !== undefined &&
    taken.lessons > 0 && [
      ' ',
      h('a', { href: historyHref(taken.collection) }, `${taken.atLeast ? 'At least ' : ''}${taken.lessons} lesson${taken.lessons === 1 ? '' : 's'} taken back`),
      '.',
    ];
  if (!stats.periods.some((period) => period.corrected !== undefined)) {
    return h(
      'p',
      { class: 'corrections-line muted' },
      `${stats.name} does not count decisions corrected later, so a falling line here cannot show whether it fell by deciding wrongly.`,
      takenBack,
    );
  }
  const corrected = stats.periods.reduce((sum, period) => sum + (period.corrected ?? 0), 0);
  const unasked = stats.periods.reduce((sum, period) => sum + (period.correctedUnasked ?? 0), 0);
  if (corrected === 0) {
    return h(
      'p',
      { class: 'corrections-line' },
      'No decision corrected later.',
      takenBack,
      ' ',
      h('span', { class: 'muted' }, 'A person who finds one wrong says so on its task page.'),
    );
  }
  return h(
    'p',
    { class: 'corrections-line warn' },
    h('strong', {}, `${decisions(corrected)} corrected later`),
    unasked > 0
      ? ` (${unasked === corrected ? (corrected === 1 ? 'made' : 'all made') : `${unasked} of them made`} without asking)`
      : ' (all answered by a person)',
    '.',
    takenBack,
    ' ',
    h('span', { class: 'muted' }, 'Counted in the week of the message; a line that falls by deciding wrongly is worse than a flat one.'),
  );
}

function agentPanel(stats: AgentStats, yMax: number): HTMLElement {
  const titleId = `stats-${stats.agentId}`;
  const counted = stats.periods.some((period) => period.messages > 0);
  return h(
    'section',
    { class: 'card stats', id: `panel-${stats.agentId}`, 'aria-labelledby': titleId },
    h('h2', { id: titleId }, stats.name),
    stats.problem !== undefined
      ? warningNotice(stats.problem)
      : !counted
        ? h('p', { class: 'muted' }, 'No messages counted yet.')
        : [
            headline(stats),
            correctionsLine(stats),
            chartView(stats.periods, `Questions per 100 messages, ${stats.name}, by week`, yMax),
            h(
              'details',
              {},
              h('summary', {}, 'The numbers'),
              // Five columns are wider than a phone: the table scrolls in its own box (focusable, so a keyboard can scroll it), never the page.
              h(
                'div',
                { class: 'table-wrap', tabindex: 0, role: 'group', 'aria-label': `The numbers of ${stats.name}, by week` },
                h(
                  'table',
                  { class: 'data' },
                  h(
                    'thead',
                    {},
                    h(
                      'tr',
                      {},
                      ['Week of', 'Messages', 'Questions', 'Per 100', 'Corrected later'].map((title) => h('th', { scope: 'col' }, title)),
                    ),
                  ),
                  h(
                    'tbody',
                    {},
                    stats.periods.map((period) =>
                      h(
                        'tr',
                        {},
                        h('td', {}, periodLabel(period.period)),
                        h('td', {}, String(period.messages), period.messages > 0 && period.messages < MIN_MESSAGES && h('span', { class: 'muted' }, ' (few)')),
                        h('td', {}, String(period.questions)),
                        h('td', {}, period.messages > 0 ? String(period.questionsPer100) : '—'),
                        h(
                          'td',
                          {},
                          period.corrected === undefined ? '—' : String(period.corrected),
                          (period.correctedUnasked ?? 0) > 0 && h('span', { class: 'muted' }, ` (${period.correctedUnasked} without asking)`),
                        ),
                      ),
                    ),
                  ),
                ),
              ),
            ),
          ],
  );
}

/** The replay button and its progress, when the console was given a replay to offer. */
function replayPanel(initial: ReplayState, redraw: () => Promise<void>): HTMLElement | false {
  if (!initial.available) return false;
  const log = h('pre', { class: 'replay-log', 'aria-live': 'polite' });
  const outcome = h('div', { class: 'replay-outcome', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'primary' }, initial.label ?? 'Replay');
  // On a stack that already holds messages the replay is a second, deliberate choice: a ticked box.
  const despite = h('input', { type: 'checkbox', id: uniqueId('replay-despite') });
  const guard = h('div', { class: 'replay-guard' });
  let notFresh = initial.notFresh;
  const show = (state: ReplayState) => {
    if (!state.running) notFresh = state.notFresh;
    fill(
      guard,
      notFresh !== undefined &&
        !state.running && [
          warningNotice(notFresh),
          h('label', { class: 'choice', for: despite.id }, despite, h('span', {}, 'Replay anyway, on top of the messages already here')),
        ],
    );
    button.disabled = state.running || (notFresh !== undefined && !despite.checked);
    log.textContent = state.lines.join('\n');
    fill(
      outcome,
      state.problem !== undefined
        ? warningNotice(state.problem)
        : state.summary !== undefined
          ? h('p', { class: 'replay-summary' }, state.summary)
          : state.running
            ? h('p', { class: 'muted' }, 'Replaying…')
            : false,
    );
  };
  despite.addEventListener('change', () => {
    button.disabled = notFresh !== undefined && !despite.checked;
  });
  const follow = async () => {
    let state = await getJson<ReplayState>('/replay');
    show(state);
    while (state.running) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = await getJson<ReplayState>('/replay');
      show(state);
    }
    if (state.summary !== undefined) await redraw();
  };
  button.addEventListener('click', () => {
    button.disabled = true;
    postJson<ReplayState>('/replay', { confirm: 'replay', ...(notFresh !== undefined && despite.checked && { despiteMessages: true }) })
      .then(follow)
      .catch((error: unknown) => {
        button.disabled = notFresh !== undefined && !despite.checked;
        fill(outcome, warningNotice(error instanceof ApiFailure ? error.message : String(error)));
      });
  });
  show(initial);
  if (initial.running) void follow();
  // Folded, under the numbers: demo traffic is one deliberate step away from a clerk's real inbox.
  return h(
    'details',
    { class: 'card replay' },
    h('summary', {}, `Demonstration: ${initial.label ?? 'Replay'} (fills the inbox with demo mail)`),
    h('p', {}, initial.description ?? ''),
    guard,
    button,
    outcome,
    log,
  );
}

/** How often the numbers are asked for again while the dashboard is shown (a replay, or traffic that asks nothing). */
const LIVE_MS = 3000;

export async function dashboardPage(main: HTMLElement, ctx: AppContext): Promise<void> {
  const [{ agents }, replay] = await Promise.all([getJson<StatsResponse>('/stats'), getJson<ReplayState>('/replay')]);
  const charts = h('div', { class: 'live-charts' });
  let drawn = '';
  const drawCharts = async (list: StatsResponse['agents']) => {
    // Redrawn only when a number changed, so an open "The numbers" stays open while nothing moves.
    const seen = JSON.stringify(list);
    if (seen === drawn) return;
    drawn = seen;
    const open = new Set(
      Array.from(charts.querySelectorAll('section.stats'))
        .filter((panel) => panel.querySelector('details')?.open)
        .map((panel) => panel.id),
    );
    // One scale for every panel, so two agents' lines can be compared by eye.
    const yMax = sharedScaleMax(list.map((stats) => stats.periods));
    fill(
      charts,
      list.length === 0
        ? h('p', { class: 'card empty' }, 'No agents are configured.')
        : h(
            'div',
            { class: 'stats-grid' },
            list.map((stats) => agentPanel(stats, yMax)),
          ),
    );
    for (const panel of Array.from(charts.querySelectorAll('section.stats'))) if (open.has(panel.id)) panel.querySelector('details')?.setAttribute('open', '');
  };
  await drawCharts(agents);
  // Live: the numbers are asked for again when the waiting questions change and every few seconds
  // (most messages are decided without a question), for as long as this page is shown.
  let asking = false;
  const refresh = () => {
    if (asking || !charts.isConnected) return;
    asking = true;
    void getJson<StatsResponse>('/stats')
      .then((fresh) => drawCharts(fresh.agents))
      .catch(() => undefined)
      .finally(() => (asking = false));
  };
  const timer = setInterval(() => (charts.isConnected ? refresh() : clearInterval(timer)), LIVE_MS);
  ctx.watchQuestions(refresh);
  fill(
    main,
    h('h1', { tabindex: -1 }, 'Questions per 100 messages'),
    h(
      'p',
      { class: 'lead' },
      `Week by week, by each message’s own date, with the decisions a person later said were wrong. A line that falls with no corrections under it means the agents are keeping what they are taught. Weeks with fewer than ${MIN_MESSAGES} messages are drawn hollow and never headline; a week with no messages leaves a gap.`,
    ),
    charts,
    replayPanel(replay, async () => drawCharts((await getJson<StatsResponse>('/stats')).agents)),
  );
}
