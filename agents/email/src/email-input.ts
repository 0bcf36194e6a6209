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
  /**
   * What the message's own headers say about what kind of mail it is and whether its sender was
   * authenticated, for the message model (message-model.ts). Optional: tasks journaled before it
   * (issue 35) have none and read as a person's mail, as they did.
   */
  readonly headerFacts?: EmailHeaderFacts;
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

/**
 * Header facts (issue 35), each as the header said it (trimmed, at most a few hundred characters):
 * the message model reads them, so what counts as automated can change without re-parsing.
 */
export interface EmailHeaderFacts {
  /** `Auto-Submitted` (RFC 3834), e.g. `auto-replied`, `auto-generated`; `no` is left out. */
  readonly autoSubmitted?: string;
  /** `Precedence`, e.g. `bulk`, `junk`, `auto_reply`, `list`. */
  readonly precedence?: string;
  /** The name of a header that marks an auto-reply or a bounce: `X-Autoreply`, `X-Autorespond`, `X-MS-Exchange-Message-Is-Ndr`. */
  readonly autoReplyHeader?: string;
  /** The `report-type` of a `multipart/report` (RFC 6522), e.g. `delivery-status` (RFC 3464). */
  readonly reportType?: string;
  /** A ticket system whose headers the message carries (`X-Zendesk-…`, `X-Freshdesk-…`): its name. */
  readonly ticketSystem?: string;
  /** The `Authentication-Results` values (RFC 8601), as the receiving servers wrote them; at most a few. */
  readonly authenticationResults?: readonly string[];
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
