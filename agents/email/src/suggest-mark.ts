import type { Definition } from '@learnables/learnable';
import { readLessonValue } from '@learnables/learnable';
import { compileMark, markLesson } from './customer-marks.ts';
import type { CustomerMarks, Mark } from './customer-marks.ts';
import type { EmailInput, EmailSender } from './email-input.ts';
import { evidenceText } from './evidence-text.ts';
import { forwardedSender, hasForwardPrefix } from './forwards.ts';
import { customersMatching, findCustomer } from './match-marks.ts';
import { escapePattern, referencePattern, senderPattern } from './mark-patterns.ts';
import { messageFields } from './message-fields.ts';
import type { MessageField } from './message-fields.ts';
import type { RecentSenders } from './recent-senders.ts';
import { findReferences } from './references.ts';

/** What the agent knows besides the message: the entries' marks, and whom senders wrote for lately. */
export interface SuggestionContext {
  readonly customers?: Definition<CustomerMarks>;
  readonly recent?: RecentSenders;
}

/** A mark to offer, and, when it is not the plain sender, why this one (for the question's text). */
export interface Suggestion {
  readonly mark: Mark;
  readonly why?: string;
}

/**
 * Local parts of addresses that machines write from, for whoever uses the machine: a booking
 * portal's `noreply@` writes for every customer that books through it.
 */
const AUTOMATED_SENDER = /^(?:no-?reply|do-?not-?reply|donotreply|noreply[-+.].*|notifications?|notify|alerts?|mailer|mailer-daemon|postmaster|bounces?|system|automail|auto-confirm|portal|bookings?)(?:[-+.].*)?$/i;

/** Legal forms left off a customer's name, so `Brightwell Foods` in a message matches `Brightwell Foods plc`. */
const LEGAL_FORM =
  /[\s,]+(?:plc|ltd\.?|limited|llc|inc\.?|corp\.?|gmbh|ag|kg|as|a\/s|asa|ab|oy|bv|b\.v\.|nv|n\.v\.|sa|s\.a\.|s\.l\.|sl|srl|s\.r\.l\.|spa|s\.p\.a\.|sas|co\.?|company)$/i;

/** The shortest customer name offered as a mark: shorter names are words that occur anywhere. */
const SHORTEST_NAME = 5;
/** Candidates (names, then references) tried for a narrower suggestion; the rest are not looked at. */
export const MOST_CANDIDATES = 64;

/**
 * The mark to offer with the question (SPEC §2.3): the narrowest evidence in this message that
 * tells its customer apart from the others the agent knows.
 *
 * - The sender's exact address, anchored at both ends (`<billing@origin\.example>`), when nothing
 *   says it is shared. For a forward, the sender is the original one the forward quotes; the
 *   desk that forwarded it never is.
 * - When the sender is shared (already a mark of another customer, or recently decided for two or
 *   more customers, or an automated address such as `noreply@`), something narrower: a known
 *   customer's name in the subject or body, else a whole reference from the subject, then the
 *   body, then the attachments — and `why` says so.
 * - Never text from a signature or a quoted header block (postcodes, phone numbers, the desk's
 *   own address); never a mark another customer already holds; always one CustomerMarks accepts
 *   and that matches the message it came from.
 */
export function suggestEvidence(input: EmailInput, context: SuggestionContext = {}): Suggestion | undefined {
  const fields = messageFields(input);
  const evidence: Readonly<Record<Exclude<MessageField, 'from'>, string>> = {
    subject: fields.subject,
    body: evidenceText(input.body),
    attachments: fields.attachments,
  };
  const forwarded = forwardedSender(input);
  const sender: EmailSender | undefined =
    forwarded ?? (hasForwardPrefix(input.subject) || input.from.address === '' ? undefined : input.from);
  const customers = customersOf(context.customers);
  const usable = (mark: Mark) => isAccepted(mark) && matchesIn(mark, fields) && heldBy(mark, customers) === undefined;

  // Only the first usable candidate is offered; each costs a compile and a pass over the message, so
  // look no further than the first few (a CSV of 40,000 references cost 40,000 passes: 70 s).
  let narrowest: Candidate | null | undefined = null;
  const firstNarrower = (): Candidate | undefined => {
    if (narrowest === null) {
      narrowest = [...namesIn(evidence, customers), ...referencesIn(evidence)].slice(0, MOST_CANDIDATES).find((candidate) => usable(candidate.mark));
    }
    return narrowest;
  };
  if (sender !== undefined) {
    const senderMark: Mark = { pattern: senderPattern(sender.address), where: 'from' };
    const shared = sharedBecause(sender, senderMark, fields.from, context.customers, context.recent);
    if (shared === undefined && usable(senderMark)) {
      return forwarded === undefined
        ? { mark: senderMark }
        : { mark: senderMark, why: `This is a forward: I suggest the original sender ${sender.address}, not ${input.from.address || 'the forwarder'}.` };
    }
    const first = firstNarrower();
    if (first !== undefined) {
      const because = shared?.sentence ?? `${sender.address} cannot be offered`;
      return { mark: first.mark, why: `${because}, so I suggest ${first.text} from the ${first.mark.where} instead, which tells this message apart.` };
    }
    if (shared?.kind === 'automated' && usable(senderMark)) {
      return { mark: senderMark, why: `${shared.sentence}; teach it only if it writes for this customer alone.` };
    }
    return undefined;
  }
  const first = firstNarrower();
  return first === undefined ? undefined : { mark: first.mark };
}

/** The suggested mark alone (see `suggestEvidence`). */
export function suggestMark(input: EmailInput, context: SuggestionContext = {}): Mark | undefined {
  return suggestEvidence(input, context)?.mark;
}

interface Shared {
  readonly kind: 'held' | 'seen' | 'automated';
  readonly sentence: string;
}

/** A candidate mark and the text it was drawn from, for the sentence that offers it. */
interface Candidate {
  readonly mark: Mark;
  readonly text: string;
}

function sharedBecause(
  sender: EmailSender,
  senderMark: Mark,
  from: string,
  definition: Definition<CustomerMarks> | undefined,
  recent: RecentSenders | undefined,
): Shared | undefined {
  const shared = (kind: Shared['kind'], sentence: string): Shared => ({ kind, sentence });
  const customers = customersOf(definition);
  const holders = holdersOf(from, definition);
  if (holders.length > 0 || heldBy(senderMark, customers) !== undefined) {
    const names = holders.map((customer) => customer.label);
    return shared('held', `${sender.address} is already a mark of ${listed(names)}`);
  }
  // One customer seen is no sign of sharing (it may be this one again); two are.
  const seen = recent?.customersOf(sender.address) ?? [];
  if (seen.length > 1) {
    const names = seen.map((key) => (definition === undefined ? undefined : findCustomer(definition, key))?.label ?? key);
    return shared('seen', `${sender.address} has lately written for ${listed(names)}`);
  }
  const local = sender.address.slice(0, sender.address.lastIndexOf('@'));
  if (AUTOMATED_SENDER.test(local)) return shared('automated', `${sender.address} is an automated address, which may write for several customers`);
  return undefined;
}

/** Known customers' names (without their legal form) where they stand in the subject, then the body. */
function namesIn(evidence: Readonly<Record<'subject' | 'body', string>>, customers: readonly CustomerMarks[]): Candidate[] {
  const found: Candidate[] = [];
  for (const where of ['subject', 'body'] as const) {
    const plain = evidence[where].toLowerCase().replace(/\s+/g, ' ');
    for (const customer of customers) {
      const name = customer.label.replace(LEGAL_FORM, '').trim();
      if (name.length < SHORTEST_NAME) continue;
      // A plain look first: compiling a pattern per customer per question would cost more than the rest.
      if (!plain.includes(name.toLowerCase().replace(/\s+/g, ' '))) continue;
      // The same edges as a reference's (ASCII: Unicode classes cost RE2 milliseconds to compile).
      const pattern = `(?:^|[^0-9a-z])${escapePattern(name).replace(/\s+/g, '\\s+')}(?:$|[^0-9a-z])`;
      if (compileMark(pattern).test(evidence[where])) found.push({ mark: { pattern, where }, text: name });
    }
  }
  return found;
}

/** Whole references, subject first, leaving out what reads as a postcode (`NW10 7HQ`). */
function referencesIn(evidence: Readonly<Record<Exclude<MessageField, 'from'>, string>>): Candidate[] {
  const found: Candidate[] = [];
  for (const where of ['subject', 'body', 'attachments'] as const) {
    for (const reference of findReferences(evidence[where])) {
      if (isPostcode(reference, evidence[where])) continue;
      found.push({ mark: { pattern: referencePattern(reference), where }, text: reference });
    }
  }
  return found;
}

/** A UK outward code followed by an inward code (`NW10 7HQ`, `EC1A 1BB`) is an address, not a reference. */
function isPostcode(reference: string, text: string): boolean {
  if (!/^[A-Z]{1,2}\d[A-Z\d]?$/.test(reference)) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapePattern(reference)}\\s+\\d[A-Z]{2}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

/**
 * The customers, in definition order, whose marks in the from (or `any`) match this from line:
 * the version's compiled sets, the same that decide (`suggest-mark.test.ts` holds this to trying
 * each mark in turn, as it was done before).
 */
export function holdersOf(from: string, definition: Definition<CustomerMarks> | undefined): readonly CustomerMarks[] {
  return definition === undefined || definition.entries.length === 0 ? [] : customersMatching(definition, 'from', from);
}

/** A mark held by a customer, listed under its pattern in definition order. */
interface HeldMark {
  readonly customer: CustomerMarks;
  readonly where: Mark['where'];
}

/** Each version's marks by pattern, built once per version (entries arrays are frozen). */
const heldByPattern = new WeakMap<readonly CustomerMarks[], ReadonlyMap<string, readonly HeldMark[]>>();

/** The customer that already holds exactly this mark, if any: offering it would tie the two forever. */
export function heldBy(mark: Mark, customers: readonly CustomerMarks[]): CustomerMarks | undefined {
  let index = heldByPattern.get(customers);
  if (index === undefined) {
    const built = new Map<string, HeldMark[]>();
    for (const customer of customers) {
      for (const known of customer.marks) {
        const list = built.get(known.pattern);
        if (list === undefined) built.set(known.pattern, [{ customer, where: known.where }]);
        else list.push({ customer, where: known.where });
      }
    }
    index = built;
    heldByPattern.set(customers, index);
  }
  return index.get(mark.pattern)?.find((known) => known.where === mark.where || known.where === 'any')?.customer;
}

function customersOf(definition: Definition<CustomerMarks> | undefined): readonly CustomerMarks[] {
  return definition?.entries ?? [];
}

function matchesIn(mark: Mark, fields: Readonly<Record<MessageField, string>>): boolean {
  const places: readonly MessageField[] = mark.where === 'any' ? ['from', 'subject', 'body', 'attachments'] : [mark.where];
  return places.some((place) => safeTest(mark.pattern, fields[place]));
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return compileMark(pattern).test(text);
  } catch {
    return false;
  }
}

function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Whether the mark's value passes the learnable's own schema, as a lesson of it would be read. */
function isAccepted(mark: Mark): boolean {
  try {
    readLessonValue(markLesson, { pattern: mark.pattern, where: mark.where });
    return true;
  } catch {
    return false;
  }
}
