/** The demo's command-line options: `--learning on|off`, `--weeks N`, `--quiet`, `--verbose`, `--no-write`, `--update-docs`, `--trap`. */
export interface DemoArgs {
  readonly learning: 'on' | 'off';
  readonly weeks?: number;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly write: boolean;
  /** Write into docs/scenario (the committed results and chart) instead of data/scenario. */
  readonly updateDocs: boolean;
  /** Replay the trap scenario with the trusting operator instead (pnpm demo only). */
  readonly trap: boolean;
}

export const USAGE = `options:
  --learning on|off   on (default): answers are remembered as lessons; off: answered, nothing remembered
  --weeks N           replay only the first N weeks
  --quiet             print only the table at the end
  --verbose           a line per message
  --no-write          write no results file and no chart
  --update-docs       write the results and the chart into docs/scenario (the committed copies)
                      instead of data/scenario (ignored by git)
  --trap              pnpm demo: replay fixtures/trap-scenario with the operator who trusts every
                      suggestion, into data/trap-scenario (docs/trap-scenario with --update-docs)`;

export function parseArgs(argv: readonly string[]): DemoArgs {
  let learning: 'on' | 'off' = 'on';
  let weeks: number | undefined;
  let quiet = false;
  let verbose = false;
  let write = true;
  let updateDocs = false;
  let trap = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (name === '--learning') {
      const v = value();
      if (v !== 'on' && v !== 'off') throw new Error(`--learning takes on or off, not ${v ?? 'nothing'}.\n${USAGE}`);
      learning = v;
    } else if (name === '--weeks') {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 1) throw new Error(`--weeks takes a whole number of weeks, at least 1.\n${USAGE}`);
      weeks = v;
    } else if (name === '--quiet') quiet = true;
    else if (name === '--verbose') verbose = true;
    else if (name === '--no-write') write = false;
    else if (name === '--update-docs') updateDocs = true;
    else if (name === '--trap') trap = true;
    else if (name === '--help' || name === '-h') throw new Error(USAGE);
    else throw new Error(`Unknown option ${arg}.\n${USAGE}`);
  }
  if (!write && updateDocs) throw new Error(`--no-write and --update-docs contradict each other.\n${USAGE}`);
  return { learning, ...(weeks !== undefined && { weeks }), quiet, verbose, write, updateDocs, trap };
}
