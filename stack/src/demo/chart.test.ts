// Wherever the falling line is drawn, the count that keeps it honest is drawn with it: each week's
// decisions made without asking that were wrong, per run, and the decisions the agents count as
// corrected later.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawChart } from './chart.ts';
import { CHART_FILE, DOCS_DIR, loadResults } from './report.ts';
import type { ScenarioResult } from './run-scenario.ts';

/** The counts drawn in the rows of wrong decisions, in order. */
const wrongCounts = (svg: string) => [...svg.matchAll(/<text class="wrong"[^>]*>(\d+)<\/text>/g)].map((match) => Number(match[1]));
const correctedCounts = (svg: string) => [...svg.matchAll(/<text class="corrected"[^>]*>(\d+)<\/text>/g)].map((match) => Number(match[1]));

describe('the questions-per-100 chart', () => {
  it("draws each run's wrong-without-asking count under every week, in red when it is not zero", () => {
    const [on, off] = loadResults(DOCS_DIR) as [ScenarioResult, ScenarioResult];
    const wrongOn = on.weeks.map((week, i) => ({ ...week, misreads: i === 1 ? 3 : 0, corrected: i === 1 ? 4 : 0 }));
    const svg = drawChart([{ ...on, weeks: wrongOn }, off]);
    expect(wrongCounts(svg)).toEqual([...wrongOn.map((week) => week.misreads), ...off.weeks.map((week) => week.misreads)]);
    expect(svg).toContain('fill="#b00020" text-anchor="middle">3</text>');
    expect(svg).toContain('Decided without asking, and wrong');
    expect(svg).toMatch(/learning on: [\d., ]+ \(decided without asking and wrong: 0, 3, 0.*; corrected later: 0, 4, 0/);
    // And under them, the decisions the agents count as corrected later.
    expect(correctedCounts(svg)).toEqual([...wrongOn.map((week) => week.corrected), ...off.weeks.map((week) => week.corrected)]);
    expect(svg).toMatch(/<text class="corrected"[^>]*fill="#b00020" text-anchor="middle">4<\/text>/);
    expect(svg).toContain('Decisions corrected later, as the agents count them');
  });

  it('is current in docs/scenario: the committed chart is the committed results drawn (pnpm demo:chart --update-docs)', () => {
    const committed = readFileSync(join(DOCS_DIR, CHART_FILE), 'utf8');
    expect(committed).toBe(drawChart(loadResults(DOCS_DIR)));
    expect(wrongCounts(committed)).toHaveLength(loadResults(DOCS_DIR).reduce((n, result) => n + result.weeks.length, 0));
  });
});
