import { Buffer } from 'node:buffer';
import { simpleParser } from 'mailparser';
import type { Attachment, EmailAddress, HeaderValue, ParsedMail, SimpleParserOptions, StructuredHeader } from 'mailparser';
import RE2 from 're2';
import { InputRefused } from '@learnables/learnable';
import { plausibleMessageDate } from '@learnables/protocol';
import { capText, decodeText, isTextLike } from './attachment-text.ts';
import type { EmailAttachment, EmailHeaderFacts, EmailInput, EmailSender, EmailSenderFacts } from './email-input.ts';
import { messageFields } from './message-fields.ts';
import { wellFormedStrings } from './well-formed.ts';

/** The largest message read; a 25 MB mailbox limit plus room for headers and encoding. */
/** Room for a 25 MB attachment, which MIME's base64 grows to about 34 MB. */
export const LARGEST_EMAIL = 40 * 1024 * 1024;
/** Forwarded messages inside forwarded messages are read this deep, and no deeper. */
const DEEPEST_FORWARD = 3;
/** MIME parts read in one message, the parts of every message forwarded in it included. */
const MOST_PARTS = 1000;
const TOO_MANY_PARTS = `This email has more than ${MOST_PARTS.toLocaleString('en-US')} parts; I read at most ${MOST_PARTS.toLocaleString('en-US')}.`;
const TOO_MANY_FORWARDED_PARTS = `This email has more than ${MOST_PARTS.toLocaleString('en-US')} parts, counting those of the messages forwarded in it; I read at most ${MOST_PARTS.toLocaleString('en-US')} in all.`;

/**
 * One budget of parts for a whole message. mailparser counts the parts of each message it parses,
 * and a forward is parsed on its own, so without this every forward had a thousand of its own
 * (821 forwards of 990 parts: 93 s, 3.3 GB). A forward is charged before it is parsed, by the
 * lines in it that can open a part (`--boundary`), which is never fewer than the parts it has.
 */
class PartBudget {
  private left = MOST_PARTS;

  /** Parts already parsed and counted (the message's own, which mailparser held to the limit). */
  spend(parts: number): void {
    this.left -= parts;
  }

  /** A forward, before it is parsed. */
  charge(bytes: Buffer): void {
    this.left -= partsAtMost(bytes);
    if (this.left < 0) throw new InputRefused(TOO_MANY_FORWARDED_PARTS);
  }
}

/** The message itself, plus one for every line that starts with `--`: every further part follows one. */
function partsAtMost(bytes: Buffer): number {
  let parts = bytes.subarray(0, 2).toString('latin1') === '--' ? 2 : 1;
  for (let at = bytes.indexOf('\n--'); at >= 0; at = bytes.indexOf('\n--', at + 3)) parts++;
  return parts;
}

const OPTIONS: SimpleParserOptions = {
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  keepCidLinks: true,
  checksumAlgo: false,
  // Longer HTML is not converted by mailparser (its converter is not linear); we strip its tags.
  maxHtmlLengthToParse: 2_000_000,
};

/**
 * Read an RFC 822 message into an EmailInput, or refuse it with InputRefused and a sentence for
 * the operator: empty, too large, broken, or not an email at all.
 */
export async function parseEmail(raw: Uint8Array | string): Promise<EmailInput> {
  const size = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.byteLength;
  if (size > LARGEST_EMAIL) {
    throw new InputRefused(`This email is ${megabytes(size)}; the largest I read is ${megabytes(LARGEST_EMAIL)}.`);
  }
  const bytes = typeof raw === 'string' ? Buffer.from(raw) : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (isBlank(bytes)) throw new InputRefused('This email is empty: there is nothing in it to read.');
  const mail = await parseMime(bytes);
  refuseUnusedBoundary(mail, bytes);
  const budget = new PartBudget();
  // The message's own parts: at least itself and each attachment (its forwards among them).
  budget.spend(1 + mail.attachments.length);
  const email = await emailOf(mail, 0, budget);
  if (email.from.address === '' && email.subject === '') {
    const hasText = email.body.trim() !== '' || email.attachments.length > 0;
    throw new InputRefused(
      hasText
        ? 'This does not look like an email: it has no sender and no subject.'
        : 'This does not look like an email: it has no sender, no subject and no text.',
    );
  }
  // Well formed for RE2 (well-formed.ts): a broken charset can leave half a surrogate pair.
  return wellFormedStrings(email);
}

/** mailparser's limits, in words an operator can act on. */
const PARSER_LIMITS: readonly [RegExp, string][] = [
  [/child nodes exceeded/i, TOO_MANY_PARTS],
  [/header size/i, 'This email has a header block larger than 1 MB, which no ordinary email has, so I do not read it.'],
];

async function parseMime(bytes: Buffer): Promise<ParsedMail> {
  try {
    return await simpleParser(bytes, { ...OPTIONS, maxChildNodes: MOST_PARTS });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const limit = PARSER_LIMITS.find(([said]) => said.test(reason));
    throw new InputRefused(limit?.[1] ?? `This email could not be read: its structure is broken (${reason}).`);
  }
}

async function emailOf(mail: ParsedMail, depth: number, budget: PartBudget): Promise<EmailInput> {
  const date = dateOf(mail);
  const facts = headerFactsOf(mail);
  return {
    from: senderOf(mail),
    subject: (mail.subject ?? '').trim(),
    body: capText(bodyOf(mail)),
    attachments: await Promise.all(mail.attachments.map((attachment) => attachmentOf(attachment, depth, budget))),
    ...(date === undefined ? {} : { date }),
    ...(mail.messageId === undefined ? {} : { messageId: mail.messageId }),
    ...(facts === undefined ? {} : { headerFacts: facts }),
    ...senderFactsOf(mail),
  };
}

/** How much of a header value is kept: enough for every verdict, bounded for the journal. */
const LONGEST_FACT = 300;
const LONGEST_AUTHENTICATION = 2000;
const MOST_AUTHENTICATIONS = 4;

/** Header lines (unfolded values) by lower-case name, in the message's order. */
function headerValues(mail: ParsedMail, key: string, longest: number): string[] {
  return mail.headerLines
    .filter((header) => header.key === key)
    .map((header) =>
      header.line
        .slice(header.line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim()
        .slice(0, longest),
    );
}

/**
 * What the headers say about the kind of mail and its sender's authentication (issue 35), or
 * undefined when they say nothing: a person's mail journals exactly what it did before.
 */
function headerFactsOf(mail: ParsedMail): EmailHeaderFacts | undefined {
  const first = (key: string) => headerValues(mail, key, LONGEST_FACT)[0];
  const autoSubmitted = first('auto-submitted');
  const precedence = first('precedence');
  const autoReplyHeader = ['x-autoreply', 'x-autorespond', 'x-ms-exchange-message-is-ndr'].find((key) => first(key) !== undefined);
  const contentType = mail.headers.get('content-type');
  const reportType = isStructured(contentType) && contentType.value.toLowerCase() === 'multipart/report' ? contentType.params['report-type'] : undefined;
  const keys = mail.headerLines.map((header) => header.key);
  const mailer = (first('x-mailer') ?? '').toLowerCase();
  const ticketSystem =
    keys.some((key) => key.startsWith('x-zendesk-')) || mailer.includes('zendesk')
      ? 'Zendesk'
      : keys.some((key) => key.startsWith('x-freshdesk') || key === 'x-fd-email')
        ? 'Freshdesk'
        : undefined;
  const authenticationResults = headerValues(mail, 'authentication-results', LONGEST_AUTHENTICATION).slice(0, MOST_AUTHENTICATIONS);
  const facts: EmailHeaderFacts = {
    ...(autoSubmitted !== undefined && autoSubmitted.toLowerCase() !== 'no' && { autoSubmitted }),
    ...(precedence !== undefined && { precedence }),
    ...(autoReplyHeader !== undefined && { autoReplyHeader: HEADER_NAMES[autoReplyHeader] ?? autoReplyHeader }),
    ...(reportType !== undefined && { reportType: reportType.slice(0, LONGEST_FACT) }),
    ...(ticketSystem !== undefined && { ticketSystem }),
    ...(authenticationResults.length > 0 && { authenticationResults }),
  };
  return Object.keys(facts).length === 0 ? undefined : facts;
}

const HEADER_NAMES: Readonly<Record<string, string>> = {
  'x-autoreply': 'X-Autoreply',
  'x-autorespond': 'X-Autorespond',
  'x-ms-exchange-message-is-ndr': 'X-MS-Exchange-Message-Is-Ndr',
};

/** A header's value as it was written, unfolded, trimmed and bounded (`senderFacts`' fields). */
function headerText(mail: ParsedMail, key: string): string | undefined {
  const line = mail.headerLines.find((header) => header.key === key)?.line;
  return line === undefined
    ? undefined
    : line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim()
        .slice(0, 320);
}

/** What the headers say about who the sender is: a list or group posting for its members (issue 35). */
function senderFactsOf(mail: ParsedMail): { senderFacts?: EmailSenderFacts } {
  const listId = headerText(mail, 'list-id');
  const id = listId === undefined ? undefined : (/<([^<>]+)>/.exec(listId)?.[1] ?? listId).trim().toLowerCase();
  const post = headerText(mail, 'list-post');
  const postAddress = post === undefined ? undefined : /<mailto:([^<>?\s]+)/i.exec(post)?.[1]?.toLowerCase();
  const listHeaders = mail.headerLines.some((header) => /^list-(?:id|post|help|subscribe|unsubscribe|owner|archive)$/.test(header.key));
  const from = senderOf(mail).address.toLowerCase();
  const replyMailbox = (mail.replyTo?.value ?? []).flatMap((entry): EmailAddress[] => entry.group ?? [entry]).find((mailbox) => (mailbox.address ?? '') !== '');
  const replyTo =
    replyMailbox !== undefined && replyMailbox.address!.toLowerCase() !== from
      ? { address: replyMailbox.address!.slice(0, 320), name: (replyMailbox.name ?? '').slice(0, 320) }
      : undefined;
  const facts: EmailSenderFacts = {
    ...(id !== undefined && id !== '' && { listId: id }),
    ...(postAddress !== undefined && { listPost: postAddress }),
    ...(listHeaders && { listHeaders: true as const }),
    ...(replyTo !== undefined && { replyTo }),
  };
  return Object.keys(facts).length === 0 ? {} : { senderFacts: facts };
}

function senderOf(mail: ParsedMail): EmailSender {
  const mailboxes = (mail.from?.value ?? []).flatMap((entry): EmailAddress[] => entry.group ?? [entry]);
  const sender = mailboxes.find((mailbox) => (mailbox.address ?? '') !== '') ?? mailboxes[0];
  return { address: sender?.address ?? '', name: sender?.name ?? '' };
}

const TAG = new RE2('<[^>]*>', 'g');

function bodyOf(mail: ParsedMail): string {
  if (mail.textConversionError !== undefined && typeof mail.html === 'string') {
    return mail.html.replace(TAG, ' ').replace(/[ \t]+/g, ' ');
  }
  return mail.text ?? '';
}

/**
 * mailparser puts the current time in place of a Date it cannot read; we would rather have none. A
 * Date before 1970 or more than a year after the message arrived is none too (plausibleMessageDate):
 * the message counts on the day it arrived.
 */
function dateOf(mail: ParsedMail): string | undefined {
  const line = mail.headerLines.find((header) => header.key === 'date')?.line;
  if (line === undefined) return undefined;
  const date = new Date(
    line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim(),
  );
  return plausibleMessageDate(date.getTime()) ? date.toISOString() : undefined;
}

async function attachmentOf(attachment: Attachment, depth: number, budget: PartBudget): Promise<EmailAttachment> {
  const mediaType = attachment.contentType.toLowerCase();
  const filename = attachment.filename ?? (mediaType === 'message/rfc822' ? 'forwarded message.eml' : 'untitled');
  if (mediaType === 'message/rfc822') {
    const text = depth < DEEPEST_FORWARD ? await forwardedText(attachment.content, depth + 1, budget) : undefined;
    return text === undefined ? { filename, mediaType } : { filename, mediaType, text };
  }
  if (isTextLike(mediaType, filename)) {
    return { filename, mediaType, text: decodeText(attachment.content, charsetOf(attachment.headers.get('content-type'))) };
  }
  return { filename, mediaType };
}

/** A forwarded message as its sender, subject and date lines, its text, and its attachments'. */
async function forwardedText(content: Buffer, depth: number, budget: PartBudget): Promise<string | undefined> {
  budget.charge(content);
  let mail: ParsedMail;
  try {
    mail = await simpleParser(content, { ...OPTIONS, maxChildNodes: MOST_PARTS });
  } catch {
    // A forward we cannot read still leaves the message it came in readable.
    return undefined;
  }
  const email = await emailOf(mail, depth, budget);
  const fields = messageFields(email);
  const lines = [`From: ${fields.from}`, `Subject: ${email.subject}`, ...(email.date === undefined ? [] : [`Date: ${email.date}`])];
  return capText([lines.join('\n'), email.body, fields.attachments].filter((part) => part !== '').join('\n\n'));
}

function charsetOf(contentType: HeaderValue | undefined): string | undefined {
  return isStructured(contentType) ? contentType.params.charset : undefined;
}

function isStructured(value: HeaderValue | undefined): value is StructuredHeader {
  return typeof value === 'object' && value !== null && 'params' in value && 'value' in value;
}

/** A multipart message whose boundary never occurs has no readable part, whatever mailparser makes of it. */
function refuseUnusedBoundary(mail: ParsedMail, bytes: Buffer): void {
  const contentType = mail.headers.get('content-type');
  if (!isStructured(contentType) || !contentType.value.toLowerCase().startsWith('multipart/')) return;
  const boundary = contentType.params.boundary;
  if (boundary === undefined || boundary === '') return;
  if (bytes.includes(`--${boundary}`, headerEnd(bytes))) return;
  throw new InputRefused(
    `This email is broken: it says its parts are separated by "${boundary}", but that boundary never appears, so none of its parts can be read.`,
  );
}

function headerEnd(bytes: Buffer): number {
  const ends = [bytes.indexOf('\r\n\r\n'), bytes.indexOf('\n\n')].filter((index) => index >= 0);
  return ends.length === 0 ? bytes.length : Math.min(...ends);
}

function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  }
  return true;
}

function megabytes(size: number): string {
  const value = size / (1024 * 1024);
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
}
