/// <reference lib="dom" />
import type { StatsResponse } from '../../api-types.ts';
import { getJson } from '../api.ts';
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

export async function dashboardPage(main: HTMLElement): Promise<void> {
  const { agents } = await getJson<StatsResponse>('/stats');
  fill(
    main,
    h('h1', { tabindex: -1 }, 'Questions per 100 messages'),
    h('p', { class: 'lead' }, 'Week by week, by each message’s own date. A line that falls means the agents are keeping what they are taught.'),
    agents.length === 0 ? h('p', { class: 'card empty' }, 'No agents are configured.') : h('div', { class: 'stats-grid' }, agents.map(agentPanel)),
  );
}
