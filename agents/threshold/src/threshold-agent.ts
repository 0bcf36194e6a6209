import type { EntryChoice } from '@learnables/protocol';
import type { LearnableAgent, PinnedDefinitions, Reading } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';
import type { Parcel } from './parse-parcel.ts';
import { parseParcel } from './parse-parcel.ts';
import type { LimitLesson, WeightLimit } from './weight-limit.ts';
import { COLLECTION, weightLimitKind } from './weight-limit.ts';

/** The card's promise. `threshold-agent.test.ts` holds the code to each clause of it. */
export const HOW = "A parcel heavier than its category's limit gets a second check; a category with no limit yet, I ask about.";

/** The two answers to the question, and the winners of a settled reading. */
export const VERDICTS: readonly EntryChoice[] = [
  { key: 'check', label: 'Yes, check it' },
  { key: 'pass', label: 'No, let it through' },
];

/** What the agent hands back for one parcel. */
export interface ParcelCheck {
  readonly category: string;
  readonly weightKg: number;
  /** The limit the parcel was held to, at the pinned version; null when the operator decided. */
  readonly maxKg: number | null;
  readonly secondCheck: boolean;
}

function limitFor(parcel: Parcel, pinned: PinnedDefinitions): WeightLimit {
  const { entries } = pinned.of(weightLimitKind);
  const limit = entries.find((entry) => entry.key === parcel.category);
  if (limit === undefined) {
    throw new InputRefused(`I keep no weight limit for "${parcel.category}" parcels; the categories I know are ${entries.map((e) => e.key).join(', ')}.`);
  }
  return limit;
}

function decided(parcel: Parcel, maxKg: number | null, secondCheck: boolean, reads: string): Reading<ParcelCheck, LimitLesson> {
  return {
    settled: true,
    findings: { secondCheck: { settled: true, winner: secondCheck ? 'check' : 'pass', reads, collection: COLLECTION } },
    result: { category: parcel.category, weightKg: parcel.weightKg, maxKg, secondCheck },
  };
}

export const thresholdAgent: LearnableAgent<Parcel, ParcelCheck, WeightLimit> = {
  name: 'Heavy parcel checks',
  description:
    "Says whether a parcel needs a second check, by its category's weight limit. When a category has no limit yet it asks, and it learns limits from lessons.",
  version: '0.1.0',
  skill: {
    id: 'second-check',
    name: 'Does this parcel need a second check?',
    description: "Compares a parcel's weight with the limit for its category: heavier than the limit, it gets a second check.",
    examples: ['furniture 32', 'books 12 kg'],
    inputModes: ['text/plain', 'application/json'],
  },
  declaration: {
    collection: COLLECTION,
    entry: 'category',
    teaches: "the weight above which a category's parcels get a second check",
    how: HOW,
    decidedBy: 'rules',
    // A new category of parcel can be added, then taught its limit. Every question is yes or no.
    addsEntries: true,
    admitsNone: false,
    lessonFields: [
      {
        name: 'maxKg',
        label: 'Limit (kg)',
        kind: 'number',
        help: 'Parcels of this category heavier than this get a second check; this weight and lighter go through.',
      },
    ],
  },
  kinds: [weightLimitKind],
  parse: parseParcel,
  read(parcel, pinned) {
    const { maxKg } = limitFor(parcel, pinned);
    const { category, weightKg } = parcel;
    if (maxKg === null) {
      return {
        settled: false,
        findings: {
          secondCheck: {
            settled: false,
            reads: `no limit for ${category} yet, so I ask whether a ${weightKg} kg parcel needs a second check`,
            collection: COLLECTION,
          },
        },
        // No `suggested`: a limit drawn from this one weight would contradict one of the two answers
        // (docs/write-your-own-agent.md, "The suggestion").
        question: { collection: COLLECTION, question: `Does a ${weightKg} kg ${category} parcel need a second check?`, entries: VERDICTS, entry: category },
      };
    }
    return weightKg > maxKg
      ? decided(parcel, maxKg, true, `${weightKg} kg is over the ${maxKg} kg limit for ${category}: second check`)
      : decided(parcel, maxKg, false, `${weightKg} kg is within the ${maxKg} kg limit for ${category}: no second check`);
  },
  answer(parcel, pinned, _question, { entry }) {
    const secondCheck = entry === 'check';
    const verdict = secondCheck ? 'second check' : 'no second check';
    return decided(
      parcel,
      limitFor(parcel, pinned).maxKg,
      secondCheck,
      `${parcel.weightKg} kg ${parcel.category} parcel: ${verdict}, as the operator answered`,
    );
  },
  summarize: (parcel) => ({ category: parcel.category, weightKg: parcel.weightKg }),
};
