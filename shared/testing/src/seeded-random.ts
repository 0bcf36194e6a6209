/** A small seeded PRNG (mulberry32): the same seed gives the same scenario and fixtures, byte for byte. */
export type Random = () => number;

export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function between(random: Random, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

/** One of `items`, each as likely as its weight. */
export function weighted<T extends { readonly weight: number }>(random: Random, items: readonly T[]): T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  let at = random() * total;
  for (const item of items) {
    at -= item.weight;
    if (at < 0) return item;
  }
  const last = items[items.length - 1];
  if (last === undefined) throw new Error('weighted pick from an empty list');
  return last;
}

/** A number of `digits` digits, never starting with 0. */
export function digits(random: Random, count: number): string {
  let out = String(between(random, 1, 9));
  while (out.length < count) out += String(between(random, 0, 9));
  return out;
}
