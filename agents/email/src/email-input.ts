/**
 * An email as the agent reads it: plain JSON, because the runtime journals it and a resumed or
 * reread task gets it back from storage rather than from the original bytes.
 */
export interface EmailInput {
  /** The first mailbox of the From header; `address` is empty when the message names none. */
  readonly from: EmailSender;
  /** Empty when the message has no Subject. */
  readonly subject: string;
  /** The text part, or the HTML part turned into text when there is no text part. */
  readonly body: string;
  readonly attachments: readonly EmailAttachment[];
  /** The Date header as an ISO string, when it has one that parses. */
  readonly date?: string;
  readonly messageId?: string;
}

export interface EmailSender {
  readonly address: string;
  readonly name: string;
}

export interface EmailAttachment {
  readonly filename: string;
  readonly mediaType: string;
  /** Only for text-like attachments (text, CSV, JSON, forwarded messages). */
  readonly text?: string;
}
