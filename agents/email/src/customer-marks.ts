import RE2 from 're2';
import type { LearnableKind, Learned } from '@learnables/learnable';
import { Learnable, UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';

/** The parts of a message a mark can look in; `any` is all of them at once. */
export const MARK_PLACES = ['from', 'subject', 'body', 'attachments', 'any'] as const;
export type MarkPlace = (typeof MARK_PLACES)[number];

/** Text that gives a customer away, and where in a message to look for it. */
export interface Mark {
  readonly pattern: string;
  readonly where: MarkPlace;
}

export interface CustomerState {
  readonly name: string;
  readonly marks: readonly Mark[];
}

/** Long enough for any address or reference anyone types; short enough to keep sets small. */
const LONGEST_PATTERN = 500;

/** Compile a pattern the way matching will (RE2, case-insensitive), or say why it cannot be. */
export function compileMark(pattern: string): RE2 {
  try {
    return new RE2(pattern, 'iu');
  } catch (error) {
    // RE2 says "missing ): <pattern>"; the person needs the reason, and sees the pattern once.
    const said = error instanceof Error ? error.message : String(error);
    const reason = said.endsWith(`: ${pattern}`) ? said.slice(0, -(pattern.length + 2)) : said;
    throw new UnlearnableValue(`"${pattern}" is not a usable pattern: ${reason}`, { field: 'pattern' });
  }
}

/**
 * One customer and the marks that give it away. A lesson adds one mark:
 * `{ pattern, where }`, `pattern` a case-insensitive RE2 regular expression (plain text works),
 * `where` one of MARK_PLACES (default `from`).
 */
export class CustomerMarks extends Learnable {
  constructor(
    readonly key: string,
    readonly name: string,
    readonly marks: readonly Mark[] = [],
  ) {
    super();
  }

  get label(): string {
    return this.name;
  }

  learn(value: LessonValue): Learned<CustomerMarks> {
    const mark = readMark(value);
    if (this.marks.some((known) => known.pattern === mark.pattern && known.where === mark.where)) {
      return { next: this, changed: false };
    }
    return { next: new CustomerMarks(this.key, this.name, [...this.marks, mark]), changed: true };
  }

  describes(value: LessonValue): string {
    const { pattern, where } = readMark(value);
    return `${this.key} learned: matches '${pattern}' in the ${where}`;
  }

  toState(): CustomerState {
    return { name: this.name, marks: this.marks };
  }
}

function readMark(value: LessonValue): Mark {
  for (const key of Object.keys(value)) {
    if (key !== 'pattern' && key !== 'where') {
      throw new UnlearnableValue(`A mark has a pattern and a where; "${key}" is neither.`, { field: key });
    }
  }
  const { pattern: rawPattern, where: rawWhere = 'from' } = value;
  if (typeof rawPattern !== 'string' || rawPattern.trim() === '') {
    throw new UnlearnableValue('A mark needs a pattern: the text that gives this customer away.', { field: 'pattern' });
  }
  const pattern = rawPattern.trim();
  if (pattern.length > LONGEST_PATTERN) {
    throw new UnlearnableValue(
      `That pattern is ${pattern.length} characters long; a mark may be at most ${LONGEST_PATTERN}.`,
      { field: 'pattern' },
    );
  }
  const where = typeof rawWhere === 'string' ? rawWhere.trim().toLowerCase() : rawWhere;
  if (!MARK_PLACES.includes(where as MarkPlace)) {
    throw new UnlearnableValue(
      `"${String(rawWhere)}" is not a place to look; choose one of ${MARK_PLACES.join(', ')}.`,
      { field: 'where' },
    );
  }
  if (compileMark(pattern).test('')) {
    throw new UnlearnableValue(
      `"${pattern}" matches an empty text, so it would claim every message; give the text that gives the customer away.`,
      { field: 'pattern' },
    );
  }
  return { pattern, where: where as MarkPlace };
}

/** How the authority rebuilds customers from storage. */
export const customerMarksKind: LearnableKind<CustomerMarks> = {
  collection: 'customers',
  fromState(key, state) {
    const { name, marks } = state as CustomerState;
    return new CustomerMarks(key, name, marks);
  },
};
