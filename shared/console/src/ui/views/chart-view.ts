/// <reference lib="dom" />
import type { ChartPeriod } from '../chart-geometry.ts';
import { chartGeometry } from '../chart-geometry.ts';
import { s, uniqueId } from '../dom.ts';

/** Questions per 100 messages as a line over the periods, drawn as inline SVG. */
export function chartView(periods: readonly ChartPeriod[], title: string): SVGSVGElement {
  const geometry = chartGeometry(periods);
  const { plot } = geometry;
  const titleId = uniqueId('chart-title');
  const descId = uniqueId('chart-desc');
  const first = periods[0];
  const last = periods.at(-1);
  const description =
    first && last
      ? `From ${first.questionsPer100} per 100 in the period of ${first.period} to ${last.questionsPer100} per 100 in the period of ${last.period}.`
      : 'No periods yet.';
  return s(
    'svg',
    { class: 'chart', viewBox: `0 0 ${geometry.width} ${geometry.height}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}` },
    s('title', { id: titleId }, title),
    s('desc', { id: descId }, description),
    geometry.yTicks.map((tick) => [
      s('line', { class: 'grid', x1: plot.left, x2: plot.right, y1: tick.y, y2: tick.y }),
      s('text', { class: 'tick', x: plot.left - 8, y: tick.y + 4, 'text-anchor': 'end' }, String(tick.value)),
    ]),
    geometry.xLabels.map((label) => s('text', { class: 'tick', x: label.x, y: plot.bottom + 20, 'text-anchor': 'middle' }, label.label)),
    s('line', { class: 'axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }),
    geometry.line !== '' && s('path', { class: 'line', d: geometry.line }),
    geometry.points.map((point) =>
      s(
        'circle',
        { class: 'point', cx: point.x, cy: point.y, r: 4 },
        s('title', {}, `${point.period}: ${point.questionsPer100} per 100 (${point.questions} of ${point.messages} messages asked)`),
      ),
    ),
  );
}
