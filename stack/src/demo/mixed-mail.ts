// How the mixed stream's messages are written down: each mail program's own header layout
// (Outlook/Exchange, Outlook for Android, Gmail, Apple Mail, iPhone, Thunderbird, HCL Notes), its
// way of quoting (Outlook's "From: … Sent: …" and "-----Original Message-----" blocks, Gmail's
// "On … wrote:" over `>` lines, Apple's quoted attribution, Thunderbird's bottom-posting, Notes'
// header table), in five languages; forwards in each program's layout; and the automated mail
// (RFC 3834 auto-replies, ticket acknowledgements, RFC 3464 delivery reports, list notices).
// A construction of its own: nothing here is shared with trap-mail.ts but the MIME encoding of eml.ts.
import type { Random } from '@learnables/testing';
import { between } from '@learnables/testing';
import type { MailAttachment, Mailbox } from './eml.ts';
import { encodeWord, htmlOf, quotedPrintable } from './eml.ts';
import type { Lang, MailClient, Zone } from './mixed-cast.ts';

const hex = (random: Random, n: number) => Array.from({ length: n }, () => between(random, 0, 15).toString(16)).join('');
const alnum = (random: Random, n: number) =>
  Array.from({ length: n }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[between(random, 0, 61)]).join('');
const two = (n: number) => String(n).padStart(2, '0');

export const offsetOf = (zone: Zone): number => (zone === 'uk' ? 0 : 60);
const local = (at: Date, zone: Zone) => new Date(at.getTime() + offsetOf(zone) * 60_000);

const DAYS: Record<Lang, readonly string[]> = {
  en: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  de: ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'],
  fr: ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'],
  nl: ['zondag', 'maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag'],
  es: ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'],
};
const MONTHS: Record<Lang, readonly string[]> = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  nl: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
};
const RFC_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const RFC_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function rfcDate(at: Date, zone: Zone): string {
  const d = local(at, zone);
  const off = offsetOf(zone);
  return `${RFC_DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${RFC_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +${two(off / 60)}00`;
}

/** A day as people write it in running text: "Tuesday 9 February", "Dienstag, 9. Februar". */
export function dayName(at: Date, lang: Lang): string {
  const d = local(at, 'cet');
  const day = DAYS[lang][d.getUTCDay()]!;
  const month = MONTHS[lang][d.getUTCMonth()]!;
  const n = d.getUTCDate();
  return lang === 'de' ? `${day}, ${n}. ${month}` : lang === 'en' ? `${day} ${n} ${month}` : `${day} ${n} ${month}`;
}

const hm = (d: Date) => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;

/** A message that is being quoted or forwarded: who wrote it, when, to whom, and its text. */
export interface Quoted {
  readonly from: Mailbox;
  readonly to: Mailbox;
  readonly subject: string;
  readonly at: Date;
  readonly text: string;
}

const angle = (box: Mailbox) => `${box.name} <${box.address}>`;
const prefixLines = (text: string, prefix: string) =>
  text
    .split('\n')
    .map((line) => (line === '' ? prefix.trimEnd() : `${prefix}${line}`))
    .join('\n');

/** Outlook's block above a quoted message, in the language of the program (and, `old`, the pre-2010 layout). */
function outlookBlock(q: Quoted, lang: Lang, old: boolean): string {
  const d = local(q.at, 'cet');
  const when = (l: Lang) =>
    `${DAYS[l][d.getUTCDay()]}${l === 'es' ? ',' : ''} ${d.getUTCDate()}${l === 'de' ? '.' : ''} ${l === 'es' ? 'de ' : ''}${MONTHS[l][d.getUTCMonth()]}${l === 'es' ? ' de' : ''} ${d.getUTCFullYear()} ${hm(d)}`;
  if (old) return `-----Original Message-----\nFrom: ${q.from.name} [mailto:${q.from.address}]\nSent: ${when('en')}\nTo: ${q.to.name}\nSubject: ${q.subject}`;
  const labels: Record<Lang, [string, string, string, string]> = {
    en: ['From:', 'Sent:', 'To:', 'Subject:'],
    de: ['Von:', 'Gesendet:', 'An:', 'Betreff:'],
    nl: ['Van:', 'Verzonden:', 'Aan:', 'Onderwerp:'],
    fr: ['De :', 'Envoyé :', 'À :', 'Objet :'],
    es: ['De:', 'Enviado el:', 'Para:', 'Asunto:'],
  };
  const [f, s, t, o] = labels[lang];
  return `________________________________\n${f} ${angle(q.from)}\n${s} ${when(lang)}\n${t} ${angle(q.to)}\n${o} ${q.subject}`;
}

/** The "On … wrote:" line of Gmail, in its languages. */
function gmailAttribution(q: Quoted, lang: Lang): string {
  const d = local(q.at, 'cet');
  const day3 = DAYS[lang][d.getUTCDay()]!.slice(0, lang === 'en' ? 3 : 2);
  const mon3 = MONTHS[lang][d.getUTCMonth()]!.slice(0, 3);
  const y = d.getUTCFullYear();
  const n = d.getUTCDate();
  switch (lang) {
    case 'de':
      return `Am ${day3}., ${n}. ${mon3}. ${y} um ${hm(d)} Uhr schrieb ${angle(q.from)}:`;
    case 'nl':
      return `Op ${day3} ${n} ${mon3} ${y} om ${hm(d)} schreef ${angle(q.from)}:`;
    case 'es':
      return `El ${DAYS.es[d.getUTCDay()]!.slice(0, 3)}, ${n} ${mon3} ${y} a las ${hm(d)}, ${q.from.name} (<${q.from.address}>) escribió:`;
    case 'fr':
      return `Le ${DAYS.fr[d.getUTCDay()]!.slice(0, 3)}. ${n} ${mon3}. ${y} à ${hm(d)}, ${angle(q.from)} a écrit :`;
    default:
      return `On ${day3}, ${n} ${mon3} ${y} at ${hm(d)}, ${angle(q.from)} wrote:`;
  }
}

function thunderbirdAttribution(q: Quoted, lang: Lang): string {
  const d = local(q.at, 'cet');
  const dmy = `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${String(d.getUTCFullYear()).slice(2)}`;
  switch (lang) {
    case 'de':
      return `Am ${dmy} um ${hm(d)} schrieb ${q.from.name}:`;
    case 'nl':
      return `Op ${dmy.replace(/\./g, '-')} om ${hm(d)} schreef ${q.from.name}:`;
    case 'fr':
      return `Le ${dmy.replace(/\./g, '/')} à ${hm(d)}, ${q.from.name} a écrit :`;
    case 'es':
      return `El ${dmy.replace(/\./g, '/')} a las ${hm(d)}, ${q.from.name} escribió:`;
    default:
      return `On ${dmy.replace(/\./g, '/')} ${hm(d)}, ${q.from.name} wrote:`;
  }
}

function notesBlock(q: Quoted, lang: Lang): string {
  const d = local(q.at, 'cet');
  const when = `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${hm(d)}`;
  const [f, t, w, s] =
    lang === 'de' ? ['Von:', 'An:', 'Datum:', 'Betreff:'] : lang === 'nl' ? ['Van:', 'Aan:', 'Datum:', 'Onderwerp:'] : ['From:', 'To:', 'Date:', 'Subject:'];
  return `${f}\t"${q.from.name}" <${q.from.address}>\n${t}\t${q.to.address}\n${w}\t${when}\n${s}\t${q.subject}`;
}

/** A reply's body: the new text and the quoted message, placed and marked as `client` does. */
export function replyBody(client: MailClient, lang: Lang, text: string, q: Quoted, random: Random): string {
  switch (client) {
    case 'outlook':
    case 'outlook-mobile':
      return `${text}\n\n${outlookBlock(q, lang, random() < 0.3)}\n\n${q.text}`;
    case 'gmail':
      return `${text}\n\n${gmailAttribution(q, lang)}\n\n${prefixLines(q.text, '> ')}`;
    case 'apple':
    case 'iphone': {
      const d = local(q.at, 'cet');
      const attribution = `On ${d.getUTCDate()} ${RFC_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, at ${hm(d)}, ${angle(q.from)} wrote:`;
      return `${text}\n\n> ${attribution}\n> \n${prefixLines(q.text, '> ')}`;
    }
    case 'thunderbird':
      // Bottom-posted: the quote first, the new text under it.
      return `${thunderbirdAttribution(q, lang)}\n${prefixLines(q.text, '> ')}\n\n${text}`;
    case 'notes':
      return `${text}\n\n\n\n${notesBlock(q, lang)}\n\n\n\n${q.text}`;
  }
}

/** A forward's body: the forwarder's note, then the original as `client` lays a forward out. */
export function forwardBody(client: MailClient, lang: Lang, note: string, q: Quoted, forwarder: Mailbox, at: Date): string {
  const d = local(q.at, 'cet');
  switch (client) {
    case 'outlook':
    case 'outlook-mobile':
      return `${note}\n\n${outlookBlock(q, lang, false)}\n\n${q.text}`;
    case 'gmail': {
      const title =
        lang === 'es'
          ? '---------- Mensaje reenviado ---------'
          : lang === 'de'
            ? '---------- Weitergeleitete Nachricht ---------'
            : '---------- Forwarded message ---------';
      const from = lang === 'es' ? 'De' : lang === 'de' ? 'Von' : 'From';
      return `${note}\n\n${title}\n${from}: ${q.from.name} <${q.from.address}>\nDate: ${rfcDate(q.at, 'cet')}\nSubject: ${q.subject}\nTo: <${q.to.address}>\n\n\n${q.text}`;
    }
    case 'apple':
    case 'iphone':
      return `${note}\n\nSent from my iPhone\n\nBegin forwarded message:\n\n> From: ${angle(q.from)}\n> Subject: ${q.subject}\n> Date: ${d.getUTCDate()} ${MONTHS.en[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${hm(d)}:${two(d.getUTCSeconds())} CET\n> To: ${q.to.address}\n> \n${prefixLines(q.text, '> ')}`;
    case 'thunderbird': {
      const [title, subj, date, from, to] =
        lang === 'fr'
          ? ['-------- Message transféré --------', 'Sujet :', 'Date :', 'De :', 'Pour :']
          : lang === 'de'
            ? ['-------- Weitergeleitete Nachricht --------', 'Betreff:', 'Datum:', 'Von:', 'An:']
            : ['-------- Forwarded Message --------', 'Subject:', 'Date:', 'From:', 'To:'];
      return `${note}\n\n\n${title}\n${subj} \t${q.subject}\n${date} \t${rfcDate(q.at, 'cet')}\n${from} \t${angle(q.from)}\n${to} \t${q.to.address}\n\n\n\n${q.text}`;
    }
    case 'notes': {
      const f = local(at, 'cet');
      const stamp = `${two(f.getUTCDate())}.${two(f.getUTCMonth() + 1)}.${f.getUTCFullYear()} ${hm(f)}`;
      const who = `${forwarder.name}/PGW/Warehouse`;
      const line = lang === 'de' ? `----- Weitergeleitet von ${who} am ${stamp} -----` : `----- Forwarded by ${who} on ${stamp} -----`;
      return `${note}\n\n${line}\n\n${notesBlock(q, lang)}\n\n\n\n${q.text}`;
    }
  }
}

/** The line a mobile program adds under the new text. */
export function mobileFooter(client: MailClient, lang: Lang): string {
  if (client === 'iphone')
    return {
      en: 'Sent from my iPhone',
      de: 'Von meinem iPhone gesendet',
      fr: 'Envoyé de mon iPhone',
      nl: 'Verstuurd vanaf mijn iPhone',
      es: 'Enviado desde mi iPhone',
    }[lang];
  if (client === 'outlook-mobile')
    return {
      en: 'Get Outlook for Android',
      de: 'Outlook für Android herunterladen',
      fr: 'Télécharger Outlook pour Android',
      nl: 'Outlook voor Android downloaden',
      es: 'Obtener Outlook para Android',
    }[lang];
  return '';
}

export type Body =
  | { readonly kind: 'text'; readonly text: string; readonly html?: boolean; readonly flowed?: boolean; readonly attachments?: readonly MailAttachment[] }
  | { readonly kind: 'report'; readonly text: string; readonly status: string; readonly original: string; readonly headersOnly?: boolean };

export interface Headers {
  readonly lines: readonly string[];
}

const phrase = (box: Mailbox) => {
  const name = /[^\x20-\x7e]/.test(box.name) ? encodeWord(box.name) : /[(),.:;<>@[\]"]/.test(box.name) ? `"${box.name.replace(/"/g, '\\"')}"` : box.name;
  return name === '' ? `<${box.address}>` : `${name} <${box.address}>`;
};

/** What every message has, whatever wrote it. */
export interface Envelope {
  readonly from: Mailbox;
  readonly to: Mailbox;
  readonly subject: string;
  readonly at: Date;
  readonly zone: Zone;
  readonly messageId: string;
  readonly inReplyTo?: string;
  /** The envelope sender (Return-Path), when not the From. */
  readonly returnPath?: string;
  /** Headers the sender's system adds (Auto-Submitted, List-*, Reply-To, …), in order. */
  readonly extra?: readonly string[];
  /** The relay the warehouse's server received it from. */
  readonly relay: string;
}

/** A Message-ID as `client` makes them. */
export function messageIdFor(client: MailClient | 'system', address: string, random: Random): string {
  const domain = address.slice(address.indexOf('@') + 1);
  switch (client) {
    case 'outlook':
    case 'outlook-mobile':
      return `${['AM0PR04MB', 'DB9PR02MB', 'VI1PR08MB'][between(random, 0, 2)]}${between(random, 1000, 9999)}${hex(random, 12).toUpperCase()}@${['AM0PR04MB', 'DB9PR02MB'][between(random, 0, 1)]}${between(random, 1000, 9999)}.eurprd04.prod.outlook.com`;
    case 'gmail':
      return `CA+${alnum(random, 40)}@mail.gmail.com`;
    case 'apple':
    case 'iphone':
      return `${hex(random, 8).toUpperCase()}-${hex(random, 4).toUpperCase()}-${hex(random, 4).toUpperCase()}-${hex(random, 4).toUpperCase()}-${hex(random, 12).toUpperCase()}@${domain}`;
    case 'thunderbird':
      return `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}@${domain}`;
    case 'notes':
      return `OF${hex(random, 8).toUpperCase()}.${hex(random, 8).toUpperCase()}-ON${hex(random, 8).toUpperCase()}@${domain}`;
    default:
      return `${hex(random, 16)}.${between(random, 10000, 99999)}@${domain}`;
  }
}

/** The header block `client` writes, in its order and with its own lines. */
export function headerLines(client: MailClient | 'system', e: Envelope, random: Random): string[] {
  const received = `Received: from ${e.relay} (${e.relay} [192.0.2.${between(random, 2, 250)}])\n\tby mx1.warehouse.example (Postfix) with ESMTPS id ${alnum(random, 10).toUpperCase()}\n\tfor <${e.to.address}>; ${rfcDate(new Date(e.at.getTime() + 4000), 'cet')}`;
  const returnPath = `Return-Path: <${e.returnPath ?? e.from.address}>`;
  const reply = e.inReplyTo ? [`In-Reply-To: <${e.inReplyTo}>`, `References: <${e.inReplyTo}>`] : [];
  const base = {
    from: `From: ${phrase(e.from)}`,
    to: `To: ${phrase(e.to)}`,
    subject: `Subject: ${encodeWord(e.subject)}`,
    date: `Date: ${rfcDate(e.at, e.zone)}`,
    id: `Message-ID: <${e.messageId}>`,
  };
  const extra = e.extra ?? [];
  switch (client) {
    case 'outlook':
    case 'outlook-mobile':
      return [
        returnPath,
        received,
        base.from,
        base.to,
        base.subject,
        `Thread-Topic: ${encodeWord(e.subject.replace(/^((re|aw|fw|wg|antw|rv|tr|fwd):\s*)+/i, ''))}`,
        `Thread-Index: A${alnum(random, 30)}==`,
        base.date,
        base.id,
        ...reply,
        `Accept-Language: ${['de-DE', 'nl-NL', 'en-GB', 'es-ES'][between(random, 0, 3)]}, en-US`,
        'X-MS-Has-Attach:',
        'X-MS-TNEF-Correlator:',
        `x-ms-exchange-messagesentrepresentingtype: 1`,
        ...extra,
        'MIME-Version: 1.0',
      ];
    case 'gmail':
      return [
        returnPath,
        received,
        'MIME-Version: 1.0',
        ...reply,
        base.from,
        base.date,
        base.id,
        base.subject,
        base.to,
        `X-Gm-Message-State: AOJu0Y${alnum(random, 24)}`,
        ...extra,
      ];
    case 'apple':
    case 'iphone':
      return [
        returnPath,
        received,
        base.from,
        'Mime-Version: 1.0 (1.0)',
        base.subject,
        base.date,
        ...reply,
        base.id,
        base.to,
        client === 'iphone' ? 'X-Mailer: iPhone Mail (21G93)' : 'X-Mailer: Apple Mail (2.3731.700.6)',
        ...extra,
      ];
    case 'thunderbird':
      return [
        returnPath,
        received,
        base.id,
        base.date,
        'MIME-Version: 1.0',
        'User-Agent: Mozilla Thunderbird',
        'Content-Language: nl',
        base.to,
        base.from,
        base.subject,
        ...reply,
        ...extra,
      ];
    case 'notes':
      return [
        returnPath,
        received,
        base.subject,
        base.to,
        base.from,
        base.date,
        base.id,
        ...reply,
        'X-Mailer: HCL Notes Release 12.0.2FP1 December 12, 2023',
        `X-MIMETrack: Serialize by Router on mail01/${e.from.address.split('@')[1]} at ${rfcDate(e.at, 'cet')}`,
        ...extra,
        'MIME-Version: 1.0',
      ];
    default:
      return [returnPath, received, base.date, base.from, base.to, base.subject, base.id, ...reply, ...extra, 'MIME-Version: 1.0'];
  }
}

function textPart(text: string, flowed = false): string {
  const ascii = /^[\x20-\x7e\t\n]*$/.test(text);
  const params = flowed ? '; format=flowed' : '';
  return ascii
    ? `Content-Type: text/plain; charset=us-ascii${params}\nContent-Transfer-Encoding: 7bit\n\n${text}`
    : `Content-Type: text/plain; charset=utf-8${params}\nContent-Transfer-Encoding: quoted-printable\n\n${quotedPrintable(text)}`;
}
function htmlPart(text: string): string {
  return `Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n${quotedPrintable(htmlOf(text))}`;
}
const multipart = (subtype: string, boundary: string, parts: readonly string[], params = '') =>
  `Content-Type: multipart/${subtype}; boundary="${boundary}"${params}\n\n${parts.map((p) => `--${boundary}\n${p.trimEnd()}\n`).join('')}--${boundary}--\n`;

/** Headers and body, as bytes (LF line ends, as the other fixtures). */
export function assemble(headers: readonly string[], body: Body, random: Random): Buffer {
  const tag = alnum(random, 12);
  let content: string;
  if (body.kind === 'report') {
    content = multipart(
      'report',
      `${tag}.report`,
      [
        textPart(body.text),
        `Content-Type: message/delivery-status\n\n${body.status}`,
        body.headersOnly ? `Content-Type: text/rfc822-headers\n\n${body.original}` : `Content-Type: message/rfc822\n\n${body.original}`,
      ],
      '; report-type=delivery-status',
    );
  } else {
    const alternative = body.html
      ? multipart('alternative', `_alt_${tag}`, [textPart(body.text, body.flowed), htmlPart(body.text)])
      : textPart(body.text, body.flowed);
    const attachments = body.attachments ?? [];
    content =
      attachments.length === 0
        ? alternative
        : multipart('mixed', `_mixed_${tag}`, [
            alternative,
            ...attachments.map(
              (a) =>
                `Content-Type: ${a.mediaType}; name="${a.filename}"\nContent-Disposition: attachment; filename="${a.filename}"\nContent-Transfer-Encoding: base64\n\n${(a.content.toString('base64').match(/.{1,76}/g) ?? []).join('\n')}`,
            ),
          ]);
  }
  return Buffer.from(`${headers.join('\n')}\n${content.endsWith('\n') ? content : `${content}\n`}`, 'utf8');
}
