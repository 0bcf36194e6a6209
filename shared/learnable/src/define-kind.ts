import type { z } from 'zod';
import type { Learnable, LearnableKind } from './learnable.ts';
import type { LessonValueSchema } from './lesson-value.ts';

/** A learnable's class, as `defineKind` is given it: its instances are the kind's entries. */
export type LearnableClass<L extends Learnable<any>> = (abstract new (...args: never[]) => L) & { readonly lesson?: LessonValueSchema };

export interface KindDefinition<L extends Learnable<any>, S extends z.ZodType> {
  readonly collection: string;
  /** The class of the entries: the typed lookup checks entries are of it, the runtime reads its `lesson`. */
  readonly learnable: LearnableClass<L>;
  /** What `toState` writes and storage and seeds hold, for one entry. */
  readonly state: S;
  /** Build an entry from a state the schema has read. */
  fromState(key: string, state: z.output<S>): L;
  create(key: string, label: string): L;
  checkSeed?(entries: readonly L[]): void;
}

/** One line per problem: where in the state, and what is wrong there. */
function problemsOf(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/**
 * A learnable kind whose `fromState` reads the state with its schema first: a seed typed by hand,
 * or a stored entry, that does not fit is refused with a sentence naming the entry and what is
 * wrong where (`weight-limits: "tyres" cannot be rebuilt from its state: maxKg: …`).
 */
export function defineKind<L extends Learnable<any>, S extends z.ZodType>(definition: KindDefinition<L, S>): LearnableKind<L> {
  const { collection, learnable, state } = definition;
  return {
    collection,
    fromState(key, stored) {
      const read = state.safeParse(stored);
      if (!read.success) throw new Error(`${collection}: "${key}" cannot be rebuilt from its state: ${problemsOf(read.error)}.`);
      return definition.fromState(key, read.data);
    },
    create: (key, label) => definition.create(key, label),
    ...(definition.checkSeed && { checkSeed: (entries: readonly L[]) => definition.checkSeed!(entries) }),
    ...(learnable.lesson && { lesson: learnable.lesson }),
    owns: (entry): entry is L => entry instanceof learnable,
  };
}
