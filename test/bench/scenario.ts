// Benchmark section: the six-week scenario's falling line, with the count that keeps it honest.
// Replays fixtures/scenario/ through both agents on fresh in-process stacks, learning on and then
// off (compareScenario, what `pnpm demo:compare` runs, writing nothing), and prints questions per
// 100 messages per week next to the decisions made without asking that were wrong. Fewer questions
// are worth something only while that count stays at zero. Exits 1 when the replay's counts and
// the agents' own (GET /learnables/stats) disagree.
import { compareScenario } from '../../stack/src/demo/compare-scenario.ts';
import type { ScenarioResult } from '../../stack/src/demo/run-scenario.ts';

const started = performance.now();
const { on, off } = await compareScenario();
const seconds = ((performance.now() - started) / 1000).toFixed(1);

const per100 = (count: { per100: number; questions: number }) => `${count.per100.toFixed(1)} (${count.questions})`;
const wrong = (result: ScenarioResult) => result.weeks.reduce((sum, week) => sum + week.misreads, 0);
const rows = on.weeks.map((week) => {
  const other = off.weeks.find((w) => w.week === week.week);
  return `| ${week.week} | ${week.start} | ${week.all.messages} | **${per100(week.all)}** | ${week.misreads} | ${other ? per100(other.all) : '–'} | ${other?.misreads ?? '–'} |`;
});
const lessons = on.lessonOutcomes;
console.log(`
${on.scenario.messages} messages from ${on.scenario.from} to ${on.scenario.to} (fixtures/scenario/), both agents together, each counted in its own week;
one fresh stack per run (${seconds} s for both). **wrong**: decided without asking, and not what the ground truth says —
the falling line counts only while this stays at 0.

| week | from | messages | learning on: questions per 100 (questions) | wrong | learning off: questions per 100 (questions) | wrong |
|---:|---|---:|---:|---:|---:|---:|
${rows.join('\n')}
| all | | ${on.totals.all.messages} | **${per100(on.totals.all)}** | ${wrong(on)} | ${per100(off.totals.all)} | ${wrong(off)} |

Learning on: ${lessons.changed} lessons, ${lessons.declined} questions answered but not remembered, ${lessons.refused} refused. The replay's counts ${on.check.agrees && off.check.agrees ? 'equal' : '**differ from**'} the agents' own (\`GET /learnables/stats?by=week\`) in both runs.`);
process.exit(on.check.agrees && off.check.agrees ? 0 : 1);
