import type { Definition, Learnable } from '@learnables/learnable';
import type { Decider, Finding, PinnedDefinition, PinnedDefinitions } from '@learnables/runtime';
import { CustomerMarks, compileMark, compiledMark, customerMarksKind, plainNameOf } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import type { EmailInput } from './email-input.ts';
import { findCustomer, isReferenceFormat, literalReferenceOf, matchMarks } from './match-marks.ts';
import type { Verdict } from './match-marks.ts';
import type { InternalSenders } from './internal-senders.ts';
import { MESSAGE_FIELDS } from './message-fields.ts';
import type { MessageField, MessageFields } from './message-fields.ts';
import { messageModel } from './message-model.ts';
import type { MessageModel } from './message-model.ts';
import { STILL_UNKNOWN, readsClose, readsSettled } from './sentences.ts';
import { evidenceText } from './evidence-text.ts';
import { findReferences } from './references.ts';
import { bearsName, customerNamesIn, domainWords } from './suggest-mark.ts';
import { isFreeMail } from './sender-kinds.ts';

export const COLLECTION = 'customers';

/** The finding `customer` for a verdict of the marks: what `read` reports, and preview compares. */
export function customerFinding(customers: Definition<CustomerMarks>, verdict: Verdict, margin: number): Finding {
  const labelOf = (key: string) => findCustomer(customers, key)?.label ?? key;
  if (verdict.kind === 'settled') {
    return { settled: true, winner: verdict.winner, reads: readsSettled(labelOf(verdict.winner), verdict.hits, verdict.because), collection: COLLECTION };
  }
  const reads = verdict.kind === 'close' ? readsClose(verdict.contenders.map(labelOf), margin) : STILL_UNKNOWN;
  // A reference shape two customers issue (match-marks.ts, SharedFormat): said, and flagged for preview.
  const shared = verdict.shared?.[0];
  if (verdict.kind === 'unmarked' && shared !== undefined) {
    const because = `${shared.hit.text} has the shape of ${labelOf(shared.hit.customer)}'s references and of ${labelOf(shared.other)}'s (${shared.reference}), so the shape decides for neither`;
    return { settled: false, reads: `${because}. ${reads}`, collection: COLLECTION, contested: true };
  }
  return { settled: false, reads, collection: COLLECTION };
}

export function customersOf(definitions: PinnedDefinitions): PinnedDefinition<CustomerMarks> {
  return definitions.of(customerMarksKind);
}

/** What decides a message (issue 35): the author's own part, and whether only lessons on automated mail may. */
export interface DecidingEvidence {
  readonly fields: MessageFields;
  readonly automated: boolean;
  /**
   * Set for mail that is nobody's unless a lesson says otherwise (MessageModel.nobodys: a bounce, an
   * automatic reply, a likely impostor's forward, mail its own domain disowns): why.
   */
  readonly nobodys?: string;
  /** With `nobodys`, for a newsletter: only when no entry's mark, name or any reference is in its own part. */
  readonly unlessNamed?: true;
}

export function decidingEvidence(model: MessageModel): DecidingEvidence {
  const nobodys = model.nobodys;
  return {
    fields: model.own,
    automated: model.automated,
    ...(nobodys === undefined ? {} : { nobodys: nobodys.because, ...(nobodys.whenNothingNamed === true && { unlessNamed: true as const }) }),
  };
}

/**
 * The verdict of the marks on a message's deciding evidence: what `read` and preview both decide by.
 * Automated mail is nobody's unless a lesson says so (SPEC §2.3.7): a bounce or an automatic reply
 * that no admitted mark matches is the entry's for nobody's mail, when the definition has one. A
 * notice (`Auto-Submitted: auto-generated`, `Precedence: bulk`) may be a portal's for a customer: it asks.
 */
export function decideOn(customers: Definition<CustomerMarks>, evidence: DecidingEvidence, margin: number): Verdict {
  const verdict = checkedAgainstOwnPart(
    customers,
    matchMarks(customers, evidence.fields, margin, evidence.automated ? 'taught-for-automated' : undefined),
    evidence.fields,
  );
  if (verdict.kind !== 'unmarked' || evidence.nobodys === undefined) return verdict;
  // A newsletter is nobody's only when nothing in it is any customer's: a portal's notices are bulk mail too.
  if (evidence.unlessNamed === true && namesSomething(customers, evidence.fields, margin)) return verdict;
  const nobody = noCustomerEntry(customers);
  return nobody === undefined ? verdict : { kind: 'settled', winner: nobody, hits: [], scores: [], because: evidence.nobodys };
}

/**
 * A decision held against the rest of the author's own part (issue 35, classes 5 and 6):
 * - a free-mail person's text names another known customer (one person, who moved from one customer to the
 *   next, writing "from this week I work for …"): the two are contenders, and it asks;
 * - it rests only on a customer's reference formats, and nothing ties the sender to that customer (its
 *   domain does not bear the customer's name, no lesson was taught on its mail for it): another customer
 *   may issue the same shape (Kestrel Pharma's `KP/\d{4}/\d{4}`, Krakowskie Przetwory's `KP/2027/6148`),
 *   so it asks; once its first message is taught (the sender AND its reference, SPEC §2.3.3), the format
 *   decides that sender's next ones.
 * From the definition and the message alone, so read, reread and preview agree.
 */
function checkedAgainstOwnPart(customers: Definition<CustomerMarks>, verdict: Verdict, fields: MessageFields): Verdict {
  if (verdict.kind !== 'settled') return verdict;
  const winner = findCustomer(customers, verdict.winner);
  if (winner === undefined || winner.noCustomer) return verdict;
  const address = /^<([^<>]*)>$/.exec(fields.from)?.[1] ?? '';
  // Only a free-mail person's: a company's desk names its consignees (Origin's "Consignee: Northgate Motors").
  const named = !isFreeMail(address)
    ? []
    : [
        ...new Set(customerNamesIn({ subject: fields.subject, body: evidenceText(fields.body) }, customers.entries).flatMap((name) => name.customer ?? [])),
      ].filter((key) => key !== verdict.winner && findCustomer(customers, key)?.noCustomer !== true);
  if (named.length > 0) return { kind: 'close', contenders: [verdict.winner, ...named], scores: verdict.scores };
  if (!verdict.hits.every((hit) => hit.mark.sender === undefined && isReferenceFormat(hit.mark))) return verdict;
  if (
    address !== '' &&
    (bearsName(domainWords(address), winner.label) || winner.marks.some((mark) => mark.sender !== undefined && senderMatches(mark.sender, fields.from)))
  )
    return verdict;
  return { kind: 'unmarked', unconfirmed: { customer: verdict.winner, hits: verdict.hits } };
}

function senderMatches(pattern: string, from: string): boolean {
  try {
    return compiledMark(pattern).test(from);
  } catch {
    return false;
  }
}

/** Whether any entry's mark (admitted or not), any customer's name or any reference is in these fields. */
function namesSomething(customers: Definition<CustomerMarks>, fields: MessageFields, margin: number): boolean {
  if (matchMarks(customers, fields, margin).kind !== 'unmarked') return true;
  const text = { subject: fields.subject, body: evidenceText(fields.body) };
  if (findReferences(`${text.subject}\n${text.body}`, 1).length > 0 || findReferences(fields.attachments, 1).length > 0) return true;
  return customerNamesIn(text, customers.entries).length > 0;
}

/** The first entry for mail that is no customer's, if the definition has one. */
function noCustomerEntry(customers: Definition<CustomerMarks>): string | undefined {
  for (const entry of customers.entries) if (entry.noCustomer) return entry.key;
  return undefined;
}

/**
 * `read`'s findings in two steps, for preview (see Decider in the runtime): the evidence is the
 * author's own part of the message as marks see it (the message model, with the same internal
 * senders as read's); deciding is matching the marks, without asking, suggesting or remembering
 * the sender. A change to one customer can only change the finding of a message that one of its
 * marks, old or new, matches: any other message scores nothing for that customer under both
 * versions, every other score stays, and so does the finding.
 */
export function customerDecider(margin: number, internal?: InternalSenders): Decider<EmailInput, DecidingEvidence> {
  return {
    evidence: (input) => decidingEvidence(messageModel(input, internal)),
    // UTF-16 in memory: two bytes a character.
    sizeOf: ({ fields }) => 2 * (fields.from.length + fields.subject.length + fields.body.length + fields.attachments.length),
    findings(evidence, definitions) {
      const customers = customersOf(definitions);
      return { customer: customerFinding(customers, decideOn(customers, evidence, margin), margin) };
    },
    affects(collection, before, after) {
      if (collection !== COLLECTION) return () => false;
      // The entry for nobody's mail decides every unmarked bounce and automatic reply: a change to it (or to whether
      // an entry is one) may change theirs, with no mark of it matching.
      const nobodys = (before as CustomerMarks | undefined)?.noCustomer === true || (after as CustomerMarks | undefined)?.noCustomer === true;
      const marks = new Map<string, { pattern: string; places: readonly MessageField[] }>();
      for (const entry of [before, after]) {
        for (const mark of marksOf(entry)) {
          // A sender condition only narrows what its mark reaches: the pattern alone over-reaches, which is safe.
          marks.set(JSON.stringify([mark.pattern, mark.where]), { pattern: mark.pattern, places: mark.where === 'any' ? MESSAGE_FIELDS : [mark.where] });
        }
      }
      // A taught reference added or taken away changes which other customers' reference formats decide
      // (a shape two customers issue decides for neither, match-marks.ts): any message whose own part holds a
      // digit may then be decided otherwise; one without could never be matched by such a format's reference.
      const references = (entry: Learnable<any> | undefined) => new Set(marksOf(entry).flatMap((mark) => literalReferenceOf(mark.pattern) ?? []));
      const [referencesBefore, referencesAfter] = [references(before), references(after)];
      const referencesChanged = referencesBefore.size !== referencesAfter.size || [...referencesBefore].some((reference) => !referencesAfter.has(reference));
      // A mark that no longer compiles cannot be tested alone: every message may be affected.
      const tests: { test(text: string): boolean; places: readonly MessageField[] }[] = [];
      for (const { pattern, places } of marks.values()) {
        let regex: ReturnType<typeof compileMark>;
        try {
          regex = compileMark(pattern);
        } catch {
          return () => true;
        }
        tests.push({ test: (text) => regex.test(text), places });
      }
      // A newsletter stays nobody's only while nothing in it is a customer's: any change may name it.
      // A customer's name written in a message contradicts a decision for another (checkedAgainstOwnPart): a
      // name added, changed or taken away reaches the messages that hold it.
      const names = [before, after].flatMap((entry) => (entry === undefined ? [] : [plainNameOf(entry.label).toLowerCase().replace(/\s+/g, ' ')]));
      const renamed = before?.label !== after?.label ? names.filter((name) => name.length > 0) : [];
      const namesIt = (fields: MessageFields) =>
        renamed.length > 0 && [fields.subject, fields.body].some((text) => renamed.some((name) => text.toLowerCase().replace(/\s+/g, ' ').includes(name)));
      const holdsDigit = (fields: MessageFields) => referencesChanged && MESSAGE_FIELDS.some((place) => /[0-9]/.test(fields[place]));
      return ({ fields, nobodys: automatic, unlessNamed }) =>
        (automatic !== undefined && (nobodys || unlessNamed === true)) ||
        holdsDigit(fields) ||
        namesIt(fields) ||
        tests.some(({ test, places }) => places.some((place) => test(fields[place])));
    },
  };
}

function marksOf(entry: Learnable<any> | undefined): readonly Mark[] {
  if (entry === undefined) return [];
  if (entry instanceof CustomerMarks) return entry.marks;
  throw new Error(`"${entry.key}" is not a customer with marks; the email agent reads only CustomerMarks.`);
}
