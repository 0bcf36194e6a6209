import type { VersionedDefinition } from '../authority.ts';

/** What a client keeps of versions it fetched, in bytes of their stored entries (64 MiB). */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

interface Slot {
  readonly definition: Promise<VersionedDefinition>;
  /** Undefined while the version is being fetched: it cannot be weighed, nor put out. */
  bytes: number | undefined;
}

/**
 * The versions a client has fetched, least recently used out once they weigh more than a budget.
 * A version's weight is the bytes of its entries as the authority sent them: the whole answer
 * for a version fetched whole; for one fetched as changes since another, that one's weight less
 * the entries replaced plus the changed ones as sent. Untouched entries shared between versions
 * count in each (so the budget over-counts memory, never under-counts it). Versions never
 * change, so nothing is ever stale; a version put out is fetched again when a task pinned to it
 * asks (and whoever holds it keeps it meanwhile). Never put out: a fetch under way, and the
 * newest version of each collection, which the next version is asked for as changes to.
 */
export class DefinitionCache {
  private readonly slots = new Map<string, Slot>();
  private total = 0;

  constructor(private readonly budget = DEFAULT_CACHE_BYTES) {
    if (!(budget >= 0)) throw new RangeError(`A cache of ${budget} bytes makes no sense; give 0 or more.`);
  }

  /** The version if kept, counted as a use. */
  get(key: string): Promise<VersionedDefinition> | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.definition;
  }

  /** A fetch under way; a failed one is forgotten, so the next ask tries again. */
  fetching(key: string, definition: Promise<VersionedDefinition>): void {
    const slot: Slot = { definition, bytes: undefined };
    this.slots.set(key, slot);
    definition.catch(() => {
      if (this.slots.get(key) === slot) this.slots.delete(key);
    });
  }

  /** The fetch of `key` finished and weighs `bytes`; put out the least recently used past the budget. */
  fetched(key: string, bytes: number, keep: (key: string) => boolean): void {
    const slot = this.slots.get(key);
    if (slot === undefined || slot.bytes !== undefined) return;
    slot.bytes = bytes;
    this.total += bytes;
    if (this.total <= this.budget) return;
    for (const [oldest, candidate] of this.slots) {
      if (this.total <= this.budget) break;
      if (candidate.bytes === undefined || keep(oldest)) continue;
      this.slots.delete(oldest);
      this.total -= candidate.bytes;
    }
  }

  /** How many versions are kept (fetches under way included) and what the fetched ones weigh. */
  get size(): { readonly versions: number; readonly bytes: number } {
    return { versions: this.slots.size, bytes: this.total };
  }
}
