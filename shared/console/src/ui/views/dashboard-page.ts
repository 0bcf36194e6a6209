/// <reference lib="dom" />
import type { StatsResponse } from '../../api-types.ts';
import type { ReplayState } from '../../http/replay-job.ts';
import { ApiFailure, getJson, postJson } from '../api.ts';
import { fill, h } from '../dom.ts';
import { chartView } from './chart-view.ts';
import { warningNotice } from './notices.ts';

type AgentStats = StatsResponse['agents'][number];

function agentPanel(stats: AgentStats): HTMLElement {
  const titleId = `stats-${stats.agentId}`;
  const first = stats.periods[0];
  const last = stats.periods.at(-1);
  return h(
    'section',
    { class: 'card stats', 'aria-labelledby': titleId },
    h('h2', { id: titleId }, stats.name),
    stats.problem !== undefined
      ? warningNotice(stats.problem)
      : !first || !last
        ? h('p', { class: 'muted' }, 'No messages counted yet.')
        : [
            h(
              'p',
              { class: 'headline' },
              h('span', { class: 'figure' }, String(last.questionsPer100)),
              ` questions per 100 messages in the week of ${last.period}`,
              stats.periods.length > 1 && h('span', { class: 'muted' }, ` (${first.questionsPer100} in the week of ${first.period})`),
            ),
            chartView(stats.periods, `Questions per 100 messages, ${stats.name}, by week`),
            h(
              'details',
              {},
              h('summary', {}, 'The numbers'),
              h(
                'table',
                { class: 'data' },
                h('thead', {}, h('tr', {}, ['Week of', 'Messages', 'Questions', 'Per 100'].map((title) => h('th', { scope: 'col' }, title)))),
                h('tbody', {}, stats.periods.map((period) => h('tr', {}, h('td', {}, period.period), h('td', {}, String(period.messages)), h('td', {}, String(period.questions)), h('td', {}, String(period.questionsPer100))))),
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
  const show = (state: ReplayState) => {
    button.disabled = state.running;
    log.textContent = state.lines.join('\n');
    fill(outcome, state.problem !== undefined ? warningNotice(state.problem) : state.summary !== undefined ? h('p', { class: 'replay-summary' }, state.summary) : state.running ? h('p', { class: 'muted' }, 'Replaying…') : false);
  };
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
    postJson<ReplayState>('/replay', { confirm: 'replay' })
      .then(follow)
      .catch((error: unknown) => fill(outcome, warningNotice(error instanceof ApiFailure ? error.message : String(error))));
  });
  show(initial);
  if (initial.running) void follow();
  return h('section', { class: 'card replay', 'aria-label': initial.label ?? 'Replay' }, h('p', {}, initial.description ?? ''), button, outcome, log);
}

export async function dashboardPage(main: HTMLElement): Promise<void> {
  const [{ agents }, replay] = await Promise.all([getJson<StatsResponse>('/stats'), getJson<ReplayState>('/replay')]);
  const charts = h('div', {});
  const drawCharts = async (list: StatsResponse['agents']) => {
    fill(charts, list.length === 0 ? h('p', { class: 'card empty' }, 'No agents are configured.') : h('div', { class: 'stats-grid' }, list.map(agentPanel)));
  };
  await drawCharts(agents);
  fill(
    main,
    h('h1', { tabindex: -1 }, 'Questions per 100 messages'),
    h('p', { class: 'lead' }, 'Week by week, by each message’s own date. A line that falls means the agents are keeping what they are taught.'),
    replayPanel(replay, async () => drawCharts((await getJson<StatsResponse>('/stats')).agents)),
    charts,
  );
}
