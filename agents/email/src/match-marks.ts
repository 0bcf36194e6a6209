import RE2 from 're2';
import type { Definition, Learnable } from '@learnables/learnable';
import { CustomerMarks, compileMark } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import { MESSAGE_FIELDS } from './message-fields.ts';
import type { MessageField, MessageFields } from './message-fields.ts';

/** One mark that matched: whose it is, where it matched first, and the text it matched there. */
export interface MarkHit {
  readonly customer: string;
  readonly mark: Mark;
  readonly field: MessageField;
  readonly text: string;
}

export interface Score {
  readonly customer: string;
  readonly points: number;
}

/**
 * What the marks say about one message. `unmarked`: no mark matched. `close`: no customer leads
 * the next by the margin; `contenders` are those within the margin of the top score.
 */
export type Verdict =
  | { readonly kind: 'settled'; readonly winner: string; readonly hits: readonly MarkHit[]; readonly scores: readonly Score[] }
  | { readonly kind: 'unmarked' }
  | { readonly kind: 'close'; readonly contenders: readonly string[]; readonly scores: readonly Score[] };

type RE2Set = InstanceType<typeof RE2.Set>;

interface CompiledMark {
  readonly customer: string;
  readonly mark: Mark;
}

/** Every mark of one definition version, one RE2 Set per field. */
export interface CompiledMarks {
  readonly marks: readonly CompiledMark[];
  /** Each customer by key, with its position in the definition (ties list in that order). */
  readonly customers: ReadonlyMap<string, { readonly customer: CustomerMarks; readonly position: number }>;
  /** Per field: the set, and for each pattern in it the index of its mark in `marks`. */
  readonly sets: Readonly<Record<MessageField, { readonly set: RE2Set; readonly owners: readonly number[] }>>;
  /** Single-mark regexes, compiled only for marks that won, to quote what they matched. */
  readonly quoted: Map<number, RE2>;
}

/** The default memory budget RE2 gives a set: enough for about a thousand addresses. */
const SMALLEST_SET_MEMORY = 8 * 1024 * 1024;
/** Sets are rebuilt with twice the budget until they fit; this is where we stop. */
const LARGEST_SET_MEMORY = 4 * 1024 * 1024 * 1024;
/** RE2 needs about 90 bytes per pattern character for a set; the rest is cache for matching. */
const SET_MEMORY_PER_CHARACTER = 256;

// Keyed by the frozen entries array: a version never changes, and the runtime may pin a copy of
// the definition object (adding its version) that still shares the same entries.
const compiledByEntries = new WeakMap<readonly Learnable[], CompiledMarks>();

/**
 * Which customer the marks of this definition give the message to. Every mark that matches its
 * field (a mark for `any` matching any field) scores one point for its customer, once; the top
 * customer wins if it leads the next by at least `margin` points.
 */
export function matchMarks(definition: Definition, fields: MessageFields, margin: number): Verdict {
  const compiled = compileMarks(definition);
  const matched = new Map<number, MessageField>();
  for (const field of MESSAGE_FIELDS) {
    const { set, owners } = compiled.sets[field];
    for (const index of set.match(fields[field])) {
      const owner = owners[index] as number;
      if (!matched.has(owner)) matched.set(owner, field);
    }
  }
  if (matched.size === 0) return { kind: 'unmarked' };

  const points = new Map<string, number>();
  for (const owner of matched.keys()) {
    const { customer } = compiled.marks[owner] as CompiledMark;
    points.set(customer, (points.get(customer) ?? 0) + 1);
  }
  const position = (key: string) => compiled.customers.get(key)?.position ?? 0;
  const scores = [...points]
    .map(([customer, score]) => ({ customer, points: score }))
    .sort((a, b) => b.points - a.points || position(a.customer) - position(b.customer));
  const [top, next] = scores as [Score, ...Score[]];
  if (top.points - (next?.points ?? 0) < margin) {
    const contenders = scores.filter((score) => top.points - score.points < margin).map((score) => score.customer);
    return { kind: 'close', contenders, scores };
  }
  const hits = [...matched]
    .filter(([owner]) => compiled.marks[owner]?.customer === top.customer)
    .sort(([a, fieldA], [b, fieldB]) => MESSAGE_FIELDS.indexOf(fieldA) - MESSAGE_FIELDS.indexOf(fieldB) || a - b)
    .map(([owner, field]) => hitOf(compiled, owner, field, fields[field]));
  return { kind: 'settled', winner: top.customer, hits, scores };
}

/** Compile a definition's marks once; later calls with the same version get the same sets. */
export function compileMarks(definition: Definition): CompiledMarks {
  const known = compiledByEntries.get(definition.entries);
  if (known !== undefined) return known;
  const customers = new Map(definition.entries.map((entry, position) => [entry.key, { customer: customerOf(definition, entry), position }]));
  const marks = [...customers.values()].flatMap(({ customer }) => customer.marks.map((mark) => ({ customer: customer.key, mark })));
  const setOf = (field: MessageField) => {
    const owners = marks.flatMap((compiledMark, index) => (compiledMark.mark.where === field || compiledMark.mark.where === 'any' ? [index] : []));
    return { set: buildSet(owners.map((index) => marks[index] as CompiledMark)), owners };
  };
  const sets = { from: setOf('from'), subject: setOf('subject'), body: setOf('body'), attachments: setOf('attachments') };
  const compiled: CompiledMarks = { marks, customers, sets, quoted: new Map() };
  compiledByEntries.set(definition.entries, compiled);
  return compiled;
}

/** A customer of the definition by key, without a walk through every entry. */
export function findCustomer(definition: Definition, key: string): CustomerMarks | undefined {
  return compileMarks(definition).customers.get(key)?.customer;
}

function customerOf(definition: Definition, entry: Learnable): CustomerMarks {
  if (entry instanceof CustomerMarks) return entry;
  throw new Error(`${definition.collection} holds "${entry.key}", which is not a customer with marks; the email agent reads only CustomerMarks.`);
}

/** The same flags as `compileMark`, so a mark matches in the set exactly as it did when taught. */
function buildSet(marks: readonly CompiledMark[]): RE2Set {
  const patterns = marks.map(({ mark }) => mark.pattern);
  const characters = patterns.reduce((total, pattern) => total + pattern.length, 0);
  let maxMem = Math.max(SMALLEST_SET_MEMORY, characters * SET_MEMORY_PER_CHARACTER);
  for (;;) {
    try {
      return new RE2.Set(patterns, 'iu', { maxMem });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('could not be compiled')) throw unusableMark(marks, error);
      if (maxMem >= LARGEST_SET_MEMORY) {
        throw new Error(`${marks.length} marks do not fit in RE2's largest set (${LARGEST_SET_MEMORY} bytes); some patterns are too large.`);
      }
      maxMem *= 2;
    }
  }
}

/** Marks are checked when taught, but a seed is not; name the one that does not compile. */
function unusableMark(marks: readonly CompiledMark[], cause: unknown): Error {
  for (const { customer, mark } of marks) {
    try {
      compileMark(mark.pattern);
    } catch (error) {
      return new Error(`${customer}'s mark cannot be used: ${(error as Error).message}`, { cause });
    }
  }
  return cause instanceof Error ? cause : new Error(String(cause));
}

function hitOf(compiled: CompiledMarks, owner: number, field: MessageField, text: string): MarkHit {
  const { customer, mark } = compiled.marks[owner] as CompiledMark;
  let regex = compiled.quoted.get(owner);
  if (regex === undefined) {
    regex = compileMark(mark.pattern);
    compiled.quoted.set(owner, regex);
  }
  return { customer, mark, field, text: regex.exec(text)?.[0] ?? '' };
}
