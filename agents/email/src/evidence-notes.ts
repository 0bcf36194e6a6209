import type { Definition } from '@learnables/learnable';
import type { CustomerMarks } from './customer-marks.ts';
import { findCustomer, matchMarks } from './match-marks.ts';
import type { Verdict } from './match-marks.ts';
import type { MessageFields } from './message-fields.ts';
import type { MessageModel } from './message-model.ts';

/**
 * What a question says, in plain words, about the parts of a message that the evidence rule left
 * out of the decision (issue 35): automated mail, a sender whose domain failed authentication, a
 * forward by someone outside the warehouse, and marks found only in quoted or forwarded text. Only
 * for a message that asks: the extra pass of the marks over the whole message costs a question,
 * never a decision.
 */
export function evidenceNotes(model: MessageModel, customers: Definition<CustomerMarks>, margin: number): string[] {
  const notes: string[] = [];
  if (model.automated) {
    notes.push(`${model.kindBecause}: automated mail is no customer's own unless you teach me a mark for its sender (with "Only in mail from" set), so I ask.`);
  }
  if (model.unverified !== undefined) notes.push(`${model.unverified}.`);
  const forward = model.forward;
  if (forward !== undefined && !forward.internal) {
    notes.push(
      `This is forwarded by ${forward.by.address || 'someone'}, who is not one of the warehouse's own people, so the sender it quotes (${forward.original.address}) is not taken as its sender.`,
    );
  }
  if (!model.automated) {
    // The from is explained above; what else only the quoted or forwarded text holds.
    const shown: MessageFields = { ...model.all, from: model.own.from };
    if (shown.subject !== model.own.subject || shown.body !== model.own.body || shown.attachments !== model.own.attachments) {
      const wider = matchMarks(customers, shown, margin);
      if (wider.kind === 'settled') {
        const label = findCustomer(customers, wider.winner)?.label ?? wider.winner;
        const texts = [...new Set(wider.hits.map((hit) => quoted(hit.text)))].slice(0, 3).join(', ');
        notes.push(`${label}'s marks (${texts}) are found only in quoted or forwarded text, not in what the sender wrote, so they do not decide.`);
      }
    }
  }
  return notes;
}

/** What a question says of reference formats left out because another customer's reference fits them too (class 6). */
export function sharedFormatNotes(verdict: Verdict, customers: Definition<CustomerMarks>): string[] {
  const labelOf = (key: string) => findCustomer(customers, key)?.label ?? key;
  const unconfirmed =
    verdict.kind === 'unmarked' && verdict.unconfirmed !== undefined
      ? [
          `${[...new Set(verdict.unconfirmed.hits.map((hit) => quoted(hit.text)))].slice(0, 2).join(', ')} has the shape of ${labelOf(verdict.unconfirmed.customer)}'s references, but nothing else says this message is theirs (its sender has never been taught as writing for them), so the shape alone does not decide.`,
        ]
      : [];
  return [
    ...unconfirmed,
    ...(verdict.shared ?? [])
      .slice(0, 3)
      .map(
        ({ hit, other, reference }) =>
          `${quoted(hit.text)} has the shape of ${labelOf(hit.customer)}'s references, but ${labelOf(other)}'s reference ${quoted(reference)} has it too, so the shape does not decide.`,
      ),
  ];
}

function quoted(text: string): string {
  const plain = text.replace(/^<|>$/g, '').replace(/\s+/g, ' ').trim();
  return plain.length > 60 ? `${plain.slice(0, 59)}…` : plain;
}
