import { Buffer } from 'node:buffer';
import RE2 from 're2';
import { z } from 'zod';
import type { Learned, LessonValueOf } from '@learnables/learnable';
import { Learnable, UnlearnableValue, defineKind, lessonField, lessonValue } from '@learnables/learnable';
import { MESSAGE_FIELDS } from './message-fields.ts';
import type { MessageFields } from './message-fields.ts';
import { NOISE_MESSAGES, PROBE_MESSAGES } from './probe-messages.ts';
import { RecentCache } from './recent-cache.ts';
import { exampleOf } from './mark-examples.ts';
import { wellFormed } from './well-formed.ts';
import { markWords } from './mark-words.ts';

/** The parts of a message a mark can look in; `any` is all of them at once. */
export const MARK_PLACES = ['from', 'subject', 'body', 'attachments', 'any'] as const;
export type MarkPlace = (typeof MARK_PLACES)[number];

/**
 * Text that gives a customer away, and where in a message to look for it. With `sender`, the mark
 * counts only on a message whose from also matches that pattern: "the sender AND this reference"
 * (or this name), for a booking portal or a haulier that writes for several customers, whose
 * address alone tells none of them apart and whose mention of a name alone may be anyone's news.
 */
export interface Mark {
  readonly pattern: string;
  readonly where: MarkPlace;
  readonly sender?: string;
}

/**
 * One customer as stored, and as the seed writes it. `noCustomer` is true for an entry that stands
 * for mail that is no customer's (newsletters, maintenance and internal notices): taught like any
 * other, so a recurring one stops asking, but a message decided for it never counts as a customer's
 * (the result says `noCustomer: true`).
 */
const customerState = z.object({
  name: z.string(),
  marks: z.array(z.object({ pattern: z.string(), where: z.enum(MARK_PLACES), sender: z.string().optional() })).readonly(),
  noCustomer: z.boolean().optional(),
});
export type CustomerState = z.infer<typeof customerState>;

/** Long enough for any address or reference anyone types; short enough to keep sets small. */
const LONGEST_PATTERN = 500;

/**
 * The memory RE2 may use to compile one mark. An address or a reference needs under 20 KiB and
 * `.{400}` about 200 KiB; a pattern that needs more repeats a huge class (`\pL{300}` is 300
 * copies of every letter in Unicode: 32 MiB and 0.4 s to compile, again in every set it joins).
 */
const LARGEST_MARK_MEMORY = 256 * 1024;

/**
 * A mark that matches this many of the probe messages, which belong to no customer, would take
 * mail for its customer on no evidence: half of them.
 */
const MOST_PROBES = Math.ceil(PROBE_MESSAGES.length / 2);

/**
 * Patterns compiled lately, by their text. A question compiles the same few patterns several times
 * (the suggestion's check, its test against the message, each place of an `any` mark, the runtime's
 * check of the suggestion taught to its entry: 6 to 14 compiles of about 16 µs for one message), and
 * the next message from the same sender the same ones again. Only patterns that compiled, of at most
 * LONGEST_CACHED characters; an address, a reference or a name compiles to a few kB, and 256 of them
 * stay well under what one set of 1,000 marks takes. Sharing one RE2 is safe: compiled without the
 * `g` or `y` flag, its `test` and `exec` keep no state between calls.
 */
const compiledPatterns = new RecentCache<string, RE2>(256);
const LONGEST_CACHED = 2 * LONGEST_PATTERN;
/** Off only in tests, which hold the cached ways to the uncached ones (`setMarkCaching`). */
let caching = true;

/**
 * Turn the caches of compiled patterns and of checked marks on or off (tests compare both ways);
 * returns the setting before. Either way both are emptied.
 */
export function setMarkCaching(on: boolean): boolean {
  const before = caching;
  caching = on;
  compiledPatterns.clear();
  checkedMarks.clear();
  return before;
}

/**
 * `compileMark`, shared: the same RE2 for the same pattern while it is among the last 256 compiled.
 * For the regexes a message's suggestion and checks compile; the caller must not change it.
 */
export function compiledMark(pattern: string): RE2 {
  if (!caching || pattern.length > LONGEST_CACHED) return compileMark(pattern);
  let regex = compiledPatterns.get(pattern);
  if (regex === undefined) {
    regex = compileMark(pattern);
    compiledPatterns.set(pattern, regex);
  }
  return regex;
}

/** Compile a pattern the way matching will (RE2, case-insensitive), or say why it cannot be. */
export function compileMark(pattern: string): RE2 {
  try {
    return new RE2(wellFormed(pattern), 'iu');
  } catch (error) {
    // RE2 says "missing ): <pattern>"; the person needs the reason, and sees the pattern once.
    const said = error instanceof Error ? error.message : String(error);
    const reason = said.endsWith(`: ${pattern}`) ? said.slice(0, -(pattern.length + 2)) : said;
    throw new UnlearnableValue(`"${pattern}" is not a usable pattern: ${reason}`, { field: 'pattern' });
  }
}

/**
 * A lesson's value: one mark, `{ pattern, where }`. `pattern` is a case-insensitive RE2 regular
 * expression (plain text works), `where` one of MARK_PLACES (default `from`). Once both are read
 * (`check`), the pattern must compile small, match no empty text and be evidence where it looks.
 */
export const markLesson = lessonValue(
  {
    pattern: lessonField
      .text({ missing: 'A mark needs a pattern: the text that gives this customer away.' })
      .refine((pattern) => pattern.length <= LONGEST_PATTERN, {
        error: (issue) => `That pattern is ${String(issue.input).length} characters long; a mark may be at most ${LONGEST_PATTERN}.`,
      }),
    where: lessonField.choice(MARK_PLACES, { notOne: (typed) => `${typed} is not a place to look; choose one of ${MARK_PLACES.join(', ')}.`, absent: 'from' }),
    // Optional: left out, or blank as an empty form field sends it, it is no condition at all.
    sender: z
      .unknown()
      .transform((raw, ctx): string | undefined => {
        if (raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
        if (typeof raw === 'string') return raw.trim();
        ctx.issues.push({
          code: 'custom',
          message: 'The sender condition is the text of a pattern for the sender, such as <noreply@portal\\.example>.',
          input: raw,
        });
        return z.NEVER;
      })
      .optional(),
  },
  {
    unknownKey: (key) => `A mark has a pattern and a where; "${key}" is neither.`,
    check: (value) => checkMarkOnce(value),
  },
);
export type MarkLesson = LessonValueOf<typeof markLesson>;

/** A mark's value as its check reads it: the fields read, before the check. */
interface ReadMark {
  readonly pattern: string;
  readonly where: MarkPlace;
  readonly sender?: string | undefined;
}

/** A check's verdict: passed, or the refusal's words and the field they are about. */
type Verdict = { readonly passed: true } | { readonly passed: false; readonly message: string; readonly field: string | undefined };
const PASSED: Verdict = { passed: true };

/**
 * Verdicts of marks checked lately, by value. The check depends on the value alone (the probe
 * messages are fixed), and costs 90-270 µs (a set and a regex compiled, sixteen probes matched);
 * a question runs it twice for the same mark (the suggestion's own check, then the runtime's
 * check that its learnable takes the suggestion), and the next message from the same sender the
 * same again. A refusal is thrown again as a new UnlearnableValue with the same words and field.
 * Values whose sender is longer than a sender may be are checked each time (refused at once).
 */
const checkedMarks = new RecentCache<string, Verdict>(1024);

function checkMarkOnce(value: ReadMark): void {
  if (!caching || (value.sender?.length ?? 0) > LONGEST_PATTERN) {
    checkMark(value);
    return;
  }
  const key = JSON.stringify([value.pattern, value.where, value.sender ?? null]);
  const known = checkedMarks.get(key);
  if (known === undefined) {
    try {
      checkMark(value);
    } catch (error) {
      if (error instanceof UnlearnableValue) checkedMarks.set(key, { passed: false, message: error.message, field: error.field });
      throw error;
    }
    checkedMarks.set(key, PASSED);
    return;
  }
  if (!known.passed) throw new UnlearnableValue(known.message, { field: known.field });
}

/** The pattern must compile small, match no empty text and be evidence where it looks (see markLesson). */
function checkMark({ pattern, where, sender }: ReadMark): void {
  checkCompiledSize(pattern);
  const regex = compiledMark(pattern);
  if (regex.test('')) {
    throw new UnlearnableValue(`"${pattern}" matches an empty text, so it would claim every message; give the text that gives the customer away.`, {
      field: 'pattern',
    });
  }
  if (where === 'from' || where === 'any') checkAnchored(pattern, 'pattern');
  if (sender !== undefined) checkSender(sender, where);
  // With a sender, the pair is the evidence: the pattern alone may be found in other mail. But
  // text found in any text at all adds nothing to the sender: the mark would be the sender alone.
  if (sender === undefined) checkEvidence(pattern, regex, where);
  else checkSaysSomething(pattern, regex, where);
}

/**
 * A pattern on a sender's domain must stop where the address does (SPEC §2.3.1): `@brightwell-foods\.example`
 * also matches `accounts@brightwell-foods.example-remit.invalid`, a look-alike; `@brightwell-foods\.example>` does not.
 */
function checkAnchored(pattern: string, field: 'pattern' | 'sender'): void {
  if (!OPEN_DOMAIN_END.test(pattern)) return;
  throw new UnlearnableValue(
    `"${pattern}" also matches a longer look-alike address, such as ${lookAlike(pattern)}; end it with > so it stops where the address does, as in ${pattern.replace(/\\b$/, '')}>.`,
    { field },
  );
}

/** The sender of a "sender AND reference" mark: a usable pattern for the from, anchored like any. */
function checkSender(sender: string, where: MarkPlace): void {
  if (where === 'from') {
    throw new UnlearnableValue('This mark already looks at the sender; a sender condition is for a mark that looks at the subject, body or attachments.', {
      field: 'sender',
    });
  }
  if (sender.length > LONGEST_PATTERN)
    throw new UnlearnableValue(`That sender pattern is ${sender.length} characters long; it may be at most ${LONGEST_PATTERN}.`, { field: 'sender' });
  checkCompiledSize(sender);
  let regex: RE2;
  try {
    regex = compiledMark(sender);
  } catch (error) {
    throw new UnlearnableValue((error as Error).message, { field: 'sender' });
  }
  if (regex.test(''))
    throw new UnlearnableValue(
      `The sender "${sender}" matches an empty text, so it is no condition; give the sender's address, such as <noreply@portal\\.example>.`,
      { field: 'sender' },
    );
  checkAnchored(sender, 'sender');
  // The sender must itself be evidence of a sender, as a mark on the from would have to be: '.'
  // would make the pair the text alone, and the text's own evidence check is skipped for a pair.
  const matches = (probe: MessageFields) => regex.test(probe.from);
  if (NOISE_MESSAGES.every(matches)) {
    throw new UnlearnableValue(
      `The sender "${sender}" is found even in random characters, so it is no condition on who sent the mail; give the sender's address, such as <noreply@portal\\.example>.`,
      { field: 'sender' },
    );
  }
  const claimed = PROBE_MESSAGES.filter(matches).length;
  if (claimed >= MOST_PROBES) {
    throw new UnlearnableValue(
      `The sender "${sender}" matches ${claimed} of ${PROBE_MESSAGES.length} sample messages that belong to no customer, so it is no condition on who sent the mail; give the sender's address, such as <noreply@portal\\.example>.`,
      { field: 'sender' },
    );
  }
}

/** The text of a "sender AND text" mark must say something beside the sender: not be found in any text. */
function checkSaysSomething(pattern: string, regex: RE2, where: MarkPlace): void {
  const fields = where === 'any' ? MESSAGE_FIELDS : [where];
  if (NOISE_MESSAGES.every((probe) => fields.some((field) => regex.test(probe[field])))) {
    throw new UnlearnableValue(
      `"${pattern}" is found even in random characters, so beside the sender it tells nothing apart; teach the sender as a mark on the from, or give the text that tells this customer's mail from that sender apart, such as a reference.`,
      { field: 'pattern' },
    );
  }
}

/** The sender condition of a mark, compiled (the same way as its pattern). */
export function compileSender(mark: Mark): RE2 | undefined {
  return mark.sender === undefined ? undefined : compileMark(mark.sender);
}

/** One customer and the marks that give it away. A lesson adds one mark (`markLesson`). */
export class CustomerMarks extends Learnable.of(markLesson) {
  readonly name: string;

  constructor(
    readonly key: string,
    name: string,
    readonly marks: readonly Mark[] = [],
    /** Mail that is no customer's (see CustomerState.noCustomer). */
    readonly noCustomer = false,
  ) {
    super();
    // Marks are tried on other customers' names: well formed, as every text RE2 reads (well-formed.ts).
    this.name = wellFormed(name);
  }

  get label(): string {
    return this.name;
  }

  learn(lesson: MarkLesson, others: readonly CustomerMarks[] = []): Learned<CustomerMarks> {
    const mark = markOf(lesson);
    if (this.marks.some((known) => identical(known, mark))) {
      return { next: this, changed: false };
    }
    refuseHeldElsewhere(mark, others);
    refuseOthersName(mark, this, others);
    return { next: new CustomerMarks(this.key, this.name, [...this.marks, mark], this.noCustomer), changed: true };
  }

  describes(lesson: MarkLesson): string {
    return `${this.key} learned: matches '${lesson.pattern}' in the ${lesson.where}${lesson.sender === undefined ? '' : ` of mail from '${lesson.sender}'`}`;
  }

  override says(lesson: MarkLesson): string {
    return markWords(markOf(lesson));
  }

  unlearn(lesson: MarkLesson): Learned<CustomerMarks> {
    const mark = markOf(lesson);
    const kept = this.marks.filter((known) => !identical(known, mark));
    if (kept.length === this.marks.length) return { next: this, changed: false };
    return { next: new CustomerMarks(this.key, this.name, kept, this.noCustomer), changed: true };
  }

  describesRetraction(lesson: MarkLesson): string {
    return `${this.key} no longer matches '${lesson.pattern}' in the ${lesson.where}${lesson.sender === undefined ? '' : ` of mail from '${lesson.sender}'`}`;
  }

  toState(): CustomerState {
    return this.noCustomer ? { name: this.name, marks: this.marks, noCustomer: true } : { name: this.name, marks: this.marks };
  }
}

/**
 * Compile the mark alone within a small memory budget, the way the agent's sets compile it, so
 * a pattern that would make every set huge and slow is refused before it is a lesson. Only a
 * budget failure is this refusal; a pattern that does not parse gets RE2's reason from
 * `compileMark`.
 */
function checkCompiledSize(pattern: string): void {
  try {
    new RE2.Set([pattern], 'iu', { maxMem: LARGEST_MARK_MEMORY });
  } catch (error) {
    if (error instanceof Error && error.message.includes('could not be compiled')) {
      throw new UnlearnableValue(
        `"${pattern}": this pattern expands to too many states to be matched quickly; use fewer repeats or a smaller class of characters.`,
        { field: 'pattern' },
      );
    }
  }
}

/** A mark must leave most messages that belong to no customer alone, or it is no evidence. */
function checkEvidence(pattern: string, regex: RE2, where: MarkPlace): void {
  const fields = where === 'any' ? MESSAGE_FIELDS : [where];
  const matches = (probe: MessageFields) => fields.some((field) => regex.test(probe[field]));
  if (NOISE_MESSAGES.every(matches)) {
    throw new UnlearnableValue(
      `"${pattern}" is found even in random characters, so it is no evidence of one customer; give the text that gives this customer away, such as an address or a reference.`,
      { field: 'pattern' },
    );
  }
  const claimed = PROBE_MESSAGES.filter(matches).length;
  if (claimed >= MOST_PROBES) {
    throw new UnlearnableValue(
      `"${pattern}" matches ${claimed} of ${PROBE_MESSAGES.length} sample messages that belong to no customer, so it would claim messages without evidence; give the text that gives this customer away, such as an address or a reference.`,
      { field: 'pattern' },
    );
  }
}

/** A lesson's value as a stored mark: no `sender` key when it has none. */
function markOf({ pattern, where, sender }: MarkLesson): Mark {
  return sender === undefined ? { pattern, where } : { pattern, where, sender };
}

function identical(a: Mark, b: Mark): boolean {
  return a.pattern === b.pattern && a.where === b.where && a.sender === b.sender;
}

/**
 * Whether two marks look for the same text in a place they share (`any` shares every place), on
 * the same mail: a mark without a sender condition meets every sender's mail, so it shares its
 * text with a mark that has one.
 */
export function sameMark(a: Mark, b: Mark): boolean {
  return (
    a.pattern === b.pattern &&
    (a.where === b.where || a.where === 'any' || b.where === 'any') &&
    (a.sender === undefined || b.sender === undefined || a.sender === b.sender)
  );
}

/**
 * Refuse a mark whose text is another customer's own name (SPEC §2.3.1): a message that names
 * Oakridge Furniture is evidence of Oakridge, not of whoever the message about it was answered
 * for (a newsletter's headline, a haulier's job for another customer).
 */
function refuseOthersName(mark: Mark, self: CustomerMarks, others: readonly CustomerMarks[]): void {
  const other = othersNameIn(mark, self, others);
  if (other === undefined) return;
  throw new UnlearnableValue(
    `'${mark.pattern}' matches the name of ${other.name} (${other.key}); a message that names it is evidence of ${other.name}, not of ${self.name}. Teach what tells ${self.name}'s mail apart instead: its sender, or its own reference.`,
    { field: 'pattern' },
  );
}

/** Another customer whose own name the mark's text matches (a mark on the sender never does). */
function othersNameIn(mark: Mark, self: CustomerMarks, others: readonly CustomerMarks[]): CustomerMarks | undefined {
  if (mark.where === 'from') return undefined;
  let regex: RE2;
  try {
    regex = compiledMark(mark.pattern);
  } catch {
    return undefined;
  }
  if (!caching) return others.find((other) => other.key !== self.key && !other.noCustomer && (regex.test(other.name) || regex.test(plainNameOf(other.name))));
  return others.find((other) => {
    if (other.key === self.key || other.noCustomer) return false;
    const names = nameBytesOf(other);
    // The plain name is tried only when it differs: the same text matches the same way.
    return regex.test(names.name) || (names.plain !== undefined && regex.test(names.plain));
  });
}

/** A customer's name and plain name as UTF-8, the plain one only when it differs from the name. */
interface NameBytes {
  readonly name: Buffer;
  readonly plain: Buffer | undefined;
}

/**
 * Each customer's names, encoded once: the runtime checks every question's suggestion by teaching
 * it to its entry, which tries the mark on every other customer's name and plain name. RE2 reads a
 * string by encoding it to UTF-8 first, and a Buffer as the UTF-8 it is, the same match six times
 * faster (10,000 names: 8.5 ms a question as strings, 1.3 ms as Buffers). By entry: versions share
 * their untouched customers.
 */
const namesAsBytes = new WeakMap<CustomerMarks, NameBytes>();

function nameBytesOf(customer: CustomerMarks): NameBytes {
  let names = namesAsBytes.get(customer);
  if (names === undefined) {
    const plain = plainNameOf(customer.name);
    names = { name: Buffer.from(customer.name, 'utf8'), plain: plain === customer.name ? undefined : Buffer.from(plain, 'utf8') };
    namesAsBytes.set(customer, names);
  }
  return names;
}

/** Legal forms left off a customer's name, so `Brightwell Foods` in a message matches `Brightwell Foods plc`. */
export const LEGAL_FORM =
  /[\s,]+(?:plc|ltd\.?|limited|llc|inc\.?|corp\.?|gmbh|ag|kg|as|a\/s|asa|ab|oy|bv|b\.v\.|nv|n\.v\.|sa|s\.a\.|s\.l\.|sl|srl|s\.r\.l\.|spa|s\.p\.a\.|sas|sarl|co\.?|company)$/i;

/** A customer's name as messages write it: without its legal form. */
export function plainNameOf(name: string): string {
  return name.replace(LEGAL_FORM, '').trim();
}

/**
 * Refuse a mark another customer already holds. Taught to a second customer, every message it
 * matches would score a point for both: they would tie and ask for ever, and no later lesson of
 * the same mark could settle them (it would be "already known").
 */
export function refuseHeldElsewhere(mark: Mark, others: readonly CustomerMarks[]): void {
  for (const other of others) {
    // sameMark needs the same pattern first: a customer without it holds no such mark.
    if (caching && !patternsOf(other).has(mark.pattern)) continue;
    if (other.marks.some((known) => sameMark(known, mark))) {
      throw new UnlearnableValue(
        `'${mark.pattern}' is already a mark of ${other.name} (${other.key}); taught here too, every message it matches would tie between the two and be asked about for ever. Teach what tells this customer apart instead: a reference from the subject, or the customer's name.`,
        { field: 'pattern' },
      );
    }
  }
}

/**
 * Each customer's patterns, gathered once by entry (versions share their untouched customers): the
 * runtime checks every question's suggestion by teaching it to its entry, which looks for the mark
 * among every other customer's marks (10,000 customers: 1.4 ms a question mark by mark).
 */
const patternsByCustomer = new WeakMap<CustomerMarks, ReadonlySet<string>>();

function patternsOf(customer: CustomerMarks): ReadonlySet<string> {
  let patterns = patternsByCustomer.get(customer);
  if (patterns === undefined) {
    patterns = new Set(customer.marks.map((mark) => mark.pattern));
    patternsByCustomer.set(customer, patterns);
  }
  return patterns;
}

/** The end of a mark that names a domain and stops there: `@brightwell-foods\.example`. */
const OPEN_DOMAIN_END = /@.*\\\.[a-z0-9-]+(?:\\b)?$/i;

/**
 * A seed follows the rules a suggestion follows (SPEC §2.3): no mark held by two customers, and no
 * mark on a sender's domain that a longer look-alike domain also matches
 * (`@brightwell-foods\.example` matches `accounts@brightwell-foods.example-remit.invalid`; end it
 * with `>`, the end of the address, as in `@brightwell-foods\.example>`).
 */
export function checkSeedMarks(entries: readonly CustomerMarks[]): void {
  const problems: string[] = [];
  const byPattern = marksByPattern(entries);
  const namesMatched = marksNamingOthers(entries);
  let place = 0;
  for (const [index, entry] of entries.entries()) {
    for (const mark of entry.marks) {
      if ((mark.where === 'from' || mark.where === 'any') && OPEN_DOMAIN_END.test(mark.pattern)) {
        problems.push(
          `${entry.key}'s mark '${mark.pattern}' also matches a longer look-alike domain (e.g. ${lookAlike(mark.pattern)}); end it with > so it stops where the address does`,
        );
      }
      if (mark.sender !== undefined && (mark.where === 'from' || OPEN_DOMAIN_END.test(mark.sender))) {
        problems.push(
          `${entry.key}'s mark '${mark.pattern}' has the sender condition '${mark.sender}', which ${mark.where === 'from' ? 'a mark on the sender does not take' : 'also matches a longer look-alike address; end it with >'}`,
        );
      }
      const named = mark.where === 'from' ? undefined : namesMatched[place++];
      if (named !== undefined) problems.push(`${entry.key}'s mark '${mark.pattern}' matches the name of ${named.key}, whose mail it would claim`);
      const holder = byPattern.get(mark.pattern)?.find((other) => other.index > index && sameMark(other.mark, mark))?.entry;
      if (holder !== undefined) problems.push(`'${mark.pattern}' is a mark of both ${entry.key} and ${holder.key}, so their messages would tie for ever`);
    }
  }
  problems.push(...sharedFormats(entries));
  if (problems.length > 0) throw new Error(`The customers seed breaks the rules lessons follow: ${problems.join('; ')}.`);
}

/**
 * Reference formats two customers' seed marks share (issue 35, class 6): a mark of one customer
 * that takes a reference written in another's format (`\bBK-\d{4}-\d{4}` takes `KF-BK-0000-0000`
 * of `KF-BK-\d{4}-\d{4}`, the same shape issued by both), in a place they share. It would claim the
 * other's mail, or tie with it for ever. Each mark simple enough to write a text for (`exampleOf`)
 * is tried, in a sentence, against the seed's formats (few), so 50,000 marks cost a pass each, not
 * every pair.
 */
function sharedFormats(entries: readonly CustomerMarks[]): string[] {
  // Only a format (a pattern with `\d` or a digit class) takes what it was not written from: a whole
  // reference is one shipment. So every mark's example is tried against the formats alone, in sets
  // of at most PIECE patterns (a seed of 50,000 whole references and a few formats: a pass each).
  const formats: { readonly mark: Mark; readonly entry: CustomerMarks }[] = [];
  const examples: { readonly mark: Mark; readonly entry: CustomerMarks; readonly example: string; readonly sentence: string }[] = [];
  for (const entry of entries) {
    for (const mark of entry.marks) {
      if (mark.where === 'from' || mark.sender !== undefined) continue;
      if (FORMAT.test(mark.pattern)) formats.push({ mark, entry });
      const example = exampleOf(mark.pattern);
      // A reference: a text with a digit, which the mark itself takes where it stands.
      if (example === undefined || !/\d/.test(example)) continue;
      const sentence = `Ref ${example} today`;
      if (safeMatches(mark.pattern, sentence)) examples.push({ mark, entry, example, sentence });
    }
  }
  const problems: string[] = [];
  const reported = new Set<string>();
  for (let start = 0; start < formats.length; start += FORMAT_SET_SIZE) {
    const chunk = formats.slice(start, start + FORMAT_SET_SIZE);
    let set: InstanceType<typeof RE2.Set>;
    try {
      set = new RE2.Set(
        chunk.map(({ mark }) => mark.pattern),
        'iu',
      );
    } catch {
      continue;
    }
    for (const { mark, entry, example, sentence } of examples) {
      for (const hit of set.match(sentence)) {
        const other = chunk[hit]!;
        // The same mark twice is the tie reported above.
        if (other.entry.key === entry.key || !sharePlace(other.mark.where, mark.where) || sameMark(other.mark, mark)) continue;
        const pair = `${other.entry.key}\u0000${other.mark.pattern}\u0000${entry.key}`;
        if (reported.has(pair)) continue;
        reported.add(pair);
        problems.push(
          `${other.entry.key}'s mark '${other.mark.pattern}' also takes ${example}, a reference in ${entry.key}'s format ('${mark.pattern}'), so it would claim ${entry.key}'s mail or tie with it for ever; customers that share a reference format are told apart by the sender or by whole references, so narrow one of the marks`,
        );
      }
    }
  }
  return problems;
}

/** A pattern written for a shape of references, not one: it has `\d` or a class of digits. */
const FORMAT = /\\d|\[(?:\d-\d|\\d)/;
/** How many formats one set of the shared-format check holds. */
const FORMAT_SET_SIZE = 256;

function sharePlace(a: MarkPlace, b: MarkPlace): boolean {
  return a === b || a === 'any' || b === 'any';
}

function safeMatches(pattern: string, text: string): boolean {
  try {
    return compileMark(pattern).test(text);
  } catch {
    return false;
  }
}

/** Marks by their pattern, each with its entry and the entry's place, in the seed's order. */
function marksByPattern(entries: readonly CustomerMarks[]): Map<string, { readonly index: number; readonly entry: CustomerMarks; readonly mark: Mark }[]> {
  const byPattern = new Map<string, { index: number; entry: CustomerMarks; mark: Mark }[]>();
  for (const [index, entry] of entries.entries()) {
    for (const mark of entry.marks) {
      const same = byPattern.get(mark.pattern);
      if (same === undefined) byPattern.set(mark.pattern, [{ index, entry, mark }]);
      else same.push({ index, entry, mark });
    }
  }
  return byPattern;
}

/** How many marks one set of the seed's name check holds. */
const NAME_CHECK_SET_SIZE = 8192;

/**
 * For each mark of the seed not on the sender, in the seed's order, the first other customer (in
 * the seed's order) whose name it matches, or undefined: what `othersNameIn` says of each mark, found by matching each name once against
 * sets of the marks instead of each mark against every name (50,000 marks among 25,000 customers:
 * seconds, not the many minutes of 2.5 billion single matches). A set that RE2 cannot build falls
 * back to the marks one by one.
 */
function marksNamingOthers(entries: readonly CustomerMarks[]): (CustomerMarks | undefined)[] {
  const owned: { readonly mark: Mark; readonly entry: CustomerMarks }[] = [];
  for (const entry of entries) for (const mark of entry.marks) if (mark.where !== 'from') owned.push({ mark, entry });
  const found: (CustomerMarks | undefined)[] = Array.from({ length: owned.length });
  const names = entries.filter((other) => !other.noCustomer);
  for (let start = 0; start < owned.length; start += NAME_CHECK_SET_SIZE) {
    const chunk = owned.slice(start, start + NAME_CHECK_SET_SIZE);
    let set: InstanceType<typeof RE2.Set> | undefined;
    try {
      const characters = chunk.reduce((total, { mark }) => total + mark.pattern.length, 0);
      set = new RE2.Set(
        chunk.map(({ mark }) => mark.pattern),
        'iu',
        { maxMem: Math.max(8 * 1024 * 1024, characters * 2048) },
      );
    } catch {
      set = undefined;
    }
    if (set === undefined) {
      for (const [at, { mark, entry }] of chunk.entries()) found[start + at] = othersNameIn(mark, entry, entries);
      continue;
    }
    for (const other of names) {
      const hits = new Set([...set.match(other.name), ...set.match(plainNameOf(other.name))]);
      for (const hit of hits) {
        if (chunk[hit]!.entry.key !== other.key && found[start + hit] === undefined) found[start + hit] = other;
      }
    }
  }
  return found;
}

function lookAlike(pattern: string): string {
  const at = pattern.lastIndexOf('@');
  const domain = pattern
    .slice(at + 1)
    .replace(/\\b$/, '')
    .replace(/\\(.)/g, '$1');
  // An address keeps its own local part (billing@origin.example-remit.invalid); a domain gets one.
  const local = /[a-z0-9._%+-]+$/i.exec(pattern.slice(0, at).replace(/\\(.)/g, '$1'))?.[0] ?? 'accounts';
  return `${local}@${domain}-remit.invalid`;
}

/** How the authority rebuilds customers from storage, and checks a seed at start-up. */
export const customerMarksKind = defineKind({
  collection: 'customers',
  learnable: CustomerMarks,
  state: customerState,
  fromState: (key, { name, marks, noCustomer }) => new CustomerMarks(key, name, marks, noCustomer === true),
  create: (key, label) => new CustomerMarks(key, label, []),
  checkSeed: checkSeedMarks,
});
