import { z } from 'zod';
import type { Learned, LessonValueOf } from '@learnables/learnable';
import { Learnable, defineKind, lessonField, lessonValue } from '@learnables/learnable';

export const COLLECTION = 'weight-limits';

/** No parcel weighs more; a larger limit is a slip of the keyboard (an extra zero), not a policy. */
export const HEAVIEST_PARCEL_KG = 1000;

/**
 * A lesson's value: `{ maxKg }`, in kilograms. It arrives from a text box (clients do not know the
 * field kind `number`), so "30", " 30 " and "30 kg" are read as 30, like the number 30.
 */
export const limitLesson = lessonValue(
  {
    maxKg: lessonField
      .number({
        missing: 'A weight limit needs maxKg, in kilograms.',
        notANumber: (typed) => `${typed} is not a weight in kilograms; give it in figures, e.g. 30.`,
        unit: 'kg',
      })
      .refine((kg) => kg > 0, { error: (issue) => `A limit of ${issue.input} kg would send every parcel to a second check; give a weight above 0 kg.` })
      .refine((kg) => kg <= HEAVIEST_PARCEL_KG, {
        error: (issue) => `A limit of ${issue.input} kg is more than any parcel weighs; give one of at most ${HEAVIEST_PARCEL_KG} kg.`,
      }),
  },
  { unknownKey: (key) => `A weight limit takes maxKg; "${key}" is not one.` },
);
export type LimitLesson = LessonValueOf<typeof limitLesson>;

/** One category as stored, and as the seed writes it: the limits a lesson could set, or null. */
const limitState = z.object({ label: z.string(), maxKg: z.number().positive().max(HEAVIEST_PARCEL_KG).nullable() });
export type WeightLimitState = z.infer<typeof limitState>;

/**
 * One category of parcel and the weight above which its parcels get a second check. A lesson
 * sets the limit; null until someone teaches one, and every parcel of the category is asked about.
 */
export class WeightLimit extends Learnable.of(limitLesson) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly maxKg: number | null = null,
  ) {
    super();
  }

  learn({ maxKg }: LimitLesson): Learned<WeightLimit> {
    if (maxKg === this.maxKg) return { next: this, changed: false };
    return { next: new WeightLimit(this.key, this.label, maxKg), changed: true };
  }

  describes({ maxKg }: LimitLesson): string {
    return `${this.key} parcels over ${maxKg} kg get a second check`;
  }

  override says({ maxKg }: LimitLesson): string {
    return `parcels over ${maxKg} kg get a second check`;
  }

  /** A limit taken back leaves none: the category's parcels are asked about again. */
  unlearn({ maxKg }: LimitLesson): Learned<WeightLimit> {
    if (maxKg !== this.maxKg) return { next: this, changed: false };
    return { next: new WeightLimit(this.key, this.label, null), changed: true };
  }

  describesRetraction({ maxKg }: LimitLesson): string {
    return maxKg === this.maxKg
      ? `${this.key} parcels no longer have a ${maxKg} kg limit`
      : `${this.key} parcels no longer have a ${maxKg} kg limit (their limit is ${this.maxKg === null ? 'unset' : `${this.maxKg} kg`} now)`;
  }

  toState(): WeightLimitState {
    return { label: this.label, maxKg: this.maxKg };
  }
}

/** How the authority rebuilds limits from storage, and from the hand-written seed. */
export const weightLimitKind = defineKind({
  collection: COLLECTION,
  learnable: WeightLimit,
  state: limitState,
  fromState: (key, { label, maxKg }) => new WeightLimit(key, label, maxKg),
  // A category someone adds has no limit yet: its parcels are asked about until one is taught.
  create: (key, label) => new WeightLimit(key, label, null),
});
