import { z } from 'zod';
import type { Learned, LessonValueOf } from '@learnables/learnable';
import { Learnable, UnlearnableValue, defineKind, lessonField, lessonValue } from '@learnables/learnable';

export const COLLECTION = 'handling';

/**
 * The longest example (and goods description) the agent takes, in characters. A description says
 * what the goods are; past this it is a document, and reading it would cost the classifier (and
 * every later version's training) more than it tells.
 */
export const LONGEST_EXAMPLE = 300;

/**
 * How two examples are compared: case and runs of white space do not count, so "Frozen  prawns"
 * is "frozen prawns". The same rule decides whether a description is a taught phrase (the agent's
 * first step), so a phrase counts once however it was typed.
 */
export function samePhrase(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A lesson's value: `{ example }`, one goods description labelled with this entry's handling. */
export const exampleLesson = lessonValue(
  {
    example: lessonField
      .text({ missing: 'A handling example needs the goods description, e.g. "frozen prawns, 12 cartons, -18 °C".' })
      .refine((text) => text.length <= LONGEST_EXAMPLE, {
        error: (issue) =>
          `An example of ${String(issue.input).length} characters is longer than the ${LONGEST_EXAMPLE} I learn from; give the goods description alone, e.g. "frozen prawns, 12 cartons".`,
      }),
  },
  { unknownKey: (key) => `A handling example takes example; "${key}" is not one.` },
);
export type ExampleLesson = LessonValueOf<typeof exampleLesson>;

const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;

/** One handling as stored, and as the seed writes it. */
const handlingState = z.object({
  label: z.string(),
  examples: z.array(z.string().trim().min(1).max(LONGEST_EXAMPLE)),
});
export type HandlingExamplesState = z.infer<typeof handlingState>;

/**
 * One handling (fragile, perishable, …) and the goods descriptions taught as its examples. The
 * classifier of a version is trained on every entry's examples; a description that is exactly a
 * taught example is decided by it before the classifier is asked.
 */
export class HandlingExamples extends Learnable.of(exampleLesson) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly examples: readonly string[] = [],
  ) {
    super();
  }

  has(example: string): boolean {
    const phrase = samePhrase(example);
    return this.examples.some((known) => samePhrase(known) === phrase);
  }

  /** Adds the example; refuses one another handling holds, since it cannot be an example of both. */
  learn({ example }: ExampleLesson, others: readonly HandlingExamples[] = []): Learned<HandlingExamples> {
    const holder = others.find((other) => other.key !== this.key && other.has(example));
    if (holder !== undefined) {
      throw new UnlearnableValue(
        `${quoted(example)} is already an example of ${holder.label}; take it back there first if it was wrong, since one description cannot teach two handlings.`,
        { field: 'example' },
      );
    }
    if (this.has(example)) return { next: this, changed: false };
    return { next: new HandlingExamples(this.key, this.label, [...this.examples, example]), changed: true };
  }

  describes({ example }: ExampleLesson): string {
    return `${quoted(example)} is an example of ${this.label} handling`;
  }

  override says({ example }: ExampleLesson): string {
    return `consignments described like ${quoted(example)}`;
  }

  unlearn({ example }: ExampleLesson): Learned<HandlingExamples> {
    const phrase = samePhrase(example);
    const kept = this.examples.filter((known) => samePhrase(known) !== phrase);
    if (kept.length === this.examples.length) return { next: this, changed: false };
    return { next: new HandlingExamples(this.key, this.label, kept), changed: true };
  }

  describesRetraction({ example }: ExampleLesson): string {
    return `${quoted(example)} is no longer an example of ${this.label} handling`;
  }

  toState(): HandlingExamplesState {
    return { label: this.label, examples: [...this.examples] };
  }
}

/** How the authority rebuilds handlings from storage and from the seed. */
export const handlingExamplesKind = defineKind({
  collection: COLLECTION,
  learnable: HandlingExamples,
  state: handlingState,
  fromState: (key, { label, examples }) => new HandlingExamples(key, label, examples),
  // A handling someone adds has no example yet: the classifier cannot pick it until one is taught.
  create: (key, label) => new HandlingExamples(key, label, []),
  // A seed is typed by hand (here, generated): hold it to what lessons may hold.
  checkSeed(entries) {
    const holders = new Map<string, string>();
    for (const entry of entries) {
      for (const example of entry.examples) {
        const holder = holders.get(samePhrase(example));
        if (holder !== undefined && holder !== entry.key) {
          throw new Error(`${COLLECTION}: ${quoted(example)} is an example of both "${holder}" and "${entry.key}"; keep it in one.`);
        }
        holders.set(samePhrase(example), entry.key);
      }
    }
  },
});
