// `pnpm demo`: replay the six-week scenario through the running stack (`pnpm start`), as a
// simulated operator who answers every question and — with learning on — remembers the answer.
// Environment: EMAIL_AGENT_URL, MANIFEST_AGENT_URL, AUTHORITY_URL, AGENT_TOKEN, AUTHORITY_TOKEN.
// Options: --learning on|off, --weeks N, --quiet, --verbose, --no-write, --update-docs (write into
// docs/scenario, the committed copies, instead of data/scenario), --trap (the trap scenario, replayed
// by the operator who trusts every suggestion, into data/trap-scenario or docs/trap-scenario).
import '../check-node.ts';
import { relative } from 'node:path';
import { AuthorityUnavailable } from '@learnables/authority';
import { repoRoot } from '../config.ts';
import { parseArgs } from './args.ts';
import type { DemoArgs } from './args.ts';
import { progressPrinter } from './progress.ts';
import { formatSummary, formatTable, resultsDir, trapResultsDir, writeResults } from './report.ts';
import { optionsFromEnv, runScenario } from './run-scenario.ts';
import { trapReplay } from './trap-replay.ts';

let args: DemoArgs;
try {
  args = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const env = optionsFromEnv();
try {
  const result = await runScenario({
    ...env,
    learning: args.learning,
    ...(args.weeks !== undefined && { weeks: args.weeks }),
    ...(args.trap && trapReplay()),
    onProgress: progressPrinter({ quiet: args.quiet, verbose: args.verbose }),
  });
  console.log(`\n${formatTable(result)}\n\n${formatSummary(result)}`);
  if (args.write) {
    const written = writeResults(result, args.trap ? trapResultsDir(args) : resultsDir(args));
    console.log(`\nWrote ${relative(repoRoot, written.results)} and ${relative(repoRoot, written.chart)} (the chart draws every results-*.json there).`);
  }
  // Totals that agree under other weeks are a known gap (an agent without a date of its own), not
  // a miscount: say so and carry on. Numbers that differ are a failure.
  if (result.check.agents.some((a) => a.outcome === 'mismatch')) {
    console.error('\nThe replay and the agents do not count the same numbers; see the check lines above.');
    process.exit(1);
  }
  if (!result.check.agrees) {
    console.warn(
      '\nThe totals agree, but an agent counted its messages under the week they arrived rather than their own dates, so its chart in the console will not show the scenario week by week.',
    );
  }
} catch (error) {
  const cause = error as Error;
  const unreachable =
    error instanceof AuthorityUnavailable ||
    (cause.message ?? '').includes('fetch failed') ||
    (cause.cause as { code?: string } | undefined)?.code === 'ECONNREFUSED';
  console.error(
    unreachable
      ? `Cannot reach the stack (${env.emailAgentUrl}, ${env.manifestAgentUrl}, ${env.authorityUrl}): start it with \`pnpm start\`, or run \`pnpm demo:compare\`, which starts its own. (${cause.message})`
      : `The replay stopped: ${cause.stack ?? cause.message}`,
  );
  process.exit(1);
}
