/**
 * The last `capacity` results of a pure function, by key: the least recently used goes first, so
 * memory stays bounded whatever keys come (a Map: keys come from messages and lessons, which
 * anyone may send). Used where the same value is worked out several times for one message, and
 * again for the next message like it: a mark's check, a pattern's compiled regex.
 */
export class RecentCache<K, V> {
  private readonly values = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.values.get(key);
    if (value === undefined) return undefined;
    // Most recently used last, so the first key is the one to let go.
    this.values.delete(key);
    this.values.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.values.delete(key);
    this.values.set(key, value);
    while (this.values.size > this.capacity) this.values.delete(this.values.keys().next().value as K);
  }

  clear(): void {
    this.values.clear();
  }

  get size(): number {
    return this.values.size;
  }
}
