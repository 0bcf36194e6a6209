// The trap scenario's manifest part: shippers whose manifest headings collide (a `Ref` that is a
// waybill for one and a purchase-order number for another). make-trap-scenario.ts asks this
// module for its files and merges them into the stream by date; it draws from its own seeded PRNG,
// so adding or changing manifests leaves every email byte as it was.
import type { Random } from '@learnables/testing';
import type { ManifestTruth } from './stream.ts';
import type { TrapCast } from './trap-cast.ts';

/** One manifest to add to the stream. */
export interface TrapManifestFile {
  readonly at: Date;
  /** 1-based week of the scenario. */
  readonly week: number;
  /** File name under manifests/ (the replay dates a manifest by the day its name starts with). */
  readonly name: string;
  readonly bytes: Buffer;
  /** Who sent it (stream.json's `source`). */
  readonly source: string;
  readonly truth: ManifestTruth;
  /** The trap it carries, in a few words. */
  readonly trap: string;
  /** A question a person answers but would not turn into a rule, and why. */
  readonly remember?: false;
  readonly why?: string;
}

/** What a manifest part gets to plan with. */
export interface TrapCalendar {
  readonly cast: TrapCast;
  readonly weeks: number;
  readonly firstMonday: number;
  readonly random: Random;
}

/**
 * The manifests of the trap stream. None yet: the colliding-headings shippers are written as their
 * own part (see the brief of issue #19); this is where they plug in.
 */
export async function trapManifests(_calendar: TrapCalendar): Promise<readonly TrapManifestFile[]> {
  return [];
}

/** Rows for the README's manifest table, when the part has any. */
export function trapManifestReadme(_files: readonly TrapManifestFile[]): string {
  return '';
}
