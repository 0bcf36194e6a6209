import type { VersionReader } from './store/definition-store.ts';
import type { VersionedDefinition } from './authority.ts';

/**
 * Resolved versions and the version tree, in memory. Both are immutable once written, so
 * nothing here is ever invalidated; the definitions are bounded by a small LRU, the tree (a few
 * numbers per version) is kept whole and topped up with versions published since.
 */
export class VersionCache {
  private readonly definitions = new Map<string, VersionedDefinition>();
  private readonly parents = new Map<string, Map<number, number | null>>();
  private readonly newest = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  get(collection: string, version: number): VersionedDefinition | undefined {
    const key = `${collection}@${version}`;
    const hit = this.definitions.get(key);
    if (hit) {
      this.definitions.delete(key);
      this.definitions.set(key, hit);
    }
    return hit;
  }

  /** Whether a version is in memory, without counting as a use. */
  has(collection: string, version: number): boolean {
    return this.definitions.has(`${collection}@${version}`);
  }

  set(collection: string, version: number, definition: VersionedDefinition): void {
    const key = `${collection}@${version}`;
    this.definitions.delete(key);
    this.definitions.set(key, definition);
    while (this.definitions.size > this.capacity) {
      const oldest = this.definitions.keys().next().value as string;
      this.definitions.delete(oldest);
    }
  }

  /** The newest version seen by `lineage` (0 when none). */
  newestKnown(collection: string): number {
    return this.newest.get(collection) ?? 0;
  }

  /** The versions from the seed down to `version` (its ancestors, oldest first), or undefined. */
  async lineage(reader: VersionReader, collection: string, version: number): Promise<number[] | undefined> {
    let tree = this.parents.get(collection);
    if (!tree) {
      tree = new Map();
      this.parents.set(collection, tree);
    }
    if (!tree.has(version)) {
      for (const record of await reader.versions(collection, this.newest.get(collection) ?? 0)) {
        tree.set(record.version, record.parent);
        this.newest.set(collection, record.version);
      }
      if (!tree.has(version)) return undefined;
    }
    const chain: number[] = [];
    for (let at: number | null | undefined = version; at != null; at = tree.get(at)) chain.push(at);
    return chain.reverse();
  }
}
