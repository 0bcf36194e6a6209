import { cpus, totalmem } from 'node:os';

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[at] ?? 0) * 100) / 100;
}

/** The machine a result was measured on, for the results table. */
export const machine = (): string =>
  `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

/** Print one benchmark's rows as a markdown table. */
export function report(title: string, rows: readonly Record<string, string | number>[]): void {
  const columns = Object.keys(rows[0] ?? {});
  console.log(`\n### ${title}\n\nMachine: ${machine()}\n`);
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`| ${columns.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${columns.map((c) => row[c]).join(' | ')} |`);
}
