import type { EmailInput, EmailSender } from './email-input.ts';
import { forwardedSender } from './forwards.ts';

/** The parts of a message a mark looks in; a mark whose `where` is `any` looks in all of them. */
export const MESSAGE_FIELDS = ['from', 'subject', 'body', 'attachments'] as const;
export type MessageField = (typeof MESSAGE_FIELDS)[number];

/** The text of each part, as marks see it. */
export type MessageFields = Readonly<Record<MessageField, string>>;

/**
 * `Name <address>`, or `<address>` when there is no name. Angle brackets are taken out of the
 * name, so a display name cannot pose as an address: `<address>` only ever holds the real one.
 */
export function senderLine(from: EmailSender): string {
  const name = from.name.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim();
  const address = from.address === '' ? '' : `<${from.address}>`;
  return [name, address].filter((part) => part !== '').join(' ');
}

/**
 * The text of each part, as marks see it. For a forward, `from` is the original sender the
 * forward quotes, never the clerk or desk that forwarded it (who forwards for every customer).
 */
export function messageFields(input: EmailInput): MessageFields {
  return messageFieldsWith(input, forwardedSender(input));
}

/**
 * `messageFields`, given what `forwardedSender(input)` says, for a caller that needs the original
 * sender too: finding it reads the body's head line by line, and a question needs it twice.
 */
export function messageFieldsWith(input: EmailInput, forwarded: EmailSender | undefined): MessageFields {
  const attachments = input.attachments.flatMap((attachment) =>
    attachment.text === undefined ? [attachment.filename] : [attachment.filename, attachment.text],
  );
  return {
    from: senderLine(forwarded ?? input.from),
    subject: input.subject,
    body: input.body,
    attachments: attachments.join('\n'),
  };
}
