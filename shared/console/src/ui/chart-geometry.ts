// The numbers behind the questions-per-100-messages chart, apart from drawing, so they can be tested.

export interface ChartPeriod {
  readonly period: string;
  readonly messages: number;
  readonly questions: number;
  readonly questionsPer100: number;
}

export interface ChartPoint extends ChartPeriod {
  readonly x: number;
  readonly y: number;
}

export interface ChartGeometry {
  readonly width: number;
  readonly height: number;
  readonly plot: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number };
  readonly points: readonly ChartPoint[];
  /** The SVG path through the points ('' with no points). */
  readonly line: string;
  readonly yMax: number;
  readonly yTicks: readonly { readonly y: number; readonly value: number }[];
  /** The periods labelled under the axis: all of them when they fit, otherwise evenly thinned. */
  readonly xLabels: readonly { readonly x: number; readonly label: string }[];
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The smallest of 10, 20, 25, 50, 100 at or above the highest value: questions per 100 never exceeds 100. */
function scaleMax(highest: number): number {
  return [10, 20, 25, 50, 100].find((step) => highest <= step) ?? Math.ceil(highest / 10) * 10;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A period's start as a short label: `2026-10-05` reads "Oct 5"; anything else stays as it is. */
export function periodLabel(period: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(period);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${month} ${Number(match[3])}` : period;
}

/**
 * Points placed by time, so a week with no messages shows as a gap in spacing rather than being
 * silently closed up; periods that are not dates fall back to even spacing.
 */
export function chartGeometry(periods: readonly ChartPeriod[], size: { width: number; height: number } = { width: 720, height: 260 }): ChartGeometry {
  const plot = { left: 44, right: size.width - 28, top: 16, bottom: size.height - 36 };
  const yMax = scaleMax(Math.max(0, ...periods.map((period) => period.questionsPer100)));
  const across = plot.right - plot.left;
  const times = periods.map((period) => Date.parse(period.period));
  const byTime = times.every((time) => !Number.isNaN(time));
  const start = Math.min(...times);
  const span = Math.max(...times) - start;
  const xOf = (index: number) => {
    if (periods.length === 1) return plot.left + across / 2;
    if (byTime && span > 0) return plot.left + (across * (times[index]! - start)) / span;
    return plot.left + (across * index) / (periods.length - 1);
  };
  const yOf = (value: number) => plot.bottom - ((plot.bottom - plot.top) * Math.min(value, yMax)) / yMax;
  const points = periods.map((period, index) => ({ ...period, x: round(xOf(index)), y: round(yOf(period.questionsPer100)) }));
  const line = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x},${point.y}`).join(' ');
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((share) => ({ value: round(yMax * share), y: round(yOf(yMax * share)) }));
  // Labels are kept at least a label's width apart, counted back from the latest period, so the
  // period that matters most always has its label.
  const xLabels: { x: number; label: string }[] = [];
  for (const point of [...points].reverse()) {
    if (xLabels.every((label) => Math.abs(label.x - point.x) >= 56)) xLabels.unshift({ x: point.x, label: periodLabel(point.period) });
  }
  return { width: size.width, height: size.height, plot, points, line, yMax, yTicks, xLabels };
}
