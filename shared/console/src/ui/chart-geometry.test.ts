import { describe, expect, it } from 'vitest';
import { chartGeometry, periodLabel } from './chart-geometry.ts';

const week = (period: string, questionsPer100: number) => ({ period, messages: 10, questions: questionsPer100 / 10, questionsPer100 });

describe('chartGeometry places questions per 100 messages on the chart', () => {
  it('runs from the first period at the left to the last at the right, higher numbers higher up', () => {
    const chart = chartGeometry([week('2026-10-05', 40), week('2026-10-12', 20), week('2026-10-19', 0)], { width: 400, height: 200 });
    const [first, middle, last] = chart.points;
    expect(first?.x).toBe(chart.plot.left);
    expect(last?.x).toBe(chart.plot.right);
    expect(first!.y).toBeLessThan(middle!.y);
    expect(last?.y).toBe(chart.plot.bottom);
    expect(chart.yMax).toBe(50);
    expect(chart.line).toMatch(/^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+ L[\d.]+,[\d.]+$/);
  });

  it('spaces periods by time, so a week without messages leaves a gap', () => {
    const chart = chartGeometry([week('2026-10-05', 10), week('2026-10-12', 10), week('2026-11-02', 10)], { width: 460, height: 200 });
    const [a, b, c] = chart.points.map((point) => point.x);
    expect(c! - b!).toBeCloseTo(3 * (b! - a!), 5);
  });

  it('scales to at most 100 and draws a single period in the middle', () => {
    expect(chartGeometry([week('2026-10-05', 100)]).yMax).toBe(100);
    const single = chartGeometry([week('2026-10-05', 5)], { width: 300, height: 200 });
    expect(single.yMax).toBe(10);
    expect(single.points[0]?.x).toBe((single.plot.left + single.plot.right) / 2);
    expect(chartGeometry([]).line).toBe('');
  });

  it('labels the latest period always, and never two labels on top of each other', () => {
    const periods = Array.from({ length: 30 }, (_, i) => week(new Date(Date.UTC(2026, 0, 5 + 7 * i)).toISOString().slice(0, 10), 10));
    const { xLabels, points } = chartGeometry(periods, { width: 500, height: 200 });
    expect(xLabels.at(-1)?.x).toBe(points.at(-1)?.x);
    for (let i = 1; i < xLabels.length; i++) expect(xLabels[i]!.x - xLabels[i - 1]!.x).toBeGreaterThanOrEqual(56);
    expect(periodLabel('2026-10-05')).toBe('Oct 5');
    expect(periodLabel('week 7')).toBe('week 7');
  });
});
