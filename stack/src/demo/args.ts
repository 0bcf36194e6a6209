/** The demo's command-line options: `--learning on|off`, `--weeks N`, `--quiet`, `--verbose`, `--no-write`. */
export interface DemoArgs {
  readonly learning: 'on' | 'off';
  readonly weeks?: number;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly write: boolean;
}

export const USAGE = `options:
  --learning on|off   on (default): answers are remembered as lessons; off: answered, nothing remembered
  --weeks N           replay only the first N weeks
  --quiet             print only the table at the end
  --verbose           a line per message
  --no-write          do not write docs/scenario/results-*.json and the chart`;

export function parseArgs(argv: readonly string[]): DemoArgs {
  let learning: 'on' | 'off' = 'on';
  let weeks: number | undefined;
  let quiet = false;
  let verbose = false;
  let write = true;
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
    else if (name === '--help' || name === '-h') throw new Error(USAGE);
    else throw new Error(`Unknown option ${arg}.\n${USAGE}`);
  }
  return { learning, ...(weeks !== undefined && { weeks }), quiet, verbose, write };
}
