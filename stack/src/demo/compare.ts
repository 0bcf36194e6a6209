// `pnpm demo:compare`: the whole comparison by itself. Starts its own authority and both agents
// in this process on a fresh temporary data folder for each run, replays the scenario with
// learning on and then off, writes data/scenario/results-on.json, results-off.json and the chart
// (docs/scenario with --update-docs), and prints both tables. Then the same for the trap scenario
// (fixtures/trap-scenario, replayed by the trusting operator), into data/trap-scenario
// (docs/trap-scenario with --update-docs). Then the mixed stream of issue 35, generated into a
// temporary folder (make-mixed-stream.ts) and replayed by the same operator, into data/mixed-stream
// (docs/trap-scenario/mixed-stream with --update-docs), with its wrong decisions listed one a line.
// Options: --weeks N, --quiet, --verbose, --no-write, --update-docs.
import '../check-node.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from './args.ts';
import type { DemoArgs } from './args.ts';
import { compareScenario } from './compare-scenario.ts';
import { progressPrinter } from './progress.ts';
import { writeMixedStream } from './make-mixed-stream.ts';
import {
  formatComparison,
  formatEvidenceQuestions,
  formatSummary,
  formatTable,
  formatWrongDecisions,
  mixedResultsDir,
  resultsDir,
  trapResultsDir,
  writeResults,
} from './report.ts';
import { mixedReplay, trapReplay } from './trap-replay.ts';
import { repoRoot } from '../config.ts';

let args: DemoArgs;
try {
  if (process.argv.some((arg) => arg.startsWith('--learning')))
    throw new Error('pnpm demo:compare runs learning on and then off by itself; --learning is an option of pnpm demo.');
  if (process.argv.includes('--trap'))
    throw new Error('pnpm demo:compare replays the trap scenario after the six-week one by itself; --trap is an option of pnpm demo.');
  args = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const printers = {
  on: progressPrinter({ quiet: args.quiet, verbose: args.verbose, prefix: '[learning on]  ' }),
  off: progressPrinter({ quiet: args.quiet, verbose: args.verbose, prefix: '[learning off] ' }),
};
const trapPrinters = {
  on: progressPrinter({ quiet: args.quiet, verbose: args.verbose, prefix: '[trap, learning on]  ' }),
  off: progressPrinter({ quiet: args.quiet, verbose: args.verbose, prefix: '[trap, learning off] ' }),
};
const mixedPrinters = {
  on: progressPrinter({ quiet: args.quiet, verbose: args.verbose, prefix: '[mixed, learning on]  ' }),
  off: progressPrinter({ quiet: args.quiet, verbose: args.verbose, prefix: '[mixed, learning off] ' }),
};
const started = performance.now();
/** Beside each stream, the questions the evidence rule of issue 35 asked and those a lesson then answered for good. */
function printEvidence(result: Parameters<typeof formatEvidenceQuestions>[0]): void {
  const evidence = formatEvidenceQuestions(result);
  if (evidence !== '') console.log(`\n${evidence}`);
}
const weeks = args.weeks !== undefined ? { weeks: args.weeks } : {};
const { on, off } = await compareScenario({ ...weeks, onProgress: (learning, event) => printers[learning](event) });

for (const result of [on, off]) console.log(`\n${formatTable(result)}\n\n${formatSummary(result)}`);
console.log(`\n${formatComparison(on, off)}`);
printEvidence(on);
if (args.write) {
  writeResults(off, resultsDir(args));
  const { chart } = writeResults(on, resultsDir(args));
  console.log(`\nWrote ${relative(repoRoot, chart)}, results-on.json and results-off.json (${((performance.now() - started) / 1000).toFixed(1)} s).`);
}

// The trap scenario: the same comparison, with the operator who trusts every suggestion.
const trap = await compareScenario({ ...weeks, ...trapReplay(), onProgress: (learning, event) => trapPrinters[learning](event) });
console.log('\nThe trap scenario, replayed by a trusting operator:');
for (const result of [trap.on, trap.off]) console.log(`\n${formatTable(result)}\n\n${formatSummary(result)}`);
console.log(`\n${formatComparison(trap.on, trap.off)}`);
printEvidence(trap.on);
if (args.write) {
  writeResults(trap.off, trapResultsDir(args));
  const { chart } = writeResults(trap.on, trapResultsDir(args));
  console.log(`\nWrote ${relative(repoRoot, chart)}, results-on.json and results-off.json (${((performance.now() - started) / 1000).toFixed(1)} s in all).`);
}
// The mixed stream of issue 35: generated afresh (never committed), replayed by the same operator.
const mixedDir = mkdtempSync(join(tmpdir(), 'learnables-mixed-'));
let mixed: Awaited<ReturnType<typeof compareScenario>>;
try {
  writeMixedStream(mixedDir);
  mixed = await compareScenario({ ...weeks, ...mixedReplay(mixedDir), onProgress: (learning, event) => mixedPrinters[learning](event) });
} finally {
  rmSync(mixedDir, { recursive: true, force: true });
}
console.log('\nThe mixed stream of issue 35, replayed by the same operator:');
for (const result of [mixed.on, mixed.off]) console.log(`\n${formatTable(result)}\n\n${formatSummary(result)}`);
console.log(`\n${formatComparison(mixed.on, mixed.off)}`);
printEvidence(mixed.on);
console.log(`\n${formatWrongDecisions(mixed.on)}`);
if (args.write) {
  writeResults(mixed.off, mixedResultsDir(args));
  const { chart } = writeResults(mixed.on, mixedResultsDir(args));
  console.log(`\nWrote ${relative(repoRoot, chart)}, results-on.json and results-off.json (${((performance.now() - started) / 1000).toFixed(1)} s in all).`);
}
const agrees = on.check.agrees && off.check.agrees && trap.on.check.agrees && trap.off.check.agrees && mixed.on.check.agrees && mixed.off.check.agrees;
if (!agrees) console.error('\nThe replay and the agents do not count the same numbers; see the check lines above.');
process.exit(agrees ? 0 : 1);
