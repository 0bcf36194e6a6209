import type { LearnableKind, Learned } from '@learnables/learnable';
import { Learnable, UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';

export interface MappingState {
  readonly label: string;
  readonly required: boolean;
  readonly columns: readonly string[];
}

/** Headings are compared the way people read them: trimmed, case ignored. */
export const sameHeading = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * One field of a manifest and the column headings it has been seen under. A lesson adds one
 * heading: `{ column }`, exactly as it appears in the sheet's header row.
 */
export class ColumnMapping extends Learnable {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly columns: readonly string[],
    readonly required = false,
  ) {
    super();
  }

  learn(value: LessonValue): Learned<ColumnMapping> {
    const column = readColumn(value);
    if (this.columns.some((known) => sameHeading(known, column))) return { next: this, changed: false };
    return { next: new ColumnMapping(this.key, this.label, [...this.columns, column], this.required), changed: true };
  }

  describes(value: LessonValue): string {
    return `reads ${this.key} from the '${readColumn(value)}' column`;
  }

  unlearn(value: LessonValue): Learned<ColumnMapping> {
    const column = readColumn(value);
    const kept = this.columns.filter((known) => !sameHeading(known, column));
    if (kept.length === this.columns.length) return { next: this, changed: false };
    return { next: new ColumnMapping(this.key, this.label, kept, this.required), changed: true };
  }

  describesRetraction(value: LessonValue): string {
    return `no longer reads ${this.key} from the '${readColumn(value)}' column`;
  }

  toState(): MappingState {
    return { label: this.label, required: this.required, columns: this.columns };
  }
}

function readColumn(value: LessonValue): string {
  for (const key of Object.keys(value)) {
    if (key !== 'column') throw new UnlearnableValue(`A mapping takes a column; "${key}" is not one.`, { field: key });
  }
  const column = typeof value.column === 'string' ? value.column.trim() : '';
  if (column === '') throw new UnlearnableValue('a mapping needs a column', { field: 'column' });
  if (column.length > 200) {
    throw new UnlearnableValue(`A column heading of ${column.length} characters is not a heading; give it as the sheet shows it.`, {
      field: 'column',
    });
  }
  return column;
}

/** How the authority rebuilds mappings from storage. */
export const columnMappingKind: LearnableKind<ColumnMapping> = {
  collection: 'mappings',
  fromState(key, state) {
    const { label, required, columns } = state as MappingState;
    return new ColumnMapping(key, label, columns, required);
  },
  // A field someone adds is optional: a manifest without its column is still read.
  create: (key, label) => new ColumnMapping(key, label, [], false),
};
