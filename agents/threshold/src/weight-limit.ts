import type { LearnableKind, Learned } from '@learnables/learnable';
import { Learnable, UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';

export const COLLECTION = 'weight-limits';

/** No parcel weighs more; a larger limit is a slip of the keyboard (an extra zero), not a policy. */
export const HEAVIEST_PARCEL_KG = 1000;

export interface WeightLimitState {
  readonly label: string;
  /** Null until someone teaches one: every parcel of the category is asked about. */
  readonly maxKg: number | null;
}

/**
 * A weight in kilograms as people write it: 32, "32", "32.5", "32 kg". Lessons arrive from a text
 * box (clients do not know the field kind `number`) and parcels from text, so both come here.
 */
export function readKilograms(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const figures = /^(-?\d+(?:\.\d+)?)\s*(?:kg)?$/i.exec(raw.trim())?.[1];
  return figures === undefined ? undefined : Number(figures);
}

/**
 * One category of parcel and the weight above which its parcels get a second check. A lesson
 * sets the limit: `{ maxKg }`, in kilograms, as a number or as the text a person typed.
 */
export class WeightLimit extends Learnable {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly maxKg: number | null = null,
  ) {
    super();
  }

  learn(value: LessonValue): Learned<WeightLimit> {
    const maxKg = readMaxKg(value);
    if (maxKg === this.maxKg) return { next: this, changed: false };
    return { next: new WeightLimit(this.key, this.label, maxKg), changed: true };
  }

  describes(value: LessonValue): string {
    return `${this.key} parcels over ${readMaxKg(value)} kg get a second check`;
  }

  /** A limit taken back leaves none: the category's parcels are asked about again. */
  unlearn(value: LessonValue): Learned<WeightLimit> {
    if (readMaxKg(value) !== this.maxKg) return { next: this, changed: false };
    return { next: new WeightLimit(this.key, this.label, null), changed: true };
  }

  describesRetraction(value: LessonValue): string {
    const maxKg = readMaxKg(value);
    return maxKg === this.maxKg
      ? `${this.key} parcels no longer have a ${maxKg} kg limit`
      : `${this.key} parcels no longer have a ${maxKg} kg limit (their limit is ${this.maxKg === null ? 'unset' : `${this.maxKg} kg`} now)`;
  }

  toState(): WeightLimitState {
    return { label: this.label, maxKg: this.maxKg };
  }
}

/** A value as the person typed it, quoted if text, cut short so a refusal stays one readable sentence. */
function shown(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw);
  } catch {
    // Nested past what JSON.stringify can walk: the refusal must still be a sentence, not a 500.
    return 'That value';
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function readMaxKg(value: LessonValue): number {
  for (const key of Object.keys(value)) {
    if (key !== 'maxKg') throw new UnlearnableValue(`A weight limit takes maxKg; "${key}" is not one.`, { field: key });
  }
  const raw = value.maxKg;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    throw new UnlearnableValue('A weight limit needs maxKg, in kilograms.', { field: 'maxKg' });
  }
  const maxKg = readKilograms(raw);
  if (maxKg === undefined) {
    throw new UnlearnableValue(`${shown(raw)} is not a weight in kilograms; give it in figures, e.g. 30.`, { field: 'maxKg' });
  }
  if (maxKg <= 0) {
    throw new UnlearnableValue(`A limit of ${maxKg} kg would send every parcel to a second check; give a weight above 0 kg.`, { field: 'maxKg' });
  }
  if (maxKg > HEAVIEST_PARCEL_KG) {
    throw new UnlearnableValue(`A limit of ${maxKg} kg is more than any parcel weighs; give one of at most ${HEAVIEST_PARCEL_KG} kg.`, {
      field: 'maxKg',
    });
  }
  return maxKg;
}

/** How the authority rebuilds limits from storage, and from the hand-written seed. */
export const weightLimitKind: LearnableKind<WeightLimit> = {
  collection: COLLECTION,
  fromState(key, state) {
    const { label, maxKg } = state as WeightLimitState;
    if (typeof label !== 'string' || !(maxKg === null || typeof maxKg === 'number')) {
      throw new Error(`${COLLECTION}: "${key}" needs a label and a maxKg that is a number of kilograms or null.`);
    }
    return new WeightLimit(key, label, maxKg);
  },
  create: (key, label) => new WeightLimit(key, label, null),
};
