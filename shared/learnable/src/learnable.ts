import type { z } from 'zod';
import type { LessonValue } from '@learnables/protocol';
import type { LessonValueSchema } from './lesson-value.ts';
import { readLessonValue } from './lesson-value.ts';

/** What `learn` answers: the amended copy, and whether the value taught anything new. */
export interface Learned<L> {
  readonly next: L;
  readonly changed: boolean;
}

/**
 * What `Learnable.of` returns: an abstract class to extend, whose lessons' values the schema reads.
 * Written out (not inferred) so that the published declarations keep the members abstract: an
 * inferred class expression is declared as a plain object type, and a subclass compiled against it
 * would be told to mark `key`, `learn` and the rest `override`.
 */
export type LearnableOf<V extends object> = (abstract new () => Learnable<V>) & { readonly lesson: LessonValueSchema };

/**
 * Something on a definition that a person's answer may extend: one customer's marks, one
 * field's headings. It is the only code that reads named keys of a lesson's value; everything
 * between the client and here passes the value along unopened.
 *
 * `V` is the value it takes. A learnable that declares its value's schema (`Learnable.of`) has
 * `readValue` read every lesson's value with it — unknown keys, empty fields and the text of a
 * number refused or read there, in its own words — and `learn`, `unlearn` and the `describes`
 * sentences receive the value already read. The control plane calls `readValue` first, always.
 *
 * Instances are immutable: `learn` returns an amended copy and leaves `this` alone, so a
 * version once published can be shared by every task pinned to it.
 */
export abstract class Learnable<V extends object = LessonValue> {
  /** The entry's key in its collection, e.g. `northgate` or `waybill`. */
  abstract readonly key: string;
  /** How a person calls the entry, e.g. `Northgate Motors Ltd`. */
  abstract readonly label: string;

  /**
   * A learnable whose lessons carry values of this schema (`lessonValue`): extend it, and `learn`
   * and the rest take the value the schema reads. The schema is the class's `lesson`, where the
   * kind (`defineKind`) and the runtime's start-up check find it.
   */
  static of<S extends LessonValueSchema>(schema: S): LearnableOf<z.output<S>> {
    abstract class Taking extends Learnable<z.output<S>> {
      /** The schema of a lesson's value. */
      static readonly lesson: LessonValueSchema = schema;
      override readValue(value: LessonValue): z.output<S> {
        return readLessonValue(schema, value) as z.output<S>;
      }
    }
    return Taking;
  }

  /**
   * A lesson's value as this learnable takes it, or `UnlearnableValue` with a sentence for the
   * person who typed it. Without a declared schema (`Learnable.of`) the value is taken as it came,
   * and `learn` checks it.
   */
  readValue(value: LessonValue): V {
    return value as V;
  }

  /**
   * Absorb a value: an amended copy of the same kind and whether anything changed; or throw
   * `UnlearnableValue` with a sentence saying why, for the person who typed the value.
   * `others` are the collection's other entries as of the version the lesson amends, so a
   * learnable can refuse a value that would collide with theirs (a mark another customer holds).
   */
  abstract learn(value: V, others?: readonly Learnable<V>[]): Learned<Learnable<V>>;

  /** The audit sentence for a value, in the learnable's own words. */
  abstract describes(value: V): string;

  /**
   * The value in words for a person who has never seen a pattern or a field name (SPEC §3.6), e.g.
   * "mail from billing@origin.example" or "the words 'Northgate Motors' in the subject". Optional: a
   * learnable without it is shown by its `describes` sentence. Only the learnable can say it, since
   * only it reads the value's keys.
   */
  says?(value: V): string;

  /**
   * The inverse of `learn`: take a value taught earlier back out. An amended copy and whether
   * anything changed (false when the value is not there, e.g. taken back already); or throw
   * `UnlearnableValue`. Only the learnable knows what of it a value put there.
   */
  abstract unlearn(value: V): Learned<Learnable<V>>;

  /** The audit sentence for taking a value back, e.g. "northgate no longer matches '…' in the from". */
  abstract describesRetraction(value: V): string;

  /** The entry as plain JSON, for storage; its kind rebuilds it from this. */
  abstract toState(): unknown;
}

/** Longest `says` sentence passed on; a longer one is cut with an ellipsis (the exact value is always at hand). */
export const LONGEST_SAYS = 300;

/**
 * A learnable's words for a value (`says`), or undefined when it has none or they cannot be had:
 * words are a courtesy beside the exact value, so a learnable that throws here blocks nothing.
 */
export function saysOf<V extends object>(entry: Learnable<V>, value: V): string | undefined {
  if (entry.says === undefined) return undefined;
  let words: unknown;
  try {
    words = entry.says(value);
  } catch {
    return undefined;
  }
  if (typeof words !== 'string') return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what these words may not hold.
  const plain = words.replace(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').trim();
  if (plain === '') return undefined;
  return plain.length <= LONGEST_SAYS ? plain : `${plain.slice(0, LONGEST_SAYS - 1)}…`;
}

/** The value a learnable takes (its `learn`'s), e.g. `{ maxKg: number }`. */
export type ValueOf<L> = L extends Learnable<infer V> ? V : LessonValue;

/**
 * How the authority turns stored state back into learnables, for one collection. The authority
 * is handed these where the service is composed; it never imports an agent. `defineKind` makes
 * one from a state schema.
 */
export interface LearnableKind<L extends Learnable<any> = Learnable> {
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
  /**
   * The schema of a lesson's value, when the learnable declares one: the runtime checks the card's
   * lesson fields against it at start-up.
   */
  readonly lesson?: LessonValueSchema;
  /** Whether an entry is this kind's own: the typed lookup of a pinned definition checks its entries. */
  owns?(entry: Learnable<any>): entry is L;
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
