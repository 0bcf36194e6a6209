import type { Definition } from '@learnables/learnable';
import { readLessonValue } from '@learnables/learnable';
import { LEGAL_FORM, compiledMark, markLesson, sameMark } from './customer-marks.ts';
import type { CustomerMarks, Mark } from './customer-marks.ts';
import type { EmailInput, EmailSender } from './email-input.ts';
import { evidenceText } from './evidence-text.ts';
import { hasForwardPrefix } from './forwards.ts';
import { customersMatching, findCustomer } from './match-marks.ts';
import { escapePattern, referencePattern, senderPattern } from './mark-patterns.ts';
import { senderLine } from './message-fields.ts';
import type { MessageField, MessageFields } from './message-fields.ts';
import { messageModel } from './message-model.ts';
import type { MessageModel } from './message-model.ts';
import type { InternalSenders } from './internal-senders.ts';
import type { RecentSenders } from './recent-senders.ts';
import { senderKind } from './sender-kinds.ts';
import { findReferences } from './references.ts';

/** What the agent knows besides the message: the entries' marks, and whom senders wrote for lately. */
export interface SuggestionContext {
  readonly customers?: Definition<CustomerMarks>;
  readonly recent?: RecentSenders;
  /** The warehouse's own people: only their forwards are read as the original sender's, and none of their addresses is ever a customer's mark (issue 35). */
  readonly internal?: InternalSenders;
}

/** What `read` already made of the message, so a question does not read it again. */
export interface ReadMessage {
  /** `messageModel(input, internal)`: suggestions are drawn from the author's own part only. */
  readonly model: MessageModel;
}

/** A mark to offer, and, when it is not the plain sender, why this one (for the question's text). */
export interface Suggestion {
  readonly mark: Mark;
  readonly why?: string;
  /** The customer whose name the mark is: the likely answer, and the only one it can be taught to. */
  readonly names?: string;
}

/**
 * Local parts of addresses that machines write from, for whoever uses the machine: a booking
 * portal's `noreply@` writes for every customer that books through it.
 */
const AUTOMATED_SENDER =
  /^(?:no-?reply|do-?not-?reply|donotreply|noreply[-+.].*|notifications?|notify|alerts?|mailer|mailer-daemon|postmaster|bounces?|system|automail|auto-confirm|portal|bookings?)(?:[-+.].*)?$/i;

/** The shortest customer name offered as a mark: shorter names are words that occur anywhere. */
const SHORTEST_NAME = 5;

/** How far into the subject and the body's own text customers' names are looked for (characters). */
export const NAMES_LOOKED_FOR_IN = 4096;
/** Candidates (names, then references) tried for a narrower suggestion; the rest are not looked at. */
export const MOST_CANDIDATES = 64;

/**
 * The mark to offer with the question (SPEC §2.3): the narrowest evidence in this message that
 * tells its customer apart from the others the agent knows.
 *
 * - The sender's exact address, anchored at both ends (`<billing@origin\.example>`), when nothing
 *   says it is shared. For a forward, the sender is the original one the forward quotes; the
 *   desk that forwarded it never is.
 * - When the sender may write for several customers, "the sender AND" something narrower from the
 *   same message: a known customer's name in the subject or body, else a whole reference from the
 *   subject, then the body, then the attachments — and `why` says so. A sender may write for
 *   several when its address is already a mark of another customer, when its recent mail was
 *   decided for a customer by other evidence than its address (a reference: its address never
 *   told its mail apart) or for two customers, when it is an automated address such as
 *   `noreply@`, or when its message names a known customer in its own text (a portal's
 *   "Customer: …", a haulier's "for …": who writes about customers writes about more than one).
 * - Never text from a signature or a quoted header block (postcodes, phone numbers, the desk's
 *   own address); never a mark another customer already holds; always one CustomerMarks accepts
 *   and that matches the message it came from.
 */
export function suggestEvidence(input: EmailInput, context: SuggestionContext = {}, read?: ReadMessage): Suggestion | undefined {
  const model = read?.model ?? messageModel(input, context.internal);
  // The author's own part (issue 35): what a taught mark would decide on. Quoted history, a forward
  // by an outsider and an echoed subject are never drawn from (they name other customers).
  const fields = model.own;
  const forwarded = model.forward?.internal === true ? model.forward.original : undefined;
  const evidence: Readonly<Record<Exclude<MessageField, 'from'>, string>> = {
    subject: fields.subject,
    body: evidenceText(fields.body),
    attachments: fields.attachments,
  };
  const sender: EmailSender | undefined =
    fields.from === ''
      ? undefined
      : (forwarded ?? (hasForwardPrefix(input.subject) && model.forward === undefined ? undefined : model.via === undefined ? input.from : model.author));
  const customers = customersOf(context.customers);
  // Automated mail is decided only by a mark with a sender condition: nothing else is worth teaching.
  const usable = (mark: Mark) =>
    (!model.automated || mark.sender !== undefined) && isAccepted(mark) && matchesIn(mark, fields) && heldBy(mark, customers) === undefined;

  // Only the first usable candidate is offered; each costs a compile and a pass over the message, so
  // look no further than the first few (a CSV of 40,000 references cost 40,000 passes: 70 s).
  let narrowest: Candidate | null | undefined = null;
  const firstNarrower = (): Candidate | undefined => {
    if (narrowest === null) {
      narrowest = [...namesIn(evidence, customers), ...referencesIn(evidence)].slice(0, MOST_CANDIDATES).find((candidate) => usable(candidate.mark));
    }
    return narrowest;
  };
  // A list's or group's address, an SRS rewriting and the warehouse's own are no customer's: not
  // offered, alone or as the sender of a pair (issue 35, class 5); what the message says may be.
  const kind = sender === undefined ? undefined : senderKind(input, sender, context.internal);
  if (kind !== undefined && kind.kind !== 'free-mail') {
    const first = firstNarrower();
    if (first === undefined) return undefined;
    return {
      mark: first.mark,
      why: `${kind.sentence}, so I suggest ${first.text} from the ${first.mark.where} instead, which tells this message apart.`,
      ...(first.customer !== undefined && { names: first.customer }),
    };
  }
  if (sender !== undefined) {
    const senderMark: Mark = { pattern: senderPattern(sender.address), where: 'from' };
    const names = namesIn(evidence, customers);
    const shared =
      (model.automated ? { kind: 'automated' as const, sentence: `${sender.address} sends automated mail` } : undefined) ??
      // A forward by someone outside: its sender forwards what others wrote, perhaps for several customers.
      (model.forward !== undefined && !model.forward.internal
        ? { kind: 'forwards' as const, sentence: `${sender.address} forwards mail that others wrote` }
        : undefined) ??
      sharedBecause(sender, senderMark, senderLine(sender), context.customers, context.recent) ??
      namesCustomers(sender, names, customers) ??
      (kind === undefined ? thirdParty(sender, customers, names.length > 0 || referencesIn(evidence).length > 0) : undefined);
    if (shared === undefined && usable(senderMark)) {
      if (forwarded !== undefined)
        return { mark: senderMark, why: `This is a forward: I suggest the original sender ${sender.address}, not ${input.from.address || 'the forwarder'}.` };
      // A free-mail address is one person's, never its domain, which is everyone's.
      if (kind?.kind === 'free-mail')
        return { mark: senderMark, why: `${sender.address} is a free-mail address, so I suggest this person's own address, never all of ${kind.domain}.` };
      return { mark: senderMark };
    }
    // The pair is narrower than either half: the name or reference counts only on this sender's mail.
    // A customer's name from this sender counts wherever the message has it (a statement names the
    // customer in its attached CSV); a reference stays where it was found.
    const paired = (candidate: Candidate): Candidate => ({
      ...candidate,
      mark: { ...candidate.mark, ...(candidate.customer !== undefined && { where: 'any' as const }), sender: senderMark.pattern },
    });
    const pair = [...names, ...referencesIn(evidence)]
      .slice(0, MOST_CANDIDATES)
      .map(paired)
      .find((candidate) => usable(candidate.mark));
    const because = shared?.sentence ?? `${sender.address} cannot be offered`;
    if (pair !== undefined) {
      return {
        mark: pair.mark,
        why: `${because}, so I suggest ${pair.text} in ${pair.mark.where === 'any' ? 'any part' : `the ${pair.mark.where}`} of mail from ${sender.address}, which tells this message apart.`,
        ...(pair.customer !== undefined && { names: pair.customer }),
      };
    }
    const first = firstNarrower();
    if (first !== undefined) {
      return {
        mark: first.mark,
        why: `${because}, so I suggest ${first.text} from the ${first.mark.where} instead, which tells this message apart.`,
        ...(first.customer !== undefined && { names: first.customer }),
      };
    }
    if (!model.automated && (shared?.kind === 'automated' || shared?.kind === 'told-otherwise' || shared?.kind === 'third-party') && usable(senderMark)) {
      return { mark: senderMark, why: `${shared.sentence}; teach it only if it writes for this customer alone.` };
    }
    return undefined;
  }
  const first = firstNarrower();
  return first === undefined ? undefined : { mark: first.mark, ...(first.customer !== undefined && { names: first.customer }) };
}

/** The suggested mark alone (see `suggestEvidence`). */
export function suggestMark(input: EmailInput, context: SuggestionContext = {}): Mark | undefined {
  return suggestEvidence(input, context)?.mark;
}

interface Shared {
  readonly kind: 'held' | 'seen' | 'told-otherwise' | 'automated' | 'names' | 'forwards' | 'third-party';
  readonly sentence: string;
}

/** A candidate mark and the text it was drawn from, for the sentence that offers it. */
interface Candidate {
  readonly mark: Mark;
  readonly text: string;
  /** For a customer's name: whose. */
  readonly customer?: string;
}

/**
 * A sender whose domain bears no known customer's name, writing a reference or a name in its own
 * text (SPEC §2.3.3): a customer's own people write from a domain that bears the customer's name
 * (`orders@quayside-spirits.example`); a haulier, a forwarder or a portal writes from its own
 * (`trafico@transportes-meseta.example`) about its customers' shipments, and its address alone would
 * take the next customer's. Offered as the sender AND what it wrote; once the customer is known by
 * name, its own people's next message is offered their address alone.
 */
function thirdParty(sender: EmailSender, customers: readonly CustomerMarks[], wroteEvidence: boolean): Shared | undefined {
  // With no customer known yet there is no name to bear: the sender is offered as before.
  if (!wroteEvidence || !customers.some((customer) => !customer.noCustomer)) return undefined;
  const domain = domainWords(sender.address);
  if (domain === '' || customers.some((customer) => !customer.noCustomer && bearsName(domain, customer.label))) return undefined;
  return {
    kind: 'third-party',
    sentence: `${sender.address} is at a domain that bears no customer's name (a haulier, a forwarder or a portal may write for several)`,
  };
}

/** Words of a customer's name too common to tell one company's domain from another's. */
const COMMON_WORDS = new Set([
  'societe',
  'group',
  'groupe',
  'gruppe',
  'international',
  'logistics',
  'logistik',
  'logistica',
  'logistiek',
  'transport',
  'transports',
  'transportes',
  'trading',
  'services',
  'company',
  'holding',
  'holdings',
  'global',
  'europe',
  'european',
  'industries',
  'industrie',
  'supplies',
  'foods',
  'systems',
]);

/** A sender's domain as one run of letters and digits, without its last label (`transportes-meseta.example` → `transportesmeseta`). */
export function domainWords(address: string): string {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  const labels = domain.split('.');
  return (labels.length > 1 ? labels.slice(0, -1) : labels).join('').replace(/[^0-9a-z]/g, '');
}

/** Whether a domain (as `domainWords` gives it) bears a name: one of its distinctive words of four letters or more, or all of them run together. */
export function bearsName(domain: string, label: string): boolean {
  const words = label
    .replace(LEGAL_FORM, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^0-9a-z]+/)
    .filter((word) => word !== '');
  if (words.length > 0 && domain.includes(words.join(''))) return true;
  return words.some((word) => word.length >= 4 && !COMMON_WORDS.has(word) && domain.includes(word));
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
  // Asked about now, and seen decided before: whatever decided its earlier mail was not its address
  // (a mark on it would decide this one too), so its address has never told its mail apart.
  const seen = recent?.customersOf(sender.address) ?? [];
  const names = seen.map((key) => (definition === undefined ? undefined : findCustomer(definition, key))?.label ?? key);
  if (seen.length > 1) return shared('seen', `${sender.address} has lately written for ${listed(names)}`);
  if (seen.length === 1) return shared('told-otherwise', `${sender.address}'s earlier mail for ${names[0]} was told apart by something other than its address`);
  const local = sender.address.slice(0, sender.address.lastIndexOf('@'));
  if (AUTOMATED_SENDER.test(local)) return shared('automated', `${sender.address} is an automated address, which may write for several customers`);
  return undefined;
}

/**
 * A message that names a known customer in its own text (not its signature or a quoted header
 * block) is written about that customer by someone else, such as a booking portal or a haulier,
 * who writes about others too.
 */
function namesCustomers(sender: EmailSender, named: readonly Candidate[], customers: readonly CustomerMarks[]): Shared | undefined {
  if (named.length === 0) return undefined;
  // A customer's own people name their own company (`Östra Hamnens Livs` from maja.sjoberg@ostrahamnen.example):
  // that says nothing of writing for others, when the one customer named is the one the domain bears.
  const keys = new Set(named.flatMap((candidate) => candidate.customer ?? []));
  const own = keys.size === 1 ? customers.find((customer) => keys.has(customer.key)) : undefined;
  if (own !== undefined && bearsName(domainWords(sender.address), own.label)) return undefined;
  return {
    kind: 'names',
    sentence: `${sender.address} writes about ${listed([...new Set(named.map((candidate) => candidate.text))])} by name, as a portal or a haulier writes about several customers`,
  };
}

/** Known customers' names (without their legal form) where they stand in the subject, then the body. */
/** The customers' names (each a mark of that customer alone) found in the start of a subject and a body. */
export function customerNamesIn(
  evidence: Readonly<Record<'subject' | 'body', string>>,
  customers: readonly CustomerMarks[],
): readonly { readonly customer?: string; readonly text: string }[] {
  return namesIn(evidence, customers);
}

function namesIn(evidence: Readonly<Record<'subject' | 'body', string>>, customers: readonly CustomerMarks[]): Candidate[] {
  const found: Candidate[] = [];
  for (const where of ['subject', 'body'] as const) {
    // Only the start of each: every customer's name is looked for in it, so its length times the
    // customers is the cost (a 1 MB body and 10,000 customers held the event loop 9 s). A portal's
    // "Customer: …" is at the top; one character more keeps a name ending at the cut judged by its edge.
    const text = evidence[where].slice(0, NAMES_LOOKED_FOR_IN + 1);
    const plain = text.slice(0, NAMES_LOOKED_FOR_IN).toLowerCase().replace(/\s+/g, ' ');
    for (const { customer, name, lower } of namesOf(customers)) {
      // A plain look first: compiling a pattern per customer per question would cost more than the rest.
      if (!plain.includes(lower)) continue;
      // The same edges as a reference's (ASCII: Unicode classes cost RE2 milliseconds to compile).
      const pattern = `(?:^|[^0-9a-z])${escapePattern(name).replace(/\s+/g, '\\s+')}(?:$|[^0-9a-z])`;
      if (compiledMark(pattern).test(text)) found.push({ mark: { pattern, where }, text: name, customer: customer.key });
    }
  }
  return found;
}

/** Each version's customers' names as messages write them, built once per version (entries arrays are frozen). */
const namesByEntries = new WeakMap<readonly CustomerMarks[], readonly { customer: CustomerMarks; name: string; lower: string }[]>();

function namesOf(customers: readonly CustomerMarks[]): readonly { customer: CustomerMarks; name: string; lower: string }[] {
  let names = namesByEntries.get(customers);
  if (names === undefined) {
    names = customers.flatMap((customer) => {
      const name = customer.label.replace(LEGAL_FORM, '').trim();
      return customer.noCustomer || name.length < SHORTEST_NAME ? [] : [{ customer, name, lower: name.toLowerCase().replace(/\s+/g, ' ') }];
    });
    namesByEntries.set(customers, names);
  }
  return names;
}

/** Whole references, subject first, leaving out what reads as a postcode (`NW10 7HQ`). */
function referencesIn(evidence: Readonly<Record<Exclude<MessageField, 'from'>, string>>): Candidate[] {
  const found: Candidate[] = [];
  for (const where of ['subject', 'body', 'attachments'] as const) {
    for (const reference of findReferences(evidence[where], MOST_CANDIDATES)) {
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
  readonly mark: Mark;
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
        if (list === undefined) built.set(known.pattern, [{ customer, mark: known }]);
        else list.push({ customer, mark: known });
      }
    }
    index = built;
    heldByPattern.set(customers, index);
  }
  return index.get(mark.pattern)?.find((known) => sameMark(known.mark, mark))?.customer;
}

function customersOf(definition: Definition<CustomerMarks> | undefined): readonly CustomerMarks[] {
  return definition?.entries ?? [];
}

function matchesIn(mark: Mark, fields: Readonly<Record<MessageField, string>>): boolean {
  if (mark.sender !== undefined && !safeTest(mark.sender, fields.from)) return false;
  const places: readonly MessageField[] = mark.where === 'any' ? ['from', 'subject', 'body', 'attachments'] : [mark.where];
  return places.some((place) => safeTest(mark.pattern, fields[place]));
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return compiledMark(pattern).test(text);
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
    readLessonValue(markLesson, { pattern: mark.pattern, where: mark.where, ...(mark.sender !== undefined && { sender: mark.sender }) });
    return true;
  } catch {
    return false;
  }
}
