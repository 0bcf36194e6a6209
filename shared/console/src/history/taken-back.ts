import type { AuthorityClient } from '@learnables/authority';

/** Pages of the history read at most for one count (1,000 activations a page). */
const MAX_PAGES = 20;

/**
 * How many lessons of a collection were taken back (activations of kind `retraction`, SPEC §5.4),
 * as the authority recorded them. The history is read again only when the collection's active
 * version moved (a retraction always publishes one), so the dashboard's look every few seconds
 * costs one small request per collection.
 */
export class LessonsTakenBack {
  private readonly counted = new Map<string, { version: number; taken: number; atLeast: boolean }>();

  constructor(private readonly authority: AuthorityClient) {}

  async of(collection: string): Promise<{ taken: number; atLeast: boolean }> {
    const active = await this.authority.active(collection);
    const known = this.counted.get(collection);
    if (known && known.version === active.version) return known;
    let taken = 0;
    let before: number | undefined;
    let pages = 0;
    for (; pages < MAX_PAGES; pages++) {
      const { activations } = await this.authority.history(collection, { limit: 1000, ...(before !== undefined && { before }) });
      taken += activations.filter((activation) => activation.kind === 'retraction').length;
      if (activations.length < 1000) break;
      before = activations.at(-1)!.id;
    }
    const count = { version: active.version, taken, atLeast: pages === MAX_PAGES };
    this.counted.set(collection, count);
    return count;
  }
}
