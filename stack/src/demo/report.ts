// The numbers, for people: tables for the console, results files and the chart under docs/scenario.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../config.ts';
import { drawChart } from './chart.ts';
import type { Count, ScenarioResult, WeekNumbers } from './run-scenario.ts';

export const DOCS_DIR = join(repoRoot, 'docs', 'scenario');
/** Where a run writes by default: under data/, which git ignores, so trying the demo dirties nothing. */
export const RUN_DIR = join(repoRoot, 'data', 'scenario');

/** The folder a run writes its results and chart into: data/scenario, or docs/scenario when asked. */
export const resultsDir = (args: { readonly updateDocs: boolean }): string => (args.updateDocs ? DOCS_DIR : RUN_DIR);
/** The same for the trap scenario: data/trap-scenario, or docs/trap-scenario when asked. */
export const TRAP_DOCS_DIR = join(repoRoot, 'docs', 'trap-scenario');
export const TRAP_RUN_DIR = join(repoRoot, 'data', 'trap-scenario');
export const trapResultsDir = (args: { readonly updateDocs: boolean }): string => (args.updateDocs ? TRAP_DOCS_DIR : TRAP_RUN_DIR);
/** The mixed stream of issue 35: data/mixed-stream, or docs/trap-scenario/mixed-stream when asked. */
export const MIXED_DOCS_DIR = join(repoRoot, 'docs', 'trap-scenario', 'mixed-stream');
export const MIXED_RUN_DIR = join(repoRoot, 'data', 'mixed-stream');
export const mixedResultsDir = (args: { readonly updateDocs: boolean }): string => (args.updateDocs ? MIXED_DOCS_DIR : MIXED_RUN_DIR);
export const CHART_FILE = 'questions-per-100.svg';

const pad = (text: string | number, width: number) => String(text).padStart(width);
const cell = (c: Count) => `${pad(c.messages, 4)} ${pad(c.questions, 4)} ${pad(c.per100.toFixed(1), 6)}`;

/** The weekly table of one run: both agents together, then each agent. */
export function formatTable(result: ScenarioResult): string {
  const lines = [
    `Questions per 100 messages, learning ${result.learning} (${result.scenario.from} to ${result.scenario.to}, ${result.scenario.messages} messages)`,
    '',
    '                    both agents                        |  email agent         |  manifest agent',
    'week  from         msgs  asked  /100  wrong  corrected later  |  msgs asked   /100   |  msgs asked   /100   lessons',
  ];
  // "wrong": decided without asking, and wrong — fewer questions only count if this stays at zero.
  // "corrected later": the agents' own count of decisions on the week's messages corrected since
  // (the replay corrects each wrong one it finds; SPEC §6.8), so it is never the replay's word alone.
  for (const w of result.weeks) {
    lines.push(
      `${pad(w.week, 4)}  ${w.start}  ${pad(w.all.messages, 4)} ${pad(w.all.questions, 6)} ${pad(w.all.per100.toFixed(1), 6)} ${pad(w.misreads, 6)} ${pad(w.corrected, 16)}  |  ${cell(w.email)}     |  ${cell(w.manifest)}  ${pad(w.lessons, 7)}`,
    );
  }
  const t = result.totals;
  const wrong = result.weeks.reduce((n, w) => n + w.misreads, 0);
  const corrected = result.weeks.reduce((n, w) => n + w.corrected, 0);
  lines.push(
    `  all             ${pad(t.all.messages, 4)} ${pad(t.all.questions, 6)} ${pad(t.all.per100.toFixed(1), 6)} ${pad(wrong, 6)} ${pad(corrected, 16)}  |  ${cell(t.email)}     |  ${cell(t.manifest)}  ${pad(
      result.weeks.reduce((n, w) => n + w.lessons, 0),
      7,
    )}`,
  );
  return lines.join('\n');
}

/** One finished week as the console's replay log shows it: questions per 100, and beside it the wrong decisions and those the agents count corrected. */
export function formatWeekLine(numbers: WeekNumbers): string {
  const { week, start, all, lessons, misreads, corrected } = numbers;
  return `week ${week} (from ${start}): ${all.messages} messages, ${all.questions} questions = ${all.per100} per 100, ${misreads} decided without asking and wrong, ${corrected} corrected later; ${lessons} lessons`;
}

/** Both runs side by side: the line that should fall, and the one that should not. */
export function formatComparison(on: ScenarioResult, off: ScenarioResult): string {
  const lines = [
    'Questions per 100 messages, both agents together; decisions made without asking that were wrong; decisions corrected later, as the agents count them',
    '',
    'week  from        learning on  wrong  corrected  learning off  wrong  corrected',
  ];
  for (const w of on.weeks) {
    const other = off.weeks.find((o) => o.week === w.week);
    lines.push(
      `${pad(w.week, 4)}  ${w.start}  ${pad(w.all.per100.toFixed(1), 11)}  ${pad(w.misreads, 5)}  ${pad(w.corrected, 9)}  ${pad(other ? other.all.per100.toFixed(1) : '-', 12)}  ${pad(other ? other.misreads : '-', 5)}  ${pad(other ? other.corrected : '-', 9)}`,
    );
  }
  return lines.join('\n');
}

/** What the replay did besides counting: lessons, problems, the check against the agents. */
export function formatSummary(result: ScenarioResult): string {
  const o = result.lessonOutcomes;
  const lines: string[] = [];
  if (result.learning === 'on') {
    lines.push(
      `Lessons: ${o.changed} new versions, ${o.unchanged} already known, ${o.refused} refused, ${o['no-suggestion']} questions without a suggestion, ${o.declined + (o.warned ?? 0)} answered but not remembered.`,
    );
  } else {
    lines.push('Lessons: none (learning off: every question answered, nothing remembered).');
  }
  if (result.operator === 'trusting' && result.learning === 'on') {
    const taken = result.corrections?.length ?? 0;
    lines.push(
      `The operator trusted every suggestion: ${o.warned} answered without remembering because the preview warned of taking other customers' mail, ${o.refused} refused by the agent; ${taken} lesson${taken === 1 ? '' : 's'} taken back as wrong${taken > 0 ? ` (weeks ${result.weeks.map((w) => w.corrections ?? 0).join(' ')})` : ''}.`,
    );
  }
  const misreads = result.problems.filter((p) => p.kind === 'misread').length;
  const answeredWrong = result.problems.filter((p) => p.kind === 'answered-wrong').length;
  const others = result.problems.filter((p) => p.kind !== 'misread' && p.kind !== 'answered-wrong');
  const corrected = result.weeks.reduce((n, w) => n + w.corrected, 0);
  const unasked = result.weeks.reduce((n, w) => n + w.correctedUnasked, 0);
  lines.push(
    `Decided without asking, and wrong: ${misreads}; answered, and still wrong: ${answeredWrong}${misreads + answeredWrong > 0 ? ' (each corrected on its agent, learnables/correct)' : ''}. The agents count ${corrected} decision${corrected === 1 ? '' : 's'} corrected later, ${unasked} of them made without asking.${others.length ? ` Other problems: ${others.length} (see the results file).` : ''}`,
  );
  for (const check of result.check.agents) {
    const verdict = check.outcome === 'match' ? 'agrees' : check.outcome === 'totals' ? 'totals agree' : 'DISAGREES';
    lines.push(`Check against the ${check.agent} agent's GET /learnables/stats?by=week (${check.url}): ${verdict}. ${check.sentence}`);
  }
  for (const warning of result.warnings) lines.push(`Warning: ${warning}`);
  lines.push(`Took ${(result.durationMs / 1000).toFixed(1)} s.`);
  return lines.join('\n');
}

/**
 * Each decision made without asking that was wrong, one a line: the message, its class (the stream's
 * `trap`), what it was decided for and what it was, and the marks that decided it.
 */
export function formatWrongDecisions(result: ScenarioResult): string {
  const wrong = result.correctedDecisions.filter((d) => !d.asked && d.agent === 'email');
  if (wrong.length === 0) return 'No email decided without asking was wrong.';
  const lines = wrong.map((d) => {
    const marks = (d.marks ?? [])
      .map(
        (m) =>
          `'${m.pattern}' in the ${m.where}${m.sender ? ` of mail from '${m.sender}'` : ''}${m.foundIn && m.foundIn !== m.where ? ` (found in the ${m.foundIn})` : ''}`,
      )
      .join(' + ');
    return `week ${d.week}  ${d.file.replace(/^email\//, '')}  ${d.decided ?? 'no customer'} instead of ${d.entry ?? 'nobody'}${d.trap ? `  [${d.trap}]` : ''}${marks ? `  decided by ${marks}` : ''}`;
  });
  return `Decided without asking, and wrong (${wrong.length}):\n${lines.join('\n')}`;
}

/**
 * The questions the evidence rule of issue 35 asked, week by week, and how many of them the lesson
 * the operator taught from them settled for the future; empty when the agent gave no such reason.
 */
export function formatEvidenceQuestions(result: ScenarioResult): string {
  if (result.weeks.every((w) => w.evidence === undefined)) return '';
  const asked = result.weeks.map((w) => w.evidence?.asked ?? 0);
  const taught = result.weeks.map((w) => w.evidence?.taught ?? 0);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return `Questions the evidence rule asked: ${sum(asked)} (weeks ${asked.join(' ')}); of them, ${sum(taught)} taught as a lesson that answers the same evidence from then on (weeks ${taught.join(' ')}).`;
}

/** Write `results-<learning>.json` and redraw the chart from every results file present. */
export function writeResults(result: ScenarioResult, dir: string): { results: string; chart: string } {
  mkdirSync(dir, { recursive: true });
  const results = join(dir, `results-${result.learning}.json`);
  // Without the run's duration, the same replay writes the same bytes (the committed copies change only when the numbers do).
  const { durationMs: _took, ...kept } = result;
  writeFileSync(results, `${JSON.stringify(kept, null, 1)}\n`);
  return { results, chart: writeChart(dir) };
}

const rank = (name: string) => (name === 'results-on.json' ? 0 : name === 'results-off.json' ? 1 : 2);

export function loadResults(dir: string = DOCS_DIR): ScenarioResult[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => /^results-[\w-]+\.json$/.test(name))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as ScenarioResult);
}

/** Draw every results-*.json in `dir` into one chart. Returns its path. */
export function writeChart(dir: string = DOCS_DIR): string {
  const path = join(dir, CHART_FILE);
  writeFileSync(path, drawChart(loadResults(dir)));
  return path;
}
