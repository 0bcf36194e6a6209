import type { ScenarioProgress } from './run-scenario.ts';

export interface PrinterOptions {
  readonly quiet?: boolean;
  readonly verbose?: boolean;
  /** Put before every line, e.g. `[learning on] `. */
  readonly prefix?: string;
  readonly out?: NodeJS.WriteStream;
}

/** Progress for a terminal: a line per week, a counter in between (a line per message with verbose). */
export function progressPrinter(options: PrinterOptions = {}): (event: ScenarioProgress) => void {
  const out = options.out ?? process.stdout;
  const prefix = options.prefix ?? '';
  const live = out.isTTY === true && !options.verbose;
  let counter = false;
  const line = (text: string) => {
    if (counter) out.write('\r\x1b[K');
    counter = false;
    out.write(`${prefix}${text}\n`);
  };
  return (event) => {
    if (options.quiet) return;
    switch (event.kind) {
      case 'start':
        line(`Replaying ${event.total} messages over ${event.weeks} week${event.weeks === 1 ? '' : 's'}, learning ${event.learning}.`);
        for (const warning of event.warnings) line(`Warning: ${warning}`);
        break;
      case 'message':
        if (options.verbose) {
          line(
            `  ${event.index}/${event.total} [${event.agent}] ${event.file}: ${event.asked ? `asked${event.lesson ? `, lesson ${event.lesson}` : ''}` : 'settled'}`,
          );
        } else if (live) {
          out.write(`\r\x1b[K${prefix}  week ${event.week} · ${event.index}/${event.total}`);
          counter = true;
        }
        break;
      case 'week': {
        const w = event.numbers;
        line(
          `  week ${w.week} (from ${w.start}): ${w.all.messages} messages, ${w.all.questions} questions = ${w.all.per100.toFixed(1)} per 100 ` +
            `(email ${w.email.per100.toFixed(1)}, manifest ${w.manifest.per100.toFixed(1)})${w.lessons ? `; ${w.lessons} lesson${w.lessons === 1 ? '' : 's'}` : ''}`,
        );
        break;
      }
      case 'done':
        break;
    }
  };
}
