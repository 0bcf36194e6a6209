/// <reference lib="dom" />
import type { ChartPeriod } from '../chart-geometry.ts';
import { chartGeometry, MIN_MESSAGES, periodLabel } from '../chart-geometry.ts';
import { s, uniqueId } from '../dom.ts';

const messagesWord = (count: number) => `${count} message${count === 1 ? '' : 's'}`;

/**
 * Questions per 100 messages as a line over the weeks, drawn as inline SVG on the scale the page
 * shares across panels. Weeks with few messages are hollow and say so; weeks with none leave a gap.
 */
export function chartView(periods: readonly ChartPeriod[], title: string, yMax?: number): SVGSVGElement {
  const geometry = chartGeometry(periods, undefined, yMax);
  const { plot } = geometry;
  const titleId = uniqueId('chart-title');
  const descId = uniqueId('chart-desc');
  const first = geometry.points[0];
  const last = geometry.points.at(-1);
  const few = geometry.points.filter((point) => point.few).length;
  const description =
    first && last
      ? `From ${first.questionsPer100} per 100 in the week of ${periodLabel(first.period)} (${messagesWord(first.messages)}) to ${last.questionsPer100} per 100 in the week of ${periodLabel(last.period)} (${messagesWord(last.messages)}).` +
        (few > 0 ? ` ${few} week${few === 1 ? '' : 's'} had fewer than ${MIN_MESSAGES} messages and ${few === 1 ? 'is' : 'are'} drawn hollow.` : '')
      : 'No weeks with messages yet.';
  const middle = (plot.top + plot.bottom) / 2;
  return s(
    'svg',
    { class: 'chart', viewBox: `0 0 ${geometry.width} ${geometry.height}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}` },
    s('title', { id: titleId }, title),
    s('desc', { id: descId }, description),
    geometry.yTicks.map((tick) => [
      s('line', { class: 'grid', x1: plot.left, x2: plot.right, y1: tick.y, y2: tick.y }),
      s('text', { class: 'tick', x: plot.left - 6, y: tick.y + 4, 'text-anchor': 'end' }, String(tick.value)),
    ]),
    s('text', { class: 'axis-title', x: 12, y: middle, 'text-anchor': 'middle', transform: `rotate(-90 12 ${middle})` }, 'per 100 messages'),
    geometry.xLabels.map((label) => [
      s('text', { class: 'tick', x: label.x, y: plot.bottom + 16, 'text-anchor': 'middle' }, label.label),
      s(
        'text',
        { class: 'tick count', x: label.x, y: plot.bottom + 30, 'text-anchor': 'middle' },
        `${label.messages} ${label.messages === 1 ? 'message' : 'messages'}`,
      ),
    ]),
    s(
      'text',
      { class: 'axis-title', x: (plot.left + plot.right) / 2, y: geometry.height - 6, 'text-anchor': 'middle' },
      'Week of (message date), with messages that week',
    ),
    s('line', { class: 'axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }),
    geometry.line !== '' && s('path', { class: 'line', d: geometry.line }),
    geometry.points.map((point) =>
      s(
        'circle',
        { class: point.few ? 'point few' : 'point', cx: point.x, cy: point.y, r: point.few ? 4.5 : 4 },
        s(
          'title',
          {},
          `Week of ${periodLabel(point.period)}: ${point.questionsPer100} per 100 (${point.questions} questions in ${messagesWord(point.messages)})` +
            ((point.corrected ?? 0) > 0 ? `, ${point.corrected} decision${point.corrected === 1 ? '' : 's'} corrected later` : '') +
            (point.few ? ` — few messages, under ${MIN_MESSAGES}, so this figure says little` : ''),
        ),
      ),
    ),
  );
}
