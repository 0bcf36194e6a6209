import { CustomerMarks, compileMark } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import type { EmailInput } from './email-input.ts';
import { referencePattern, senderPattern } from './mark-patterns.ts';
import { messageFields } from './message-fields.ts';
import type { MessageField } from './message-fields.ts';
import { findReferences } from './references.ts';

/** Where references are looked for when a message has no sender, in order. */
const REFERENCE_FIELDS = ['subject', 'body', 'attachments'] as const;

/**
 * The mark to offer with the question, never wider than its evidence (SPEC §2.3): this sender's
 * exact address in the from; failing that, the first reference, exactly, where it was found.
 * Each candidate must be one CustomerMarks accepts and must match the message it came from.
 */
export function suggestMark(input: EmailInput): Mark | undefined {
  const fields = messageFields(input);
  const candidates: { pattern: string; where: MessageField }[] = [];
  if (input.from.address !== '') candidates.push({ pattern: senderPattern(input.from.address), where: 'from' });
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
