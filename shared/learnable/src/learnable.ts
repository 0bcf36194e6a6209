import type { LessonValue } from '@learnables/protocol';

/** What `learn` answers: the amended copy, and whether the value taught anything new. */
export interface Learned<L> {
  readonly next: L;
  readonly changed: boolean;
}

/**
 * Something on a definition that a person's answer may extend: one customer's marks, one
 * field's headings. It is the only code that reads named keys of a lesson's value; everything
 * between the client and here passes the value along unopened.
 *
 * Instances are immutable: `learn` returns an amended copy and leaves `this` alone, so a
 * version once published can be shared by every task pinned to it.
 */
export abstract class Learnable {
  /** The entry's key in its collection, e.g. `northgate` or `waybill`. */
  abstract readonly key: string;
  /** How a person calls the entry, e.g. `Northgate Motors Ltd`. */
  abstract readonly label: string;

  /**
   * Absorb a value: an amended copy of the same kind and whether anything changed; or throw
   * `UnlearnableValue` with a sentence saying why, for the person who typed the value.
   * `others` are the collection's other entries as of the version the lesson amends, so a
   * learnable can refuse a value that would collide with theirs (a mark another customer holds).
   */
  abstract learn(value: LessonValue, others?: readonly Learnable[]): Learned<Learnable>;

  /** The audit sentence for a value, in the learnable's own words. */
  abstract describes(value: LessonValue): string;

  /**
   * The inverse of `learn`: take a value taught earlier back out. An amended copy and whether
   * anything changed (false when the value is not there, e.g. taken back already); or throw
   * `UnlearnableValue`. Only the learnable knows what of it a value put there.
   */
  abstract unlearn(value: LessonValue): Learned<Learnable>;

  /** The audit sentence for taking a value back, e.g. "northgate no longer matches '…' in the from". */
  abstract describesRetraction(value: LessonValue): string;

  /** The entry as plain JSON, for storage; its kind rebuilds it from this. */
  abstract toState(): unknown;
}

/**
 * How the authority turns stored state back into learnables, for one collection. The authority
 * is handed these where the service is composed; it never imports an agent.
 */
export interface LearnableKind<L extends Learnable = Learnable> {
  readonly collection: string;
  fromState(key: string, state: unknown): L;
  /**
   * A new entry that has been taught nothing yet, for a person adding it (a new customer). Throw
   * `UnlearnableValue` with a sentence when this collection cannot take one so named.
   */
  create(key: string, label: string): L;
  /**
   * Check a seed against the rules lessons follow, before it is loaded and at every start-up:
   * throw an Error whose message names the entry and says what to change. A seed is written by
   * hand and never passes through `learn`, so without this it could hold what no lesson may.
   */
  checkSeed?(entries: readonly L[]): void;
}

/** Freeze an object and everything reachable from it, so nobody can edit a published version. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // The same keys as Reflect.ownKeys (names and symbols, enumerable or not), but several times
    // faster in V8, and arrays by index rather than a string per element: freezing a
    // 10,000-entry definition cost more than reading it from storage.
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) deepFreeze(value[i]);
      return value;
    }
    const object = value as Record<PropertyKey, unknown>;
    for (const name of Object.getOwnPropertyNames(object)) deepFreeze(object[name]);
    for (const symbol of Object.getOwnPropertySymbols(object)) deepFreeze(object[symbol]);
  }
  return value;
}
