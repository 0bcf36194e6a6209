// Benchmark section: the six-week scenario's falling line, with the count that keeps it honest.
// Replays fixtures/scenario/ through both agents on fresh in-process stacks, learning on and then
// off (compareScenario, what `pnpm demo:compare` runs, writing nothing), and prints questions per
// 100 messages per week next to the decisions made without asking that were wrong. Fewer questions
// are worth something only while that count stays at zero. Then the same for the trap scenario,
// replayed by the operator who trusts every suggestion. Exits 1 when the replay's counts and the
// agents' own (GET /learnables/stats) disagree.
import { compareScenario } from '../../stack/src/demo/compare-scenario.ts';
import type { ScenarioResult } from '../../stack/src/demo/run-scenario.ts';
import { trapReplay } from '../../stack/src/demo/trap-replay.ts';

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

// The trap scenario, replayed by the operator who trusts every suggestion (issue 19).
const trapStarted = performance.now();
const trap = await compareScenario(trapReplay());
const trapSeconds = ((performance.now() - trapStarted) / 1000).toFixed(1);
const trapRows = trap.on.weeks.map((week) => {
  const other = trap.off.weeks.find((w) => w.week === week.week);
  return `| ${week.week} | ${week.start} | ${week.all.messages} | **${per100(week.all)}** | ${week.misreads} | ${week.corrections ?? 0} | ${other ? per100(other.all) : '–'} | ${other?.misreads ?? '–'} |`;
});
const taken = trap.on.corrections?.length ?? 0;
console.log(`
The trap scenario (fixtures/trap-scenario/: ${trap.on.scenario.messages} messages, a booking portal and a haulier writing for several customers,
forwards in several layouts under signatures with the warehouse's postcode, look-alike domains, nobody's mail, new senders late, shippers whose manifest headings collide),
replayed by an operator who teaches every suggestion as offered and heeds only the preview's warnings (${trapSeconds} s for both runs).
**taken back**: lessons the operator took back as wrong (corrections).

| week | from | messages | learning on: questions per 100 (questions) | wrong | taken back | learning off: questions per 100 (questions) | wrong |
|---:|---|---:|---:|---:|---:|---:|---:|
${trapRows.join('\n')}
| all | | ${trap.on.totals.all.messages} | **${per100(trap.on.totals.all)}** | ${wrong(trap.on)} | ${taken} | ${per100(trap.off.totals.all)} | ${wrong(trap.off)} |

Learning on: ${trap.on.lessonOutcomes.changed} lessons taught as offered, ${trap.on.lessonOutcomes.warned} answered without remembering after the preview warned, ${trap.on.lessonOutcomes.refused} refused by the agent.`);
process.exit(on.check.agrees && off.check.agrees && trap.on.check.agrees && trap.off.check.agrees ? 0 : 1);
