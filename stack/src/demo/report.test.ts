// Every place the replay shows questions per 100 shows, beside it, the decisions made without
// asking that were wrong and the decisions the agents count as corrected later: the printed tables,
// the comparison and the console's replay log.
import { describe, expect, it } from 'vitest';
import { DOCS_DIR, formatComparison, formatTable, formatWeekLine, loadResults } from './report.ts';
import type { ScenarioResult } from './run-scenario.ts';

const [on, off] = loadResults(DOCS_DIR) as [ScenarioResult, ScenarioResult];
// Week 2 of the learning-on run with two wrong decisions, and three corrected later (one answered,
// and still wrong), so a count of 0 cannot pass for absent, nor one count for the other.
const wrongOn: ScenarioResult = {
  ...on,
  weeks: on.weeks.map((week) => (week.week === 2 ? { ...week, misreads: 2, corrected: 3, correctedUnasked: 2 } : week)),
};

describe("the replay's numbers, as printed", () => {
  it('the weekly table has wrong and corrected-later columns beside questions per 100, totalled', () => {
    const table = formatTable(wrongOn).split('\n');
    expect(table[3]).toMatch(/\/100\s+wrong\s+corrected later\s+\|/);
    expect(table.find((line) => /^\s+2\s/.test(line))).toMatch(new RegExp(`${wrongOn.weeks[1]!.all.per100.toFixed(1)}\\s+2\\s+3\\s+\\|`));
    expect(table.find((line) => /^\s+1\s/.test(line))).toMatch(/\s0\s+0\s+\|/);
    expect(table.at(-1)).toMatch(/^\s+all\s+\d+\s+\d+\s+[\d.]+\s+2\s+3\s+\|/);
  });

  it("the comparison of both runs puts a wrong and a corrected count after each line's number", () => {
    const lines = formatComparison(wrongOn, off).split('\n');
    expect(lines[2]).toBe('week  from        learning on  wrong  corrected  learning off  wrong  corrected');
    expect(lines[4]).toMatch(
      new RegExp(`^\\s+2\\s+\\S+\\s+${wrongOn.weeks[1]!.all.per100.toFixed(1)}\\s+2\\s+3\\s+${off.weeks[1]!.all.per100.toFixed(1)}\\s+0\\s+0$`),
    );
  });

  it("the console's replay log says it for every week", () => {
    expect(formatWeekLine(wrongOn.weeks[1]!)).toMatch(/= [\d.]+ per 100, 2 decided without asking and wrong, 3 corrected later;/);
    expect(formatWeekLine(wrongOn.weeks[0]!)).toContain(', 0 decided without asking and wrong, 0 corrected later;');
  });
});
