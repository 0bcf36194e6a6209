import { describe, expect, it } from 'vitest';
import { chartGeometry, chartScale, headlinePeriod, MIN_MESSAGES, periodLabel, sharedScaleMax } from './chart-geometry.ts';

const week = (period: string, questionsPer100: number, messages = 40) => ({
  period,
  messages,
  questions: Math.round((questionsPer100 * messages) / 100),
  questionsPer100,
});

describe('chartGeometry places questions per 100 messages on the chart', () => {
  it('runs from the first period at the left to the last at the right, higher numbers higher up', () => {
    const chart = chartGeometry([week('2026-10-05', 40), week('2026-10-12', 20), week('2026-10-19', 0)], { width: 400, height: 200 });
    const [first, middle, last] = chart.points;
    expect(first?.x).toBe(chart.plot.left);
    expect(last?.x).toBe(chart.plot.right);
    expect(first!.y).toBeLessThan(middle!.y);
    expect(last?.y).toBe(chart.plot.bottom);
    expect(chart.yMax).toBe(40);
    expect(chart.line).toMatch(/^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+ L[\d.]+,[\d.]+$/);
  });

  it('spaces periods by time, and draws no line across a week missing from the numbers', () => {
    const chart = chartGeometry([week('2026-10-05', 10), week('2026-10-12', 10), week('2026-11-02', 10)], { width: 460, height: 200 });
    const [a, b, c] = chart.points.map((point) => point.x);
    expect(c! - b!).toBeCloseTo(3 * (b! - a!), 5);
    expect(chart.line).toMatch(/^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+ M[\d.]+,[\d.]+$/);
  });

  it('gives a week with no messages no point and breaks the line there instead of plotting 0', () => {
    const chart = chartGeometry([
      week('2026-10-05', 30),
      { period: '2026-10-12', messages: 0, questions: 0, questionsPer100: 0 },
      week('2026-10-19', 20),
      week('2026-10-26', 10),
    ]);
    expect(chart.points.map((point) => point.period)).toEqual(['2026-10-05', '2026-10-19', '2026-10-26']);
    expect(chart.line.match(/M/g)).toHaveLength(2);
    expect(chart.line.match(/L/g)).toHaveLength(1);
    expect(chart.points.every((point) => point.y < chart.plot.bottom)).toBe(true);
  });

  it(`flags a week under ${MIN_MESSAGES} messages as few, and labels weeks with their message count`, () => {
    const chart = chartGeometry([week('2026-10-05', 30, 50), week('2026-10-12', 60, 5)]);
    expect(chart.points.map((point) => point.few)).toEqual([false, true]);
    expect(chart.xLabels.map((label) => [label.label, label.messages])).toEqual([
      ['Oct 5', 50],
      ['Oct 12', 5],
    ]);
  });

  it('scales to at most 100 and draws a single period in the middle', () => {
    expect(chartGeometry([week('2026-10-05', 100)]).yMax).toBe(100);
    const single = chartGeometry([week('2026-10-05', 5)], { width: 300, height: 200 });
    expect(single.yMax).toBe(6);
    expect(single.points[0]?.x).toBe((single.plot.left + single.plot.right) / 2);
    expect(chartGeometry([]).line).toBe('');
  });

  it('ticks in whole steps, never 6.3 / 12.5 / 18.8', () => {
    expect(chartGeometry([week('2026-10-05', 23)]).yTicks.map((tick) => tick.value)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(chartGeometry([week('2026-10-05', 0)]).yTicks.map((tick) => tick.value)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(chartScale(61)).toEqual({ max: 80, step: 20 });
    expect(chartScale(250)).toEqual({ max: 100, step: 20 });
    for (const highest of [0.5, 3, 9, 11, 19, 33, 47, 51, 77, 99]) {
      const { max, step } = chartScale(highest);
      expect(max).toBeGreaterThanOrEqual(highest);
      expect(max / step).toBeLessThanOrEqual(5);
      expect(Number.isInteger(step)).toBe(true);
    }
  });

  it('shares one scale across panels: the highest week of any of them', () => {
    const low = [week('2026-10-05', 4)];
    const high = [week('2026-10-05', 45), { period: '2026-10-12', messages: 0, questions: 0, questionsPer100: 90 }];
    const max = sharedScaleMax([low, high]);
    expect(max).toBe(50);
    expect(chartGeometry(low, undefined, max).yMax).toBe(chartGeometry(high, undefined, max).yMax);
  });

  it('labels the latest period always, and never two labels on top of each other', () => {
    const periods = Array.from({ length: 30 }, (_, i) => week(new Date(Date.UTC(2026, 0, 5 + 7 * i)).toISOString().slice(0, 10), 10));
    const { xLabels, points } = chartGeometry(periods, { width: 500, height: 200 });
    expect(xLabels.at(-1)?.x).toBe(points.at(-1)?.x);
    for (let i = 1; i < xLabels.length; i++) expect(xLabels[i]!.x - xLabels[i - 1]!.x).toBeGreaterThanOrEqual(64);
    expect(periodLabel('2026-10-05')).toBe('Oct 5');
    expect(periodLabel('week 7')).toBe('week 7');
  });
});

describe('headlinePeriod', () => {
  it(`is the latest week with at least ${MIN_MESSAGES} messages, never a later week with few`, () => {
    expect(headlinePeriod([week('2026-10-05', 30, 40), week('2026-10-12', 10, 20), week('2026-10-19', 60, 5)])?.period).toBe('2026-10-12');
    expect(headlinePeriod([week('2026-10-05', 30, 19)])).toBeUndefined();
    expect(headlinePeriod([])).toBeUndefined();
  });
});
