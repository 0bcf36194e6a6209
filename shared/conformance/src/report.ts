import type { CheckResult } from './catalog.ts';
import { CHECK_IDS, SECTIONS } from './catalog.ts';
import type { Report } from './check-agent.ts';

const ID_WIDTH = Math.max(...CHECK_IDS.map((id) => id.length));

/** One line per check: status, name, the spec section it enforces, and its one-sentence reason. */
export function formatCheck(check: CheckResult): string {
  return `  ${check.status.padEnd(4)}  ${check.id.padEnd(ID_WIDTH)}  ${check.reason} [${check.spec}]`;
}

/** The human-readable report: checks grouped by section, a count, notes, and the verdict. */
export function formatReport(report: Report): string {
  const lines = [`learnables-check ${report.agent}`, `input: ${report.input ?? 'none (the input-dependent checks are skipped)'}`];
  let previous: CheckResult | undefined;
  for (const section of SECTIONS) {
    const checks = report.checks.filter((c) => c.section === section);
    if (checks.length === 0) continue;
    lines.push('', section);
    for (const check of checks) {
      const repeated = previous !== undefined && check.status === previous.status && check.reason === previous.reason;
      lines.push(repeated ? formatCheck({ ...check, reason: `(as for ${previous!.id})` }) : formatCheck(check));
      if (!repeated) previous = check;
    }
  }
  const { pass, fail, skip } = report.counts;
  lines.push('', `${report.checks.length} checks: ${pass} passed, ${fail} failed, ${skip} skipped (${(report.durationMs / 1000).toFixed(1)} s).`);
  for (const note of report.notes) lines.push(`note: ${note}`);
  const failed = report.checks.filter((c) => c.status === 'FAIL').map((c) => c.id);
  lines.push(
    report.needsInput !== undefined && report.counts.fail === 0
      ? `INCOMPLETE: ${report.needsInput}`
      : report.ok
        ? `PASS: every check that could run passed${skip > 0 ? `; ${skip} skipped (SKIP is not PASS: see the reasons above)` : ''}.`
        : `FAIL: ${failed.join(', ')}.`,
  );
  return `${lines.join('\n')}\n`;
}
