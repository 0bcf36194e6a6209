/**
 * Whether a rate measured in windows of equal work or time has stopped climbing: the last `span`
 * windows are on average no more than `climb` (a fraction) faster than the `span` before them.
 *
 * A benchmark's processes warm up (the JIT, pools, caches) over thousands of messages on these
 * two-core machines, and slowly: two windows in a row often agree within 10% while the rate is
 * still climbing (147 → 152 → 192 messages/s), so "two in a row agree" ends the warm-up too early
 * and the first measured rounds are low. Comparing averages of spans smooths the machine's noise.
 */
export function stoppedClimbing(rates: readonly number[], { span = 3, climb = 0.05 }: { span?: number; climb?: number } = {}): boolean {
  if (rates.length < 2 * span) return false;
  const mean = (some: readonly number[]) => some.reduce((sum, rate) => sum + rate, 0) / some.length;
  return mean(rates.slice(-span)) <= (1 + climb) * mean(rates.slice(-2 * span, -span));
}
