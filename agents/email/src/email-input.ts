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
  /**
   * What the headers say about who the sender is (issue 35, class 5): a mailing list or group that
   * posts for its members, and the mailbox replies go to. Optional: tasks journaled before it have
   * none and read as they did.
   */
  readonly senderFacts?: EmailSenderFacts;
}

/** Sender facts (issue 35, class 5), each as its header said it, trimmed and at most 320 characters. */
export interface EmailSenderFacts {
  /** The id of `List-Id` (RFC 2919), inside its angle brackets: `ops.googlegroups.com`. */
  readonly listId?: string;
  /** The address of `List-Post` (RFC 2369), without `mailto:`. */
  readonly listPost?: string;
  /** Present when the message carries any RFC 2369 `List-*` header (`List-Unsubscribe`, …). */
  readonly listHeaders?: true;
  /** The first mailbox of `Reply-To`, when it is another than the sender's. */
  readonly replyTo?: EmailSender;
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
