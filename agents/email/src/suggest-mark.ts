import { CustomerMarks, compileMark } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import type { EmailInput } from './email-input.ts';
import { referencePattern, senderPattern } from './mark-patterns.ts';
import { messageFields } from './message-fields.ts';
import type { MessageField } from './message-fields.ts';
import { findReferences } from './references.ts';

/** Where references are looked for when a message has no sender, in order. */
const REFERENCE_FIELDS = ['subject', 'body', 'attachments'] as const;

/** A subject that says the message was forwarded: `Fwd:`, `FW:`, `Fw:` … */
const FORWARDED_SUBJECT = /^\s*(?:re:\s*)*(?:fwd?|fw)\s*:/i;

/** The original sender's line inside a forwarded message: `From: Name <address>`. */
const ORIGINAL_SENDER = /^[>\s]*From:\s*[^\n<]*<([^<>\s@]+@[^<>\s@]+)>/gim;

/**
 * The mark to offer with the question, never wider than its evidence (SPEC §2.3): this sender's
 * exact address in the from; failing that, the first reference, exactly, where it was found.
 * Each candidate must be one CustomerMarks accepts and must match the message it came from.
 *
 * A forwarded message is the exception: its sender is whoever forwarded it (a clerk who forwards
 * for every customer), so a mark on that address would claim every forward. Its suggestion is the
 * original sender's address where the forward quotes it, then a reference — never the forwarder.
 */
export function suggestMark(input: EmailInput): Mark | undefined {
  const fields = messageFields(input);
  const candidates: { pattern: string; where: MessageField }[] = [];
  const forwarded = FORWARDED_SUBJECT.test(input.subject);
  if (forwarded) {
    for (const where of ['body', 'attachments'] as const) {
      for (const [, address] of fields[where].matchAll(ORIGINAL_SENDER)) {
        if (address && address.toLowerCase() !== input.from.address.toLowerCase()) candidates.push({ pattern: senderPattern(address), where });
      }
    }
  } else if (input.from.address !== '') {
    candidates.push({ pattern: senderPattern(input.from.address), where: 'from' });
  }
  for (const where of REFERENCE_FIELDS) {
    for (const reference of findReferences(fields[where])) candidates.push({ pattern: referencePattern(reference), where });
  }
  return candidates.find((mark) => isAccepted(mark) && compileMark(mark.pattern).test(fields[mark.where]));
}

const probe = new CustomerMarks('suggestion', 'suggestion');

function isAccepted(mark: Mark): boolean {
  try {
    probe.learn({ pattern: mark.pattern, where: mark.where });
    return true;
  } catch {
    return false;
  }
}
