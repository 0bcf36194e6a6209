import type { EmailInput, EmailSender } from './email-input.ts';

/**
 * Forwards, read as forwards. The clerk who forwards a customer's message is not its sender: the
 * sender is whoever the quoted header block names. Mail programs write that block in many shapes
 * and languages; this reads the common ones:
 *
 * - `---------- Forwarded message ---------` (Gmail), `Begin forwarded message:` (Apple Mail),
 *   `-----Original Message-----` and the underscore rule (Outlook), and their translations;
 * - a sender line `From: Name <address>`, `From: Name [mailto:address]` (older Outlook),
 *   `From: address`, under a localized label (`Von:`, `De :`, `Da:`, `Van:`, `Från:` …);
 * - a forward under a subject the clerk wrote herself: no `Fwd:`, but a header block on top.
 *
 * Only the first few kilobytes of a body are searched, and only line by line, so a hostile body
 * costs what its head costs.
 */

/** How far into a body a quoted header block is looked for. */
const SEARCHED = 64 * 1024;
export const FORWARD_SEARCHED = SEARCHED;
/** How many lines after a sender line may still belong to its header block. */
const BLOCK_LINES = 6;

/** `Fwd:`, `FW:`, `WG:` (German), `TR:` (French), `RV:` / `RV` (Spanish), `I:` (Italian), `VS:` / `VB:` (Nordic/Dutch) … */
const FORWARD_PREFIX = /^(?:fwd?|fw|wg|tr|rv|i|inoltro|enc|vs|vb|doorst|pd|přeposlat|fs)$/i;
/** Reply prefixes may stand before a forward prefix (`AW: WG: …`): a reply to a forward. */
const ANY_PREFIX = /^\s*([\p{L}]{1,10})\s?:\s*/u;

/** Lines that open a forwarded or quoted message, in the languages mail programs write them. */
const SEPARATOR =
  /^[>\s]*(?:-{2,}\s*(?:forwarded message|original message|ursprüngliche nachricht|weitergeleitete nachricht|message transféré|message d'origine|messaggio originale|messaggio inoltrato|mensaje original|mensaje reenviado|oorspronkelijk bericht|doorgestuurd bericht|originalmeddelande|vidarebefordrat meddelande)\s*-{2,}|begin forwarded message:|début du message réexpédié\s*:|inizio messaggio inoltrato:|anfang der weitergeleiteten nachricht:|_{10,})\s*$/iu;

/** Phrases that say a forward follows even without a separator line. */
const FORWARD_SEPARATOR = /forwarded|weitergeleitet|transféré|réexpédié|inoltrat|reenviado|doorgestuurd|vidarebefordrat/iu;

/** The sender line's label, e.g. `From:`, `Von:`, `De :`, `Da:`. `*From:*` is Outlook's bold in plain text. */
const SENDER_LABEL = /^[>\s]*\**(?:from|von|de|da|van|från|fra|od|remitente|absender)\s?\**\s?:\**\s*(.*)$/iu;
/** Any other line a header block carries. */
const OTHER_LABEL =
  /^[>\s]*\**(?:sent|date|to|cc|subject|gesendet|datum|an|betreff|envoyé|date|à|objet|inviato|data|a|oggetto|enviado(?: el)?|fecha|para|asunto|verzonden|aan|onderwerp|skickat|till|ämne|sendt|til|emne)\s?\**\s?:/iu;

const ADDRESS = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/u;

/** A quoted header block: the lines it spans, and the sender it names (if it names an address). */
export interface QuotedHeaderBlock {
  /** Index of the block's first line, the separator's when it has one. */
  readonly firstLine: number;
  /** Index just past the block's last header line. */
  readonly endLine: number;
  readonly sender?: EmailSender;
}

/** Whether the subject's prefixes say the message was forwarded (`Fwd:`, `WG:`, `AW: TR:` …). */
export function hasForwardPrefix(subject: string): boolean {
  let rest = subject;
  for (let i = 0; i < 6; i += 1) {
    const prefix = ANY_PREFIX.exec(rest);
    if (prefix === null) return false;
    if (FORWARD_PREFIX.test(prefix[1] ?? '')) return true;
    rest = rest.slice(prefix[0].length);
  }
  return false;
}

/**
 * Every quoted header block in a text, top first. A block is a sender line followed closely by
 * another header line (`Sent:`, `Betreff:` …), or a sender line right after a separator; a lone
 * `From:` line counts only where the message already says it is a forward (`loneSenderLine`).
 */
export function quotedHeaderBlocks(text: string, loneSenderLine = false, headLines?: readonly string[]): QuotedHeaderBlock[] {
  // `headLines`: the caller's own split of the text's first SEARCHED characters, so it is split once.
  const lines = headLines ?? text.slice(0, SEARCHED).split(/\r?\n/);
  const blocks: QuotedHeaderBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const sender = SENDER_LABEL.exec(lines[i] ?? '');
    if (sender === null) continue;
    let end = i + 1;
    let labelled = false;
    while (end < lines.length && end <= i + BLOCK_LINES && OTHER_LABEL.test(lines[end] ?? '')) {
      labelled = true;
      end += 1;
    }
    // Outlook puts the date line before the sender now and then; a label just above counts too.
    const labelAbove = i > 0 && OTHER_LABEL.test(lines[i - 1] ?? '');
    const separatorAbove = previousNonBlank(lines, i);
    const afterSeparator = separatorAbove !== undefined && SEPARATOR.test(lines[separatorAbove] ?? '');
    if (!labelled && !labelAbove && !afterSeparator && !loneSenderLine) continue;
    const first = afterSeparator ? separatorAbove : labelAbove ? i - 1 : i;
    const found = senderOf(sender[1] ?? '');
    blocks.push({ firstLine: first, endLine: end, ...(found === undefined ? {} : { sender: found }) });
    i = end - 1;
  }
  return blocks;
}

/** The separator lines themselves (`-----Original Message-----`), whether or not a block follows. */
export function isSeparatorLine(line: string): boolean {
  return SEPARATOR.test(line);
}

/**
 * The sender of the message this one forwards, or undefined when it is not a forward or names no
 * address. A forward is one whose subject says so, or whose body opens a forward with a
 * separator, or carries a header block on top under a subject with no reply prefix (a forward
 * under a subject the clerk wrote). Of the blocks, the first whose sender is not at the
 * forwarder's own domain wins (a colleague's forward of a customer's message leads to the
 * customer); failing that, the first that names anyone else.
 */
export function forwardedSender(input: EmailInput): EmailSender | undefined {
  return forwardOf(input)?.sender;
}

/** A forward as the message model reads it: the original sender, and where its quoted header block is. */
export interface Forward {
  readonly sender: EmailSender;
  /** The block that names the original sender: in the body, or in a forwarded attachment's text. */
  readonly block: QuotedHeaderBlock;
  /** Which attachment holds the forward, when it came as a `message/rfc822` attachment. */
  readonly attachment?: number;
}

/**
 * `forwardedSender`, with where its block is (see there). `headLines`: the body's first
 * `FORWARD_SEARCHED` characters split in lines, when the caller has them (the message model).
 */
export function forwardOf(input: EmailInput, headLines?: readonly string[]): Forward | undefined {
  const subjectSays = hasForwardPrefix(input.subject);
  const reply = /^\s*(?:re|aw|sv|r|rif|antw|odp|vs)\s?:/i.test(input.subject) && !subjectSays;
  const lines = headLines ?? input.body.slice(0, SEARCHED).split(/\r?\n/);
  const bodySays = lines.some((line) => SEPARATOR.test(line) && FORWARD_SEPARATOR.test(line));
  let blocks = quotedHeaderBlocks(input.body, subjectSays || bodySays, lines);
  let attachment: number | undefined;
  if (blocks.length === 0) {
    // A message forwarded as an attachment: the attachment's text opens with its own `From:` line.
    for (const [index, file] of input.attachments.entries()) {
      if (file.mediaType === 'message/rfc822' && file.text !== undefined) {
        blocks = quotedHeaderBlocks(file.text, true);
        if (blocks.length > 0) {
          attachment = index;
          break;
        }
      }
    }
  }
  if (blocks.length === 0) return undefined;
  if (!subjectSays && !bodySays && reply) return undefined;
  if (!subjectSays && !bodySays && !startsNearTop(input.body, blocks[0]!)) return undefined;
  const own = input.from.address.toLowerCase();
  const ownDomain = domainOf(own);
  const others = blocks.filter((block) => block.sender !== undefined && block.sender.address.toLowerCase() !== own);
  const chosen = others.find((block) => domainOf(block.sender!.address.toLowerCase()) !== ownDomain) ?? others[0];
  if (chosen === undefined) return undefined;
  return { sender: chosen.sender!, block: chosen, ...(attachment === undefined ? {} : { attachment }) };
}

/** A block within the first few lines of the body: the clerk's note is short. */
function startsNearTop(body: string, block: QuotedHeaderBlock): boolean {
  const before = body.split(/\r?\n/, block.firstLine).filter((line) => line.trim() !== '');
  return before.length <= 8;
}

function senderOf(text: string): EmailSender | undefined {
  const mailto = /\[mailto:([^\]\s]+)\]/i.exec(text);
  const angled = /<(?:mailto:)?([^<>\s]+@[^<>\s]+)>/i.exec(text);
  const bare = ADDRESS.exec(text);
  const address = (mailto?.[1] ?? angled?.[1] ?? bare?.[0] ?? '').replace(/[.,;]+$/, '');
  if (!ADDRESS.test(address)) return undefined;
  const cut = [mailto?.index, angled?.index, bare?.index].filter((index): index is number => index !== undefined);
  const name = text
    .slice(0, Math.min(...cut))
    .replace(/["'*]/g, '')
    .trim();
  return { address: address.toLowerCase(), name };
}

function previousNonBlank(lines: readonly string[], index: number): number | undefined {
  for (let i = index - 1; i >= 0 && i >= index - 3; i -= 1) {
    if ((lines[i] ?? '').replace(/^[>\s]*/, '') !== '') return i;
  }
  return undefined;
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}
