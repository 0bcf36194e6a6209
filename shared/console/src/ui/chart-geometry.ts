// The numbers behind the questions-per-100-messages chart, apart from drawing, so they can be tested.

export interface ChartPeriod {
  readonly period: string;
  readonly messages: number;
  readonly questions: number;
  readonly questionsPer100: number;
  /** Decisions on this period's messages corrected later, when the agent counts them. */
  readonly corrected?: number;
}

/**
 * Under this many messages a week's questions per 100 says little (one question in five messages
 * reads "20 per 100"): such a week is drawn hollow, labelled "few messages", and never the headline.
 */
export const MIN_MESSAGES = 20;

export interface ChartPoint extends ChartPeriod {
  readonly x: number;
  readonly y: number;
  /** Fewer than MIN_MESSAGES messages that week. */
  readonly few: boolean;
}

export interface ChartGeometry {
  readonly width: number;
  readonly height: number;
  readonly plot: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number };
  /** One point per week that had messages; a week with none has no point. */
  readonly points: readonly ChartPoint[];
  /** The SVG path through the points, broken (a new `M`) across any week without messages; '' with no points. */
  readonly line: string;
  readonly yMax: number;
  readonly yTicks: readonly { readonly y: number; readonly value: number }[];
  /** The periods labelled under the axis: all of them when they fit, otherwise evenly thinned, with that week's message count. */
  readonly xLabels: readonly { readonly x: number; readonly label: string; readonly messages: number }[];
}

const round = (value: number) => Math.round(value * 10) / 10;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The top of the scale and its tick step: whole steps of 1, 2, 5, 10, 20 or 25, at most five of
 * them, so ticks read 0 / 5 / 10 / 15 / 20 and never 6.3 / 12.5 / 18.8. Questions per 100 never exceeds 100.
 */
export function chartScale(highest: number): { readonly max: number; readonly step: number } {
  const top = Math.min(Math.max(highest, 0), 100);
  if (top === 0) return { max: 10, step: 2 };
  for (const step of [2, 5, 10, 20, 25]) {
    const steps = Math.ceil(top / step);
    if (steps <= 5) return { max: step * steps, step };
  }
  return { max: 100, step: 25 };
}

/** One scale for every panel on the page: the highest week (with messages) of any of them. */
export function sharedScaleMax(panels: readonly (readonly ChartPeriod[])[]): number {
  return chartScale(Math.max(0, ...panels.flatMap((periods) => periods.filter((period) => period.messages > 0).map((period) => period.questionsPer100)))).max;
}

/** The figure worth a headline: the latest week with at least MIN_MESSAGES messages, or none. */
export function headlinePeriod<P extends ChartPeriod>(periods: readonly P[]): P | undefined {
  return [...periods].reverse().find((period) => period.messages >= MIN_MESSAGES);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A period's start as a short label: `2026-10-05` reads "Oct 5"; anything else stays as it is. */
export function periodLabel(period: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(period);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${month} ${Number(match[3])}` : period;
}

/**
 * Points placed by time, so a week with no messages shows as a gap in spacing and in the line
 * (the line is not drawn across it); periods that are not dates fall back to even spacing.
 * `yMax` lets every panel share one scale (see sharedScaleMax).
 */
export function chartGeometry(
  periods: readonly ChartPeriod[],
  size: { width: number; height: number } = { width: 440, height: 250 },
  yMax: number = sharedScaleMax([periods]),
): ChartGeometry {
  const plot = { left: 52, right: size.width - 20, top: 14, bottom: size.height - 58 };
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
  const points: ChartPoint[] = [];
  let line = '';
  let previous: number | undefined;
  periods.forEach((period, index) => {
    if (period.messages <= 0) {
      previous = undefined;
      return;
    }
    const point = { ...period, x: round(xOf(index)), y: round(yOf(period.questionsPer100)), few: period.messages < MIN_MESSAGES };
    // A week missing between two dated weeks (more than a week apart) breaks the line as an empty one does.
    const joined = previous !== undefined && (!byTime || times[index]! - times[previous]! <= WEEK_MS * 1.5);
    line += `${line === '' ? '' : ' '}${joined ? 'L' : 'M'}${point.x},${point.y}`;
    points.push(point);
    previous = index;
  });
  const { step } = chartScale(yMax);
  const yTicks: { y: number; value: number }[] = [];
  for (let value = 0; value <= yMax + 1e-9; value += yMax % step === 0 ? step : yMax / 4) yTicks.push({ value: round(value), y: round(yOf(value)) });
  // Labels are kept at least a label's width apart, counted back from the latest period, so the
  // period that matters most always has its label.
  const xLabels: { x: number; label: string; messages: number }[] = [];
  for (const point of [...points].reverse()) {
    if (xLabels.every((label) => Math.abs(label.x - point.x) >= 64))
      xLabels.unshift({ x: point.x, label: periodLabel(point.period), messages: point.messages });
  }
  return { width: size.width, height: size.height, plot, points, line, yMax, yTicks, xLabels };
}
