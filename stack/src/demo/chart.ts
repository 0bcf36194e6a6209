// An SVG line chart of questions per 100 messages by week, drawn by hand (no dependencies):
// one solid line per results file for both agents together, dashed lines for each agent, and under
// the weeks each run's count of decisions made without asking that were wrong: a falling line is
// worth something only while that count stays at zero, so the two are never shown apart. Under
// those, the decisions corrected later, as the agents count them (SPEC §6.8).
import type { ScenarioResult } from './run-scenario.ts';

const WIDTH = 760;
const PLOT = { left: 60, right: 560, top: 78, bottom: 370 };
/** Where the rows of wrong-without-asking counts start, under the week labels. */
const WRONG_TOP = PLOT.bottom + 56;
const WRONG_ROW = 16;
const COLOURS: Record<string, string> = { on: '#1a7f5a', off: '#c2412d' };
const SPARE = ['#2f5fb3', '#8a4fb3', '#b3862f'];
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fixed = (n: number) => (Math.round(n * 10) / 10).toString();

const wrongOf = (result: ScenarioResult) => result.weeks.map((w) => w.misreads);
// Results written before the replay corrected what it found wrong have no count: drawn as 0.
const correctedOf = (result: ScenarioResult) => result.weeks.map((w) => w.corrected ?? 0);

export function drawChart(results: readonly ScenarioResult[]): string {
  const correctedTop = WRONG_TOP + WRONG_ROW * Math.max(1, results.length) + 22;
  const height = correctedTop + WRONG_ROW * Math.max(1, results.length) + 14;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" font-family="Helvetica, Arial, sans-serif" role="img" aria-labelledby="title desc">`,
  );
  out.push(`<title id="title">Questions per 100 messages, week by week</title>`);
  const described = results
    .map(
      (r) =>
        `learning ${r.learning}: ${r.weeks.map((w) => fixed(w.all.per100)).join(', ')} (decided without asking and wrong: ${wrongOf(r).join(', ')}; corrected later: ${correctedOf(r).join(', ')})`,
    )
    .join('; ');
  out.push(`<desc id="desc">${escapeXml(described || 'No results yet.')}</desc>`);
  out.push(`<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${PLOT.left}" y="30" font-size="18" font-weight="bold" fill="#222">Questions per 100 messages, week by week</text>`);
  const first = results[0];
  const subtitle = first
    ? `${first.name ?? 'The six-week scenario'}, ${first.scenario.from} to ${first.scenario.to}: ${first.scenario.messages} emails and manifests. Solid: both agents; dashed: each agent.`
    : 'No results yet: run pnpm demo or pnpm demo:compare.';
  out.push(`<text x="${PLOT.left}" y="52" font-size="12" fill="#555">${escapeXml(subtitle)}</text>`);

  const weeks = Math.max(1, ...results.map((r) => r.weeks.length));
  const highest = Math.max(10, ...results.flatMap((r) => r.weeks.flatMap((w) => [w.all.per100, w.email.per100, w.manifest.per100])));
  const step = highest > 60 ? 20 : 10;
  // Room above the highest point for its label.
  const top = Math.ceil((highest * 1.08) / step) * step;
  const x = (week: number) => (weeks === 1 ? (PLOT.left + PLOT.right) / 2 : PLOT.left + 20 + ((week - 1) / (weeks - 1)) * (PLOT.right - PLOT.left - 40));
  const y = (value: number) => PLOT.bottom - (value / top) * (PLOT.bottom - PLOT.top);

  for (let value = 0; value <= top; value += step) {
    out.push(`<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${y(value)}" y2="${y(value)}" stroke="${value === 0 ? '#888' : '#e3e3e3'}" stroke-width="1"/>`);
    out.push(`<text x="${PLOT.left - 8}" y="${y(value) + 4}" font-size="11" fill="#666" text-anchor="end">${value}</text>`);
  }
  out.push(
    `<text transform="translate(18 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" font-size="12" fill="#444" text-anchor="middle">questions per 100 messages</text>`,
  );
  const weekStarts = first?.weeks.map((w) => w.start) ?? [];
  for (let week = 1; week <= weeks; week++) {
    out.push(`<text x="${x(week)}" y="${PLOT.bottom + 18}" font-size="12" fill="#444" text-anchor="middle">week ${week}</text>`);
    const start = weekStarts[week - 1];
    if (start) {
      const [, month, day] = start.split('-');
      out.push(
        `<text x="${x(week)}" y="${PLOT.bottom + 33}" font-size="10" fill="#888" text-anchor="middle">${Number(day)} ${SHORT_MONTHS[Number(month) - 1]}</text>`,
      );
    }
  }

  if (results.length) {
    out.push(
      `<text x="${PLOT.left}" y="${WRONG_TOP}" font-size="11" fill="#444">Decided without asking, and wrong (the line counts only while these stay at 0):</text>`,
    );
    out.push(`<text x="${PLOT.left}" y="${correctedTop}" font-size="11" fill="#444">Decisions corrected later, as the agents count them:</text>`);
  }
  results.forEach((result, index) => {
    const colour = COLOURS[result.learning] ?? SPARE[index % SPARE.length] ?? '#333';
    const rowY = WRONG_TOP + WRONG_ROW * (index + 1);
    out.push(`<text x="${PLOT.left - 8}" y="${rowY}" font-size="10" fill="${colour}" text-anchor="end">${escapeXml(result.learning)}</text>`);
    wrongOf(result).forEach((wrong, i) => {
      out.push(
        `<text class="wrong" x="${fixed(x(i + 1))}" y="${rowY}" font-size="11" font-weight="bold" fill="${wrong ? '#b00020' : colour}" text-anchor="middle">${wrong}</text>`,
      );
    });
    const correctedY = correctedTop + WRONG_ROW * (index + 1);
    out.push(`<text x="${PLOT.left - 8}" y="${correctedY}" font-size="10" fill="${colour}" text-anchor="end">${escapeXml(result.learning)}</text>`);
    correctedOf(result).forEach((corrected, i) => {
      out.push(
        `<text class="corrected" x="${fixed(x(i + 1))}" y="${correctedY}" font-size="11" font-weight="bold" fill="${corrected ? '#b00020' : colour}" text-anchor="middle">${corrected}</text>`,
      );
    });
  });

  let legendY = PLOT.top + 4;
  results.forEach((result, index) => {
    const colour = COLOURS[result.learning] ?? SPARE[index % SPARE.length] ?? '#333';
    const line = (values: readonly number[], dash: string, width: number, opacity: number) => {
      const points = values.map((v, i) => `${fixed(x(i + 1))},${fixed(y(v))}`).join(' ');
      return `<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-opacity="${opacity}" stroke-linejoin="round" stroke-linecap="round"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
    };
    out.push(`<g class="learning-${escapeXml(result.learning)}">`);
    out.push(
      line(
        result.weeks.map((w) => w.email.per100),
        '7 4',
        1.5,
        0.65,
      ),
    );
    out.push(
      line(
        result.weeks.map((w) => w.manifest.per100),
        '2 3',
        1.5,
        0.65,
      ),
    );
    out.push(
      line(
        result.weeks.map((w) => w.all.per100),
        '',
        3,
        1,
      ),
    );
    result.weeks.forEach((w, i) => {
      out.push(`<circle cx="${fixed(x(i + 1))}" cy="${fixed(y(w.all.per100))}" r="4" fill="${colour}"/>`);
      // The highest line of the week is labelled above its point, the others below theirs.
      const others = results.filter((r) => r !== result).map((r) => r.weeks[i]?.all.per100 ?? -1);
      const above = others.every((value) => w.all.per100 >= value);
      const labelY = above ? y(w.all.per100) - 9 : y(w.all.per100) + 17;
      out.push(
        `<text x="${fixed(x(i + 1))}" y="${fixed(labelY)}" font-size="11" font-weight="bold" fill="${colour}" text-anchor="middle">${w.all.per100.toFixed(1)}</text>`,
      );
    });
    out.push('</g>');

    const lx = PLOT.right + 24;
    out.push(`<text x="${lx}" y="${legendY}" font-size="13" font-weight="bold" fill="${colour}">learning ${escapeXml(result.learning)}</text>`);
    const entries: [string, string, number][] = [
      ['both agents', '', 3],
      ['email agent', '7 4', 1.5],
      ['manifest agent', '2 3', 1.5],
    ];
    entries.forEach(([label, dash, width], row) => {
      const ly = legendY + 18 + row * 17;
      out.push(
        `<line x1="${lx}" x2="${lx + 28}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="${width}"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
      );
      out.push(`<text x="${lx + 36}" y="${ly}" font-size="11" fill="#444">${label}</text>`);
    });
    const note = result.learning === 'on' ? 'answers remembered' : result.learning === 'off' ? 'answered, nothing remembered' : '';
    if (note) out.push(`<text x="${lx}" y="${legendY + 18 + 3 * 17}" font-size="10" fill="#777">${note}</text>`);
    legendY += 100;
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
