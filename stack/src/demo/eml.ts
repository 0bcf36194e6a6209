// RFC 822 / MIME messages for the scenario, written by hand so every byte is deterministic.

export interface Mailbox {
  readonly name: string;
  readonly address: string;
}

export interface MailAttachment {
  readonly filename: string;
  readonly mediaType: string;
  readonly content: Buffer;
}

export interface MailSpec {
  readonly from: Mailbox;
  readonly to: Mailbox;
  readonly subject: string;
  /** The instant it was sent, and the sender's UTC offset in minutes (for the Date header). */
  readonly date: Date;
  readonly offsetMinutes: number;
  readonly messageId: string;
  readonly text: string;
  /** With an HTML version too: multipart/alternative. */
  readonly html?: string;
  readonly attachments?: readonly MailAttachment[];
  /** The relay the Received header names. */
  readonly relay: string;
  readonly crlf?: boolean;
  readonly inReplyTo?: string;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** `Mon, 05 Oct 2026 09:14:22 +0100`: the local time at the sender, with its offset. */
export function rfc822Date(date: Date, offsetMinutes: number): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${DAYS[local.getUTCDay()]}, ${two(local.getUTCDate())} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()} ` +
    `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())} ${sign}${two(Math.floor(abs / 60))}${two(abs % 60)}`
  );
}

const isAscii = (text: string) => /^[\x20-\x7e\t\n]*$/.test(text);

/** An RFC 2047 encoded-word for a header phrase that is not plain ASCII. */
export function encodeWord(text: string): string {
  if (isAscii(text)) return text;
  const bytes = Buffer.from(text, 'utf8');
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9!*+\-/]/.test(char) ? char : byte === 0x20 ? '_' : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `=?UTF-8?Q?${out}?=`;
}

function mailbox(box: Mailbox): string {
  const name = isAscii(box.name) ? (/[(),.:;<>@[\]"]/.test(box.name) ? `"${box.name}"` : box.name) : encodeWord(box.name);
  return `${name} <${box.address}>`;
}

/** Quoted-printable (RFC 2045) for UTF-8 text, soft-wrapped at 76 characters. */
export function quotedPrintable(text: string): string {
  const lines = text.split('\n');
  return lines
    .map((line) => {
      let encoded = '';
      for (const byte of Buffer.from(line, 'utf8')) {
        encoded +=
          byte === 0x3d || byte > 0x7e || (byte < 0x20 && byte !== 0x09) ? `=${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte);
      }
      if (/[ \t]$/.test(encoded))
        encoded = `${encoded.slice(0, -1)}=${encoded
          .charCodeAt(encoded.length - 1)
          .toString(16)
          .toUpperCase()
          .padStart(2, '0')}`;
      const wrapped: string[] = [];
      while (encoded.length > 76) {
        let cut = 75;
        // never split an =XX escape
        const softBreak = encoded.lastIndexOf('=', cut);
        if (softBreak > cut - 3) cut = softBreak;
        wrapped.push(`${encoded.slice(0, cut)}=`);
        encoded = encoded.slice(cut);
      }
      wrapped.push(encoded);
      return wrapped.join('\n');
    })
    .join('\n');
}

function base64Lines(content: Buffer): string {
  return (content.toString('base64').match(/.{1,76}/g) ?? []).join('\n');
}

function textPart(mediaType: 'text/plain' | 'text/html', text: string): string {
  if (isAscii(text)) return `Content-Type: ${mediaType}; charset=us-ascii\nContent-Transfer-Encoding: 7bit\n\n${text}`;
  return `Content-Type: ${mediaType}; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n${quotedPrintable(text)}`;
}

function attachmentPart(attachment: MailAttachment): string {
  return (
    `Content-Type: ${attachment.mediaType}; name="${attachment.filename}"\n` +
    `Content-Disposition: attachment; filename="${attachment.filename}"\n` +
    `Content-Transfer-Encoding: base64\n\n${base64Lines(attachment.content)}`
  );
}

function multipart(subtype: string, boundary: string, parts: readonly string[]): string {
  return `Content-Type: multipart/${subtype}; boundary="${boundary}"\n\n${parts.map((part) => `--${boundary}\n${part}\n`).join('')}--${boundary}--\n`;
}

/** A whole message: headers, then a text part, an alternative, or a mixed message with attachments. */
export function buildEml(spec: MailSpec): Buffer {
  const tag = spec.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
  const date = rfc822Date(spec.date, spec.offsetMinutes);
  const received = rfc822Date(new Date(spec.date.getTime() + 3000), spec.offsetMinutes);
  const headers = [
    `Return-Path: <${spec.from.address}>`,
    `Received: from ${spec.relay} by mail.warehouse.example with ESMTPS id ${tag.slice(0, 10)}\n\tfor <${spec.to.address}>; ${received}`,
    `From: ${mailbox(spec.from)}`,
    `To: ${mailbox(spec.to)}`,
    `Subject: ${encodeWord(spec.subject)}`,
    `Date: ${date}`,
    `Message-ID: <${spec.messageId}>`,
    ...(spec.inReplyTo ? [`In-Reply-To: <${spec.inReplyTo}>`] : []),
    'MIME-Version: 1.0',
  ];
  const text = textPart('text/plain', spec.text);
  const body = spec.html === undefined ? text : multipart('alternative', `=_alt_${tag}`, [text, textPart('text/html', spec.html)]);
  const attachments = spec.attachments ?? [];
  const content =
    attachments.length === 0
      ? body
      : multipart('mixed', `=_mixed_${tag}`, [body.startsWith('Content-Type: multipart') ? body.trimEnd() : body, ...attachments.map(attachmentPart)]);
  const prelude = attachments.length > 0 ? content.replace('\n\n', '\n\nThis is a multi-part message in MIME format.\n\n') : content;
  const whole = `${headers.join('\n')}\n${prelude.endsWith('\n') ? prelude : `${prelude}\n`}`;
  return Buffer.from(spec.crlf ? whole.replace(/\r?\n/g, '\r\n') : whole, 'utf8');
}

/** A one-page PDF that says what it stands for; enough to be an attachment, nothing to read. */
export function tinyPdf(title: string): Buffer {
  const safe = title.replace(/[()\\]/g, '');
  return Buffer.from(
    `%PDF-1.4\n% learnables scenario fixture, not a real document: ${safe}\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
}

/** The text of an HTML version of a plain body: paragraphs, nothing fancy. */
export function htmlOf(text: string): string {
  const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const paragraphs = text.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`);
  return `<html><body style="font-family: Arial, sans-serif">\n${paragraphs.join('\n')}\n</body></html>`;
}
