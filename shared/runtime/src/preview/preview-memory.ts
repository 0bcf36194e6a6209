import type { Learnable } from '@learnables/learnable';
import type { Finding } from '../learnable-agent.ts';
import type { PinnedDefinition, PinnedDefinitions } from '../pinned-definitions.ts';

type Findings = Readonly<Record<string, Finding>>;

/** What preview keeps of one recent task. */
interface Kept {
  readonly evidence: unknown;
  readonly bytes: number;
  /** Its findings under the definitions of generation `decidedAt`, once decided. */
  findings?: Findings;
  decidedAt?: number;
}

/** One entry that differs between two versions of a collection. */
export interface EntryChange {
  readonly collection: string;
  readonly before: Learnable<any> | undefined;
  readonly after: Learnable<any> | undefined;
}

/** Preview keeps 64 MB of evidence by default: some 5,000 ordinary emails. */
export const PREVIEW_MEMORY_BYTES = 64 * 1024 * 1024;
/** What a kept task costs beyond its evidence: the record, its findings, the map's slot. */
const OVERHEAD_BYTES = 512;
/** Past this many changed entries between two live versions, deciding every input again is simpler. */
const MOST_CHANGES = 256;

/**
 * What preview keeps of recent tasks between calls, in this process's memory only: each task's
 * evidence (its agent's `Decider.evidence` of the recorded input) and its findings under the live
 * definitions it was last decided with. Bounded by bytes, least recently used first out. Nothing
 * here is written anywhere and nothing is lost by forgetting it: a restart, or a task pushed out,
 * costs only reading that input again. Task ids are the keys; which tasks a caller may see is
 * decided by the ledger before anything is looked up here.
 */
export class PreviewMemory {
  private readonly kept = new Map<string, Kept>();
  private used = 0;
  /** The live definitions the current generation of findings was decided with. */
  private definitions: PinnedDefinitions | undefined;
  private generation = 0;

  constructor(readonly limit = PREVIEW_MEMORY_BYTES) {}

  /** Bytes held now, by the evidence's own estimate plus a fixed overhead per task. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.kept.size;
  }

  /** The evidence kept for a task, marking it as used. */
  evidence(taskId: string): { readonly evidence: unknown } | undefined {
    const kept = this.kept.get(taskId);
    if (kept === undefined) return undefined;
    this.kept.delete(taskId);
    this.kept.set(taskId, kept);
    return kept;
  }

  /** Keep a task's evidence, pushing out the least recently used; evidence larger than the whole bound is not kept. */
  keep(taskId: string, evidence: unknown, bytes: number): void {
    const cost = Math.max(0, bytes) + OVERHEAD_BYTES;
    if (cost > this.limit) return;
    this.forget(taskId);
    this.kept.set(taskId, { evidence, bytes: cost });
    this.used += cost;
    for (const [oldest] of this.kept) {
      if (this.used <= this.limit) break;
      this.forget(oldest);
    }
  }

  /** The task's findings under the definitions of `at` (what `liveAt` answered), if known. */
  findings(taskId: string, at: number): Findings | undefined {
    const kept = this.kept.get(taskId);
    return at === this.generation && kept?.decidedAt === at ? kept.findings : undefined;
  }

  /** Remember a task's findings under the definitions of `at`, unless newer definitions came meanwhile. */
  decided(taskId: string, findings: Findings, at: number): void {
    const kept = this.kept.get(taskId);
    if (kept === undefined || at !== this.generation) return;
    kept.findings = findings;
    kept.decidedAt = at;
  }

  /**
   * Make `live` the definitions findings are kept for, and answer the generation that names them.
   * When they differ from the last ones by a few entries and `affects` says which evidence those
   * changes can reach, the findings of every other task carry forward unchanged (the decider's
   * contract); the rest are forgotten, to be decided again.
   */
  liveAt(live: PinnedDefinitions, affects: ((changes: readonly EntryChange[]) => ((evidence: unknown) => boolean) | undefined) | undefined): number {
    const before = this.definitions;
    if (before !== undefined && sameDefinitions(before, live)) return this.generation;
    const previous = this.generation;
    this.generation += 1;
    this.definitions = live;
    if (before === undefined || affects === undefined) return this.generation;
    const changes = changesBetween(before, live);
    const reaches = changes === undefined ? undefined : affects(changes);
    if (reaches === undefined) return this.generation;
    for (const kept of this.kept.values()) {
      if (kept.decidedAt === previous && !reaches(kept.evidence)) kept.decidedAt = this.generation;
    }
    return this.generation;
  }

  private forget(taskId: string): void {
    const kept = this.kept.get(taskId);
    if (kept === undefined) return;
    this.kept.delete(taskId);
    this.used -= kept.bytes;
  }
}

function sameDefinitions(a: PinnedDefinitions, b: PinnedDefinitions): boolean {
  if (a.size !== b.size) return false;
  for (const [collection, definition] of a) {
    const other = b.get(collection);
    if (other === undefined || !(other === definition || (other.version === definition.version && other.entries === definition.entries))) return false;
  }
  return true;
}

/**
 * The entries that differ between two sets of definitions, or undefined when there are too many to
 * be worth it. Untouched entries are usually the same objects (the authority client builds a version
 * from the one before); otherwise an entry is compared by its label and its stored state, which only
 * the learnable reads.
 */
export function changesBetween(before: PinnedDefinitions, after: PinnedDefinitions): EntryChange[] | undefined {
  const changes: EntryChange[] = [];
  for (const [collection, now] of after) {
    const was = before.get(collection);
    if (was === undefined) return undefined;
    if (was.entries === now.entries) continue;
    const old = new Map(was.entries.map((entry) => [entry.key, entry]));
    for (const entry of now.entries) {
      const earlier = old.get(entry.key);
      old.delete(entry.key);
      if (earlier === entry || (earlier !== undefined && sameEntry(earlier, entry))) continue;
      changes.push({ collection, before: earlier, after: entry });
      if (changes.length > MOST_CHANGES) return undefined;
    }
    for (const removed of old.values()) changes.push({ collection, before: removed, after: undefined });
    if (changes.length > MOST_CHANGES || !sameOrder(was, now)) return undefined;
  }
  return changes;
}

function sameEntry(a: Learnable<any>, b: Learnable<any>): boolean {
  return a.label === b.label && JSON.stringify(a.toState()) === JSON.stringify(b.toState());
}

/**
 * Whether the entries both versions hold stand in the same order: an agent may break ties by an
 * entry's place, so a reordering is a change `affects` is not asked about.
 */
function sameOrder(a: PinnedDefinition, b: PinnedDefinition): boolean {
  const inB = new Set(b.entries.map((entry) => entry.key));
  const inA = new Set(a.entries.map((entry) => entry.key));
  const common = (entries: readonly Learnable<any>[], other: Set<string>) => entries.filter((entry) => other.has(entry.key)).map((entry) => entry.key);
  const left = common(a.entries, inB);
  const right = common(b.entries, inA);
  return left.length === right.length && left.every((key, i) => key === right[i]);
}
