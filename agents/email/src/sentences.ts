import type { MarkHit } from './match-marks.ts';
import type { MessageField } from './message-fields.ts';

/**
 * The agent's own words: the `how` of its declaration, what it reads, and what it asks. Kept in
 * one place so the sentence the card publishes and the behaviour it describes are read together.
 */

export function howSentence(margin: number): string {
  return (
    'Every customer mark whose pattern matches its part of the message (from, subject, body or attachments; ' +
    'a mark for any looks in all of them), ignoring case, scores one point for its customer, once; ' +
    // The evidence rule (issue 35, SPEC §2.3.7): message-model.ts, held clause by clause in email-agent.test.ts.
    "only the author's own part counts: the from is the sender's address alone (a forward's original sender " +
    "only when one of the warehouse's own people forwarded it; none when the sender's domain fails DMARC, SPF or DKIM; " +
    "nothing at all in mail forwarded by a sender whose domain imitates the forwarded message's, such as alder-chem.example.secure-invoice.invalid for alder-chem.example), " +
    "the body is the new text without quoted history, and the subject and a forwarded message count only when they are the author's " +
    "(not an automatic reply's, nor a reply's, which repeats the subject it answers, nor a forward by anyone else); " +
    "on automated mail (automatic replies, delivery reports, notices) only a mark with a sender condition, or a mark of mail that is no customer's, scores, " +
    "and an automatic reply or a delivery report that none matches is the entry for mail that is no customer's, when there is one (a notice asks), " +
    "as is, when nothing decides it, a look-alike's forward, mail whose domain fails DMARC and asks for it to be quarantined (as the warehouse's own server reports) and a newsletter that names no customer and no reference; " +
    // Issue 35, classes 5 and 6 (customer-finding.ts checkedAgainstOwnPart, match-marks.ts otherReferenceFitting).
    "a reference format alone decides only mail whose sender's domain bears its customer's name or was taught for it, and never once another customer's taught reference has its shape; " +
    'a decision a free-mail sender contradicts by naming another customer asks; ' +
    `the customer with the most points wins if it leads the next by at least ${points(margin)} (the margin); ` +
    'if no mark matches, or no customer leads by that much, I ask.'
  );
}

export const STILL_UNKNOWN = 'Still cannot tell whose this is.';

const SHOWN_HITS = 3;
const LONGEST_QUOTE = 60;
const PLACE_NAMES: Readonly<Record<MessageField, string>> = { from: '', subject: ' in the subject', body: ' in the body', attachments: ' in the attachments' };

/** "Reads as Northgate Motors Ltd, on billing@origin.example" — naming what decided it, and where. */
export function readsSettled(customerName: string, hits: readonly MarkHit[], because?: string): string {
  // Decided by no mark: an unmarked bounce or automatic reply, the entry's for nobody's mail.
  if (hits.length === 0 && because !== undefined)
    return `Reads as ${customerName}: ${because.charAt(0).toLowerCase()}${because.slice(1)}, and automated mail is no customer's unless a lesson says so`;
  const shown = hits.slice(0, SHOWN_HITS).map((hit) => `${quote(hit)}${PLACE_NAMES[hit.field]}`);
  const more = hits.length - shown.length;
  const evidence = more > 0 ? [...shown, `${more} more ${more === 1 ? 'mark' : 'marks'}`] : shown;
  return `Reads as ${customerName}, on ${listed(evidence, 'and')}`;
}

export function readsAnswered(customerName: string, answeredBy: string | undefined): string {
  return `${customerName}, as ${answeredBy ?? 'the operator'} answered`;
}

export function readsNone(answeredBy: string | undefined): string {
  return `No customer's, as ${answeredBy ?? 'the operator'} answered`;
}

/** Two or more contenders tie within the margin; one alone leads by less than it. */
export function readsClose(contenderNames: readonly string[], margin: number): string {
  if (contenderNames.length === 1) {
    return `Leans to ${contenderNames[0]}, but by less than the margin of ${points(margin)}.`;
  }
  return `Could be ${listed(contenderNames, 'or')}; the marks do not tell them apart.`;
}

export function questionFor(contenderNames: readonly string[]): string {
  if (contenderNames.length === 0) return 'Which customer does this message belong to?';
  const choices = contenderNames.length === 1 ? [...contenderNames, 'another'] : contenderNames;
  return `Which customer does this message belong to: ${listed(choices, 'or')}?`;
}

function quote(hit: MarkHit): string {
  const text = hit.text.replace(/^<|>$/g, '').replace(/\s+/g, ' ').trim() || hit.mark.pattern;
  return text.length > LONGEST_QUOTE ? `${text.slice(0, LONGEST_QUOTE - 1)}…` : text;
}

function listed(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

function points(count: number): string {
  return `${count} ${count === 1 ? 'point' : 'points'}`;
}
