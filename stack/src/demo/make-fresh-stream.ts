/**
 * Writes the fresh stream: six weeks of an intake mailbox, built apart from the trap scenario and
 * the mixed stream (its own cast, fresh-cast.ts; its own mail programs and layouts; its own plan),
 * to measure the email agent on mail it was not tuned against. Each week every active customer's
 * people book (a reference in the subject, the body or an attachment's name), answer the
 * warehouse's confirmations (quoting them as their mail program does), and sometimes a colleague of
 * the warehouse forwards a booking that reached them. Hauliers write collection plans on another
 * customer's thread; a portal and a Google Group write for several; and over it lies the noise a
 * real inbox has: out-of-office replies, delivery reports (Exchange, Postfix, Gmail, qmail), ticket
 * acknowledgements, newsletters, look-alike forwards, display-name spoofs and a DMARC failure.
 *
 *   npx tsx stack/src/demo/make-fresh-stream.ts --out /tmp/fresh [--replay]   (never committed)
 *
 * `--replay` replays it on a fresh in-process stack with the trusting clerk and prints the week
 * table, the wrong decisions and the evidence rule's questions. The truth says, for each message,
 * the customer (with its label when the seed lacks it), or `none: true` for nobody's mail
 * (automated mail and impostors). `trap` names its class of issue 35 ("class 1: …") or "ordinary".
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Random } from '@learnables/testing';
import { between, mulberry32, pick } from '@learnables/testing';
import type { Mailbox } from './eml.ts';
import { encodeWord, htmlOf, quotedPrintable, rfc822Date, tinyPdf } from './eml.ts';
import type { Client, Customer, Lang, Person } from './fresh-cast.ts';
import {
  CUSTOMERS,
  FIRST_MONDAY,
  FREELANCER,
  FREEMAIL,
  FRESH_SEED,
  GROUP,
  HAULIERS,
  LOOKALIKES,
  MOVER,
  PORTAL,
  STAFF,
  WAREHOUSE,
  WEEKS,
  customer,
} from './fresh-cast.ts';
import type { EmailTruth, Stream, WrittenEmail } from './stream.ts';
import { DAY_MS, writeEmailStream } from './stream.ts';

const HOUR = 3_600_000;
const INTAKE = WAREHOUSE.intake;
const NOBODY: EmailTruth = { entry: 'no-customer', none: true };
const truthOf = (c: Customer): EmailTruth => (c.seeded ? { entry: c.key } : { entry: c.key, label: c.label });

// ---------------------------------------------------------------------------------------------
// MIME, by hand so every byte is deterministic.

interface Attachment {
  readonly filename: string;
  readonly mediaType: string;
  readonly content: Buffer;
}

interface Mail {
  readonly from: Mailbox;
  readonly to: readonly Mailbox[];
  readonly cc?: readonly Mailbox[];
  readonly replyTo?: Mailbox;
  readonly subject: string;
  readonly at: Date;
  readonly zone: number;
  readonly client: Client | 'system';
  readonly messageId: string;
  readonly inReplyTo?: string;
  readonly returnPath?: string;
  readonly headers?: readonly string[];
  readonly text: string;
  readonly html?: boolean;
  readonly attachments?: readonly Attachment[];
  /** A forwarded message attached whole (Outlook's "forward as attachment"). */
  readonly attachedMessage?: Buffer;
  /** A delivery status notification (RFC 3464). */
  readonly report?: { readonly status: string; readonly original: Buffer; readonly headersOnly: boolean };
}

const isAscii = (s: string) => /^[\x20-\x7e\t\n]*$/.test(s);
const box = (b: Mailbox) =>
  b.name === ''
    ? `<${b.address}>`
    : `${isAscii(b.name) ? (/[(),.:;<>@[\]"]/.test(b.name) ? `"${b.name.replace(/"/g, '\\"')}"` : b.name) : encodeWord(b.name)} <${b.address}>`;
const hex = (random: Random, n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
const b64ish = (random: Random, n: number) =>
  Array.from({ length: n }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 62)]).join('');
const domainOf = (address: string) => address.split('@')[1] ?? 'example';

function messageIdFor(client: Client | 'system', address: string, random: Random): string {
  const d = domainOf(address);
  switch (client) {
    case 'outlook':
    case 'outlook-mobile':
      return `${pick(random, ['AM9PR07MB', 'DB8PR02MB', 'PAXPR10MB', 'VI1PR04MB'])}${between(random, 1000, 9999)}${hex(random, 6).toUpperCase()}@${pick(random, ['AM9PR07MB', 'DB8PR02MB'])}${between(random, 1000, 9999)}.eurprd07.prod.outlook.com`;
    case 'gmail':
    case 'gmail-android':
      return `CA+${b64ish(random, 36)}@mail.gmail.com`;
    case 'apple-mail':
    case 'iphone':
      return `${hex(random, 8).toUpperCase()}-${hex(random, 4).toUpperCase()}-${hex(random, 4).toUpperCase()}-${hex(random, 4).toUpperCase()}-${hex(random, 12).toUpperCase()}@${d}`;
    case 'thunderbird':
      return `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}@${d}`;
    case 'notes':
      return `OF${hex(random, 8).toUpperCase()}.${hex(random, 8).toUpperCase()}-ON${hex(random, 8).toUpperCase()}.${hex(random, 8).toUpperCase()}@${d}`;
    case 'roundcube':
      return `${hex(random, 32)}@${d}`;
    case 'zimbra':
      return `${between(random, 100000000, 999999999)}.${between(random, 1000, 99999)}.${between(random, 1000000000000, 1999999999999)}.JavaMail.zimbra@${d}`;
    default:
      return `${hex(random, 16)}.${between(random, 1000, 9999)}@${d}`;
  }
}

function clientHeaders(client: Client | 'system', lang: Lang, random: Random): string[] {
  const language = { en: 'en-GB', de: 'de-DE', it: 'it-IT', pl: 'pl-PL', sv: 'sv-SE', pt: 'pt-PT' }[lang];
  switch (client) {
    case 'outlook':
      return [
        `Thread-Topic: x`,
        `Thread-Index: A${b64ish(random, 22)}==`,
        `Accept-Language: ${language}, en-US`,
        `Content-Language: ${language}`,
        'X-MS-Has-Attach: ',
        'X-MS-TNEF-Correlator: ',
      ];
    case 'outlook-mobile':
      return [`Thread-Index: A${b64ish(random, 22)}==`, `Content-Language: ${language}`, 'X-MS-Has-Attach: '];
    case 'gmail':
    case 'gmail-android':
      return [`X-Google-Smtp-Source: AGHT+I${b64ish(random, 40)}`, `X-Gm-Message-State: AOJu0Y${b64ish(random, 30)}`];
    case 'apple-mail':
      return ['X-Mailer: Apple Mail (2.3774.500.171.1.1)'];
    case 'iphone':
      return ['X-Mailer: iPhone Mail (21E236)'];
    case 'thunderbird':
      return ['User-Agent: Mozilla Thunderbird', `Content-Language: ${language}`];
    case 'notes':
      return [
        'X-Mailer: HCL Notes Release 12.0.2 FP2 October 02, 2023',
        `X-MIMETrack: Serialize by Router on MAIL01/ACME(Release 12.0.2FP2|October 02, 2023) at ${between(random, 1, 28)}.04.2027 ${between(random, 10, 17)}:${between(random, 10, 59)}:00`,
      ];
    case 'roundcube':
      return ['User-Agent: Roundcube Webmail/1.6.7'];
    case 'zimbra':
      return ['X-Mailer: Zimbra 10.0.6_GA_0007 (ZimbraWebClient - FF124 (Win)/10.0.6_GA_0007)', `Thread-Index: ${b64ish(random, 28)}`, `Thread-Topic: x`];
    default:
      return [];
  }
}

function textPart(mediaType: string, text: string): string {
  if (isAscii(text)) return `Content-Type: ${mediaType}; charset="us-ascii"\nContent-Transfer-Encoding: 7bit\n\n${text}`;
  return `Content-Type: ${mediaType}; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n${quotedPrintable(text)}`;
}
const base64 = (content: Buffer) => (content.toString('base64').match(/.{1,76}/g) ?? []).join('\n');
const multipart = (subtype: string, boundary: string, parts: readonly string[], extra = '') =>
  `Content-Type: multipart/${subtype};${extra} boundary="${boundary}"\n\n${parts.map((p) => `--${boundary}\n${p.trimEnd()}\n`).join('')}--${boundary}--\n`;

function assemble(mail: Mail, lang: Lang, random: Random): Buffer {
  const tag = hex(random, 12);
  const relay = `mail-${hex(random, 4)}.${domainOf(mail.from.address)}`;
  const headers = [
    `Return-Path: <${mail.returnPath ?? mail.from.address}>`,
    `Received: from ${relay} (${relay} [198.51.100.${between(random, 2, 250)}])\n\tby mx1.warehouse.example (Postfix) with ESMTPS id ${tag.slice(0, 10).toUpperCase()}\n\tfor <${INTAKE.address}>; ${rfc822Date(new Date(mail.at.getTime() + 4000), 120)}`,
    ...(mail.headers ?? []),
    `From: ${box(mail.from)}`,
    `To: ${mail.to.map(box).join(', ')}`,
    ...(mail.cc && mail.cc.length > 0 ? [`Cc: ${mail.cc.map(box).join(', ')}`] : []),
    ...(mail.replyTo ? [`Reply-To: ${box(mail.replyTo)}`] : []),
    `Subject: ${encodeWord(mail.subject)}`,
    `Date: ${rfc822Date(mail.at, mail.zone)}`,
    `Message-ID: <${mail.messageId}>`,
    ...(mail.inReplyTo ? [`In-Reply-To: <${mail.inReplyTo}>`, `References: <${mail.inReplyTo}>`] : []),
    ...clientHeaders(mail.client, lang, random).map((h) =>
      h === 'Thread-Topic: x' ? `Thread-Topic: ${encodeWord(mail.subject.replace(/^(?:(?:RE|AW|SV|R|FW|WG|VS|Fwd|Odp|PD|ENC|RES|I):\s*)+/i, ''))}` : h,
    ),
    'MIME-Version: 1.0',
  ];
  let body: string;
  if (mail.report) {
    const r = mail.report;
    body = multipart(
      'report',
      `=_report_${tag}`,
      [
        textPart('text/plain', mail.text),
        `Content-Type: message/delivery-status\n\n${r.status}`,
        r.headersOnly
          ? `Content-Type: text/rfc822-headers\n\n${r.original.toString('utf8').split('\n\n')[0]}\n`
          : `Content-Type: message/rfc822\n\n${r.original.toString('utf8')}`,
      ],
      ' report-type=delivery-status;',
    );
  } else {
    const plain = textPart('text/plain', mail.text);
    const alt = mail.html ? multipart('alternative', `=_alt_${tag}`, [plain, textPart('text/html', htmlOf(mail.text))]) : plain;
    const parts = [
      ...(mail.attachments ?? []).map(
        (a) =>
          `Content-Type: ${a.mediaType}; name="${a.filename}"\nContent-Description: ${a.filename}\nContent-Disposition: attachment; filename="${a.filename}"; size=${a.content.length}\nContent-Transfer-Encoding: base64\n\n${base64(a.content)}`,
      ),
      ...(mail.attachedMessage
        ? [`Content-Type: message/rfc822\nContent-Disposition: attachment; filename="original.eml"\n\n${mail.attachedMessage.toString('utf8')}`]
        : []),
    ];
    body = parts.length === 0 ? alt : multipart('mixed', `=_mixed_${tag}`, [alt, ...parts]);
  }
  return Buffer.from(`${headers.join('\n')}\n${body.endsWith('\n') ? body : `${body}\n`}`, 'utf8');
}

// ---------------------------------------------------------------------------------------------
// Words, per language.

const DAYS: Record<Lang, readonly string[]> = {
  en: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  de: ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'],
  it: ['domenica', 'lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato'],
  pl: ['niedziela', 'poniedziałek', 'wtorek', 'środa', 'czwartek', 'piątek', 'sobota'],
  sv: ['söndag', 'måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag'],
  pt: ['domingo', 'segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado'],
};
const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const GREET: Record<Lang, readonly string[]> = {
  en: ['Hi all,', 'Hello intake team,', 'Good morning,'],
  de: ['Guten Morgen,', 'Hallo zusammen,', 'Sehr geehrte Damen und Herren,'],
  it: ['Buongiorno,', 'Salve,', 'Gentili colleghi,'],
  pl: ['Dzień dobry,', 'Witam,', 'Szanowni Państwo,'],
  sv: ['Hej!', 'Hej allihop,', 'God morgon,'],
  pt: ['Bom dia,', 'Olá,', 'Caros colegas,'],
};
const CLOSE: Record<Lang, readonly string[]> = {
  en: ['Cheers,', 'Many thanks,', 'Regards,'],
  de: ['Beste Grüße', 'Mit freundlichen Grüßen', 'Gruß'],
  it: ['Cordiali saluti,', 'Grazie e buona giornata,', 'Saluti,'],
  pl: ['Pozdrawiam,', 'Z poważaniem,', 'Dziękuję i pozdrawiam,'],
  sv: ['Med vänliga hälsningar,', 'Mvh', 'Tack på förhand!'],
  pt: ['Cumprimentos,', 'Com os melhores cumprimentos,', 'Obrigada,'],
};
const MOBILE: Partial<Record<Client, Record<Lang, string>>> = {
  iphone: {
    en: 'Sent from my iPhone',
    de: 'Von meinem iPhone gesendet',
    it: 'Inviato da iPhone',
    pl: 'Wysłane z iPhone’a',
    sv: 'Skickat från min iPhone',
    pt: 'Enviado do meu iPhone',
  },
  'outlook-mobile': {
    en: 'Get Outlook for iOS',
    de: 'Outlook für iOS herunterladen',
    it: 'Scarica Outlook per iOS',
    pl: 'Pobierz program Outlook dla systemu iOS',
    sv: 'Hämta Outlook för iOS',
    pt: 'Obter o Outlook para iOS',
  },
  'gmail-android': {
    en: 'Sent from my Galaxy',
    de: 'Von meinem Galaxy gesendet',
    it: 'Inviato dal mio Galaxy',
    pl: 'Wysłane z mojego Galaxy',
    sv: 'Skickat från min Galaxy',
    pt: 'Enviado do meu Galaxy',
  },
};

function bookingText(lang: Lang, pallets: number, goods: string, day: string, ref: string | undefined): string {
  const r = ref ?? '';
  switch (lang) {
    case 'de':
      return ref
        ? `bitte ${pallets} Paletten ${goods} für ${day} einplanen. Unsere Bestellnummer: ${r}.`
        : `bitte ${pallets} Paletten ${goods} für ${day} einplanen, Details im Anhang.`;
    case 'it':
      return ref
        ? `vi chiediamo di prenotare lo scarico di ${pallets} pallet di ${goods} per ${day}. Nostro ordine n. ${r}.`
        : `vi chiediamo di prenotare lo scarico di ${pallets} pallet di ${goods} per ${day}; documenti in allegato.`;
    case 'pl':
      return ref
        ? `proszę o awizację ${pallets} palet (${goods}) na ${day}. Nasze zlecenie: ${r}.`
        : `proszę o awizację ${pallets} palet (${goods}) na ${day}, specyfikacja w załączniku.`;
    case 'sv':
      return ref
        ? `vi vill boka in ${pallets} pallar ${goods} till ${day}. Vårt ordernummer är ${r}.`
        : `vi vill boka in ${pallets} pallar ${goods} till ${day}, se bifogad följesedel.`;
    case 'pt':
      return ref
        ? `pedimos a marcação de descarga de ${pallets} paletes de ${goods} para ${day}. A nossa referência: ${r}.`
        : `pedimos a marcação de descarga de ${pallets} paletes de ${goods} para ${day}; guia em anexo.`;
    default:
      return ref
        ? `please book in ${pallets} pallets of ${goods} for ${day}, our ref ${r}.`
        : `please book in ${pallets} pallets of ${goods} for ${day}; the packing list is attached.`;
  }
}
const BOOKING_SUBJECT: Record<Lang, (ref: string) => string> = {
  en: (r) => `Delivery booking ${r}`,
  de: (r) => `Avis Anlieferung ${r}`,
  it: (r) => `Prenotazione scarico ordine ${r}`,
  pl: (r) => `Awizacja dostawy ${r}`,
  sv: (r) => `Bokning inleverans ${r}`,
  pt: (r) => `Marcação de descarga ${r}`,
};
const BOOKING_SUBJECT_PLAIN: Record<Lang, string> = {
  en: 'Delivery next week',
  de: 'Anlieferung nächste Woche',
  it: 'Scarico settimana prossima',
  pl: 'Dostawa w przyszłym tygodniu',
  sv: 'Leverans nästa vecka',
  pt: 'Entrega na próxima semana',
};
const CONFIRM_REPLY: Record<Lang, (ref: string) => string> = {
  en: (r) => `Thanks, that works. Driver will bring the CMR for ${r}.`,
  de: (r) => `Danke, passt so. Der Fahrer bringt den Lieferschein zu ${r} mit.`,
  it: (r) => `Grazie, va bene. L'autista porterà il DDT dell'ordine ${r}.`,
  pl: (r) => `Dziękuję, pasuje. Kierowca będzie miał CMR do zlecenia ${r}.`,
  sv: (r) => `Tack, det passar bra. Chauffören har med sig fraktsedeln för ${r}.`,
  pt: (r) => `Obrigada, está ótimo. O motorista leva a guia da encomenda ${r}.`,
};
const REPLY_PREFIX: Record<Lang, Partial<Record<Client, string>> & { default: string }> = {
  en: { default: 'Re: ', outlook: 'RE: ', 'outlook-mobile': 'RE: ' },
  de: { default: 'Re: ', outlook: 'AW: ', notes: 'Antwort: ' },
  it: { default: 'Re: ', outlook: 'R: ', zimbra: 'R: ' },
  pl: { default: 'Re: ', outlook: 'Odp: ', thunderbird: 'Odp: ' },
  sv: { default: 'Re: ', outlook: 'SV: ', iphone: 'Sv: ' },
  pt: { default: 'Re: ', outlook: 'RE: ', gmail: 'Re: ' },
};
const FORWARD_PREFIX: Record<Client, string> = {
  outlook: 'FW: ',
  'outlook-mobile': 'FW: ',
  gmail: 'Fwd: ',
  'gmail-android': 'Fwd: ',
  'apple-mail': 'Fwd: ',
  iphone: 'Fwd: ',
  thunderbird: 'Fwd: ',
  notes: 'Fw: ',
  roundcube: 'Fwd: ',
  zimbra: 'Fwd: ',
};

const two = (n: number) => String(n).padStart(2, '0');
/** The sender's local time of an instant. */
const local = (at: Date, zone: number) => new Date(at.getTime() + zone * 60_000);

/** The line a mail program writes above quoted history, in its writer's language. */
function attribution(client: Client, lang: Lang, who: Mailbox, at: Date, zone: number): string {
  const t = local(at, zone);
  const [d, m, y, hh, mm] = [t.getUTCDate(), t.getUTCMonth(), t.getUTCFullYear(), two(t.getUTCHours()), two(t.getUTCMinutes())];
  const addr = `${who.name} <${who.address}>`;
  if (client === 'thunderbird')
    return lang === 'pl'
      ? `W dniu ${d}.${two(m + 1)}.${y} o ${hh}:${mm}, ${who.name} pisze:`
      : `On ${two(d)}/${two(m + 1)}/${y} ${hh}:${mm}, ${who.name} wrote:`;
  if (client === 'roundcube') return `On ${y}-${two(m + 1)}-${two(d)} ${hh}:${mm}, ${who.name} wrote:`;
  if (client === 'apple-mail' || client === 'iphone') {
    if (lang === 'sv') return `${d} apr. ${y} kl. ${hh}:${mm} skrev ${addr}:`;
    if (lang === 'it') return `Il giorno ${d} apr ${y}, alle ore ${hh}:${mm}, ${addr} ha scritto:`;
    return `On ${d} ${MONTHS_EN[m]!.slice(0, 3)} ${y}, at ${hh}:${mm}, ${addr} wrote:`;
  }
  // Gmail's, web and Android.
  const wd = DAYS[lang][t.getUTCDay()]!;
  switch (lang) {
    case 'it':
      return `Il giorno ${wd.slice(0, 3)} ${d} apr ${y} alle ore ${hh}:${mm} ${addr} ha scritto:`;
    case 'pl':
      return `${wd.slice(0, 3)}., ${d} kwi ${y} o ${hh}:${mm} ${addr} napisał(a):`;
    case 'sv':
      return `Den ${wd.slice(0, 3)} ${d} apr. ${y} kl. ${hh}:${mm} skrev ${addr}:`;
    case 'pt':
      return `Em ${wd.slice(0, 3)}., ${d} de abr. de ${y} às ${hh}:${mm}, ${addr} escreveu:`;
    case 'de':
      return `Am ${wd.slice(0, 2)}., ${d}. Apr. ${y} um ${hh}:${mm} Uhr schrieb ${addr}:`;
    default:
      return `On ${wd.slice(0, 3)}, ${d} ${MONTHS_EN[m]!.slice(0, 3)} ${y} at ${hh}:${mm}, ${addr} wrote:`;
  }
}

/** Outlook's (and Zimbra's, and Notes') header block above the earlier message, in the writer's language. */
function headerBlock(client: Client, lang: Lang, q: Quoted): string {
  const t = local(q.at, 120);
  const when = `${DAYS.en[t.getUTCDay()]}, ${MONTHS_EN[t.getUTCMonth()]} ${t.getUTCDate()}, ${t.getUTCFullYear()} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}`;
  const from = `${q.from.name} <${q.from.address}>`;
  const to = q.to.map((b) => `${b.name} <${b.address}>`).join('; ');
  if (client === 'notes')
    return `From:\t${from}\nTo:\t${to}\nDate:\t${two(t.getUTCDate())}.${two(t.getUTCMonth() + 1)}.${t.getUTCFullYear()} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}\nSubject:\t${q.subject}`;
  if (client === 'zimbra')
    return `----- ${lang === 'it' ? 'Messaggio originale' : lang === 'sv' ? 'Ursprungligt meddelande' : 'Original Message'} -----\nFrom: "${q.from.name}" <${q.from.address}>\nTo: ${to}\nSent: ${when}:00\nSubject: ${q.subject}`;
  const words: Record<Lang, readonly [string, string, string, string]> = {
    en: ['From', 'Sent', 'To', 'Subject'],
    de: ['Von', 'Gesendet', 'An', 'Betreff'],
    it: ['Da', 'Inviato', 'A', 'Oggetto'],
    pl: ['Od', 'Wysłano', 'Do', 'Temat'],
    sv: ['Från', 'Skickat', 'Till', 'Ämne'],
    pt: ['De', 'Enviado', 'Para', 'Assunto'],
  };
  const [f, s, tt, su] = words[lang];
  return `________________________________\n${f}: ${from}\n${s}: ${when}\n${tt}: ${to}\n${su}: ${q.subject}`;
}

interface Quoted {
  readonly from: Mailbox;
  readonly to: readonly Mailbox[];
  readonly subject: string;
  readonly at: Date;
  readonly text: string;
}

/** The author's new text above the quoted history, as `client` lays a reply out. */
function reply(client: Client, lang: Lang, fresh: string, q: Quoted, zone: number): string {
  const footer = MOBILE[client]?.[lang];
  const top = footer ? `${fresh}\n\n${footer}` : fresh;
  if (client === 'outlook' || client === 'outlook-mobile' || client === 'zimbra') return `${top}\n\n${headerBlock(client, lang, q)}\n\n${q.text}`;
  if (client === 'notes') return `${top}\n\n\n\n${headerBlock(client, lang, q)}\n\n\n${q.text}`;
  const quoted = q.text
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
  return `${top}\n\n${attribution(client, lang, q.from, q.at, zone)}\n\n${quoted}`;
}

/** A forward as `client` lays it out: the forwarder's note, then the original's header block and text. */
function forward(client: Client, note: string, q: Quoted, forwarder: string): string {
  const t = local(q.at, 120);
  const to = q.to.map((b) => `${b.name} <${b.address}>`).join(', ');
  const date = `${DAYS.en[t.getUTCDay()]}, ${t.getUTCDate()} ${MONTHS_EN[t.getUTCMonth()]} ${t.getUTCFullYear()} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}`;
  const from = `${q.from.name} <${q.from.address}>`;
  switch (client) {
    case 'gmail':
    case 'gmail-android':
      return `${note}\n\n---------- Forwarded message ---------\nFrom: ${from}\nDate: ${date}\nSubject: ${q.subject}\nTo: ${to}\n\n\n${q.text}`;
    case 'apple-mail':
    case 'iphone':
      return `${note}\n\nBegin forwarded message:\n\nFrom: ${from}\nSubject: ${q.subject}\nDate: ${t.getUTCDate()} ${MONTHS_EN[t.getUTCMonth()]} ${t.getUTCFullYear()} at ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:00 CEST\nTo: ${to}\n\n${q.text}`;
    case 'thunderbird':
      return `${note}\n\n\n-------- Forwarded Message --------\nSubject: \t${q.subject}\nDate: \t${date}\nFrom: \t${from}\nTo: \t${to}\n\n\n\n${q.text}`;
    case 'notes':
      return `${note}\n\n----- Forwarded by ${forwarder}/WAREHOUSE on ${two(t.getUTCDate())}.${two(t.getUTCMonth() + 1)}.${t.getUTCFullYear()} ${two(t.getUTCHours() + 1)}:${two(t.getUTCMinutes())} -----\n\nFrom:\t${from}\nTo:\t${to}\nDate:\t${two(t.getUTCDate())}.${two(t.getUTCMonth() + 1)}.${t.getUTCFullYear()} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}\nSubject:\t${q.subject}\n\n\n${q.text}`;
    default:
      return `${note}\n\n________________________________\nFrom: ${from}\nSent: ${date}\nTo: ${to}\nSubject: ${q.subject}\n\n${q.text}`;
  }
}

const signature = (p: Person, c: Customer | undefined) => `${p.name}${c ? `\n${c.label}` : ''}\n${p.address}`;

// ---------------------------------------------------------------------------------------------
// The messages.

/** A message as written: its bytes and what the stream says of it. */
type Written = WrittenEmail;
interface Planned {
  readonly at: Date;
  readonly write: (random: Random) => Written;
}

/** A booking a customer made, and what the warehouse sent back (what replies, OOOs and bounces quote). */
interface Booking {
  readonly customer: Customer;
  readonly person: Person;
  readonly ref: string;
  readonly subject: string;
  readonly at: Date;
  readonly text: string;
  readonly messageId: string;
  readonly confirmation: Quoted;
  readonly confirmationId: string;
}

function dayAfter(lang: Lang, at: Date, days: number): string {
  const d = new Date(at.getTime() + days * DAY_MS);
  return `${DAYS[lang][d.getUTCDay()]} ${d.getUTCDate()}.${two(d.getUTCMonth() + 1)}`;
}

function makeBooking(c: Customer, p: Person, at: Date, random: Random): Booking {
  const ref = c.ref(between(random, 0, 9_999_999));
  const pallets = between(random, 4, 33);
  const day = dayAfter(c.lang, at, between(random, 2, 5));
  const refIn = pick(random, ['subject', 'subject', 'body', 'both']);
  const subject = refIn === 'body' ? BOOKING_SUBJECT_PLAIN[c.lang] : BOOKING_SUBJECT[c.lang](ref);
  const text = `${pick(random, GREET[c.lang])}\n\n${bookingText(c.lang, pallets, pick(random, c.goods), day, refIn === 'subject' ? undefined : ref)}\n\n${pick(random, CLOSE[c.lang])}\n${signature(p, c)}`;
  const confirmationAt = new Date(at.getTime() + between(random, 1, 5) * HOUR);
  const confirmation: Quoted = {
    from: INTAKE,
    to: [{ name: p.name, address: p.address }],
    subject: `RE: ${subject}`,
    at: confirmationAt,
    text: `Dear ${p.name.split(' ')[0]},\n\nConfirmed: ${pallets} pallets on ${day}, dock ${between(random, 1, 12)}, your reference ${ref}.\n\nIntake desk\n${WAREHOUSE.signature}`,
  };
  return {
    customer: c,
    person: p,
    ref,
    subject,
    at,
    text,
    messageId: messageIdFor(p.client, p.address, random),
    confirmation,
    confirmationId: `${hex(random, 20)}@warehouse.example`,
  };
}

function bookingMail(b: Booking, random: Random, first: boolean): Written {
  const p = b.person;
  const refInSubjectOnly = !b.text.includes(b.ref);
  // One in four carries its paperwork, named for the reference.
  const attach = random() < 0.25 || (refInSubjectOnly === false && random() < 0.1);
  const mobile = MOBILE[p.client]?.[p.lang];
  const text = mobile ? `${b.text}\n\n${mobile}` : b.text;
  const attachments: Attachment[] = attach
    ? [{ filename: `${b.ref.replace(/[^\w-]+/g, '_')}.pdf`, mediaType: 'application/pdf', content: tinyPdf(`${b.customer.label} ${b.ref}`) }]
    : [];
  const mail: Mail = {
    from: p,
    to: [INTAKE],
    subject: b.subject,
    at: b.at,
    zone: p.zone,
    client: p.client,
    messageId: b.messageId,
    text,
    html: p.client === 'outlook' || p.client === 'gmail',
    attachments,
  };
  return {
    bytes: assemble(mail, p.lang, random),
    truth: truthOf(b.customer),
    trap: first
      ? 'a new customer’s first message'
      : attach
        ? 'ordinary booking with its paperwork attached'
        : `ordinary booking (reference in the ${refInSubjectOnly ? 'subject' : 'body'})`,
    source: p.address,
    tag: p.id,
  };
}

/** The customer answers the warehouse's confirmation, quoting it. */
function confirmationReply(b: Booking, random: Random): Written {
  const p = b.person;
  const at = new Date(b.confirmation.at.getTime() + between(random, 1, 20) * HOUR);
  const prefix = REPLY_PREFIX[p.lang][p.client] ?? REPLY_PREFIX[p.lang].default;
  const text = reply(p.client, p.lang, `${CONFIRM_REPLY[p.lang](b.ref)}\n\n${p.name.split(' ')[0]}`, b.confirmation, p.zone);
  const mail: Mail = {
    from: p,
    to: [INTAKE],
    subject: `${prefix}${b.confirmation.subject}`,
    at,
    zone: p.zone,
    client: p.client,
    messageId: messageIdFor(p.client, p.address, random),
    inReplyTo: b.confirmationId,
    text,
  };
  return {
    bytes: assemble(mail, p.lang, random),
    truth: truthOf(b.customer),
    trap: `ordinary reply quoting the confirmation (${p.client})`,
    source: p.address,
    tag: `${p.id}-re`,
  };
}

/** The booking reached a colleague of the warehouse, who forwards it to intake from their own program. */
function staffForward(b: Booking, staff: Person, random: Random, asAttachment: boolean): Written {
  const at = new Date(b.at.getTime() + between(random, 1, 6) * HOUR);
  const note = pick(random, ['Came to me by mistake, can you book it in?', 'For intake, thanks.', 'Please handle – I am out tomorrow.', 'FYI, booking below.']);
  const original: Quoted = { from: b.person, to: [{ name: staff.name, address: staff.address }], subject: b.subject, at: b.at, text: b.text };
  const prefix = FORWARD_PREFIX[staff.client];
  let mail: Mail;
  if (asAttachment) {
    const attached = assemble(
      {
        from: b.person,
        to: [{ name: staff.name, address: staff.address }],
        subject: b.subject,
        at: b.at,
        zone: b.person.zone,
        client: b.person.client,
        messageId: b.messageId,
        text: b.text,
      },
      b.person.lang,
      random,
    );
    mail = {
      from: staff,
      to: [INTAKE],
      subject: `${prefix}${b.subject}`,
      at,
      zone: staff.zone,
      client: staff.client,
      messageId: messageIdFor(staff.client, staff.address, random),
      text: `${note}\n\n${staff.name}`,
      attachedMessage: attached,
    };
  } else {
    mail = {
      from: staff,
      to: [INTAKE],
      subject: `${prefix}${b.subject}`,
      at,
      zone: staff.zone,
      client: staff.client,
      messageId: messageIdFor(staff.client, staff.address, random),
      text: forward(staff.client, `${note}\n\n${staff.name}`, original, staff.name),
      html: staff.client === 'outlook',
    };
  }
  return {
    bytes: assemble(mail, staff.lang, random),
    truth: truthOf(b.customer),
    trap: `forward by the warehouse's own staff (${asAttachment ? 'as an attachment' : staff.client})`,
    source: `${staff.address} forwarding ${b.person.address}`,
    tag: `fw-${staff.id}`,
  };
}

/** Class 2: an out-of-office or vacation reply to the warehouse's confirmation, from the customer's own address. */
function outOfOffice(b: Booking, random: Random): Written {
  const p = b.person;
  const at = new Date(b.confirmation.at.getTime() + between(random, 1, 4) * 60_000);
  const style = pick(random, ['exchange', 'gmail', 'zimbra', 'notes'] as const);
  const back = dayAfter(p.lang, at, between(random, 3, 9));
  const away: Record<Lang, string> = {
    en: `I am out of the office until ${back} with limited access to email. For urgent matters please contact logistics.`,
    de: `Ich bin bis ${back} nicht im Büro. In dringenden Fällen wenden Sie sich bitte an die Logistik.`,
    it: `Sono fuori ufficio fino a ${back}. Per urgenze contattare l'ufficio logistica.`,
    pl: `Jestem poza biurem do ${back}. W pilnych sprawach proszę o kontakt z działem logistyki.`,
    sv: `Jag är tjänstledig till ${back}. Vid brådskande ärenden, kontakta logistikavdelningen.`,
    pt: `Estou ausente do escritório até ${back}. Para assuntos urgentes contacte a logística.`,
  };
  const subjectWord: Record<Lang, string> = {
    en: 'Automatic reply',
    de: 'Automatische Antwort',
    it: 'Risposta automatica',
    pl: 'Odpowiedź automatyczna',
    sv: 'Automatiskt svar',
    pt: 'Resposta automática',
  };
  let headers: string[];
  let subject: string;
  let text = away[p.lang];
  let trap: string;
  if (style === 'exchange') {
    headers = ['Auto-Submitted: auto-replied', 'X-Auto-Response-Suppress: All', 'X-MS-Exchange-Inbox-Rules-Loop: ' + p.address];
    subject = `${subjectWord[p.lang]}: ${b.confirmation.subject}`;
    trap = 'class 2: out-of-office (Exchange, Auto-Submitted)';
  } else if (style === 'gmail') {
    headers = ['Auto-Submitted: auto-replied', 'Precedence: bulk'];
    subject = `${b.confirmation.subject.replace(/^RE: /, 'Re: ')}`;
    trap = 'class 2: vacation responder keeping the original subject (Gmail)';
  } else if (style === 'zimbra') {
    headers = ['X-Autoreply: yes', 'X-Zimbra-Auto-Reply: yes'];
    subject = `${p.lang === 'en' ? 'Out of Office' : subjectWord[p.lang]}: ${b.confirmation.subject}`;
    text = `${away[p.lang]}\n\n${reply('zimbra', p.lang, '', b.confirmation, p.zone).trim()}`;
    trap = 'class 2: out-of-office quoting the original (Zimbra, X-Autoreply only)';
  } else {
    headers = ['Auto-Submitted: auto-replied (vacation)', 'X-Mailer: HCL Notes Release 12.0.2'];
    subject = `${subjectWord[p.lang]}: ${b.confirmation.subject}`;
    text = `${away[p.lang]}\n\n${p.name}\n${b.customer.label}\n\n\n${headerBlock('notes', p.lang, b.confirmation)}\n\n${b.confirmation.text}`;
    trap = 'class 2: out-of-office quoting the original (Notes)';
  }
  const mail: Mail = {
    from: p,
    to: [INTAKE],
    subject,
    at,
    zone: p.zone,
    client: 'system',
    messageId: messageIdFor(p.client, p.address, random),
    inReplyTo: b.confirmationId,
    returnPath: '',
    headers,
    text,
  };
  return { bytes: assemble(mail, p.lang, random), truth: NOBODY, trap, source: p.address, tag: 'ooo' };
}

/** Class 2: the warehouse's confirmation came back undelivered (RFC 3464), with the original inside. */
function bounce(b: Booking, random: Random): Written {
  const rcpt = b.person.address.replace(/^[^@]+/, (local) => `${local}${pick(random, ['x', '.old', '1'])}`);
  const kind = pick(random, ['exchange', 'postfix', 'gmail', 'qmail', 'delayed'] as const);
  const at = new Date(b.confirmation.at.getTime() + between(random, 1, 30) * 60_000);
  const original = assemble(
    {
      from: INTAKE,
      to: [{ name: b.person.name, address: rcpt }],
      subject: b.confirmation.subject,
      at: b.confirmation.at,
      zone: 120,
      client: 'outlook',
      messageId: b.confirmationId,
      text: b.confirmation.text,
    },
    'en',
    random,
  );
  const status = (action: string, code: string, diag: string) =>
    `Reporting-MTA: dns; ${kind === 'exchange' ? 'AM9PR07MB7777.eurprd07.prod.outlook.com' : kind === 'gmail' ? 'googlemail.com' : 'mx1.warehouse.example'}\nArrival-Date: ${rfc822Date(b.confirmation.at, 120)}\n\nFinal-Recipient: rfc822; ${rcpt}\nAction: ${action}\nStatus: ${code}\nDiagnostic-Code: smtp; ${diag}\n`;
  let from: Mailbox;
  let subject: string;
  let text: string;
  let st: string;
  let trap: string;
  let report = true;
  switch (kind) {
    case 'exchange':
      from = { name: 'Microsoft Outlook', address: 'postmaster@warehouse.example' };
      subject = `Undeliverable: ${b.confirmation.subject}`;
      text = `Delivery has failed to these recipients or groups:\n\n${rcpt}\nThe email address you entered couldn't be found. Please check the recipient's email address and try to resend the message.\n\nDiagnostic information for administrators:\n\nGenerating server: AM9PR07MB7777.eurprd07.prod.outlook.com\n\n${rcpt}\nRemote Server returned '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup'`;
      st = status('failed', '5.1.10', '550 5.1.10 RESOLVER.ADR.RecipientNotFound');
      trap = 'class 2: Exchange non-delivery report';
      break;
    case 'postfix':
      from = { name: 'Mail Delivery System', address: 'MAILER-DAEMON@mx1.warehouse.example' };
      subject = 'Undelivered Mail Returned to Sender';
      text = `This is the mail system at host mx1.warehouse.example.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients. It's attached below.\n\n                   The mail system\n\n<${rcpt}>: host mx.${domainOf(rcpt)}[192.0.2.25] said: 550 5.1.1 <${rcpt}>:\n    Recipient address rejected: User unknown in virtual mailbox table`;
      st = status('failed', '5.1.1', `550 5.1.1 <${rcpt}>: Recipient address rejected`);
      trap = 'class 2: Postfix bounce with the original attached';
      break;
    case 'delayed':
      from = { name: 'Mail Delivery System', address: 'MAILER-DAEMON@mx1.warehouse.example' };
      subject = 'Delayed Mail (still being retried)';
      text = `This is the mail system at host mx1.warehouse.example.\n\n####################################################################\n# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #\n####################################################################\n\nYour message could not be delivered for more than 4 hour(s).\nIt will be retried until it is 5 day(s) old.`;
      st = status('delayed', '4.4.1', 'connect to mx.' + domainOf(rcpt) + ': Connection timed out');
      trap = 'class 2: Postfix delay warning (headers only)';
      break;
    case 'gmail':
      from = { name: 'Mail Delivery Subsystem', address: 'mailer-daemon@googlemail.com' };
      subject = 'Delivery Status Notification (Failure)';
      text = `** Address not found **\n\nYour message wasn't delivered to ${rcpt} because the address couldn't be found, or is unable to receive mail.\n\nThe response from the remote server was:\n550 5.1.1 The email account that you tried to reach does not exist.`;
      st = status('failed', '5.1.1', '550-5.1.1 The email account that you tried to reach does not exist');
      trap = 'class 2: Gmail delivery status notification';
      break;
    default:
      from = { name: '', address: 'MAILER-DAEMON@mail.' + domainOf(rcpt) };
      subject = 'failure notice';
      text = `Hi. This is the qmail-send program at mail.${domainOf(rcpt)}.\nI'm afraid I wasn't able to deliver your message to the following addresses.\nThis is a permanent error; I've given up. Sorry it didn't work out.\n\n<${rcpt}>:\nSorry, no mailbox here by that name. (#5.1.1)\n\n--- Below this line is a copy of the message.\n\n${original.toString('utf8')}`;
      st = '';
      report = false;
      trap = 'class 2: qmail failure notice (no multipart/report, the original inline)';
  }
  const mail: Mail = {
    from,
    to: [INTAKE],
    subject,
    at,
    zone: 120,
    client: 'system',
    messageId: messageIdFor('system', from.address, random),
    returnPath: '',
    headers: ['Auto-Submitted: auto-replied'],
    text,
    ...(report && { report: { status: st, original, headersOnly: kind === 'delayed' } }),
  };
  return { bytes: assemble(mail, 'en', random), truth: NOBODY, trap, source: from.address, tag: 'dsn' };
}

/** Class 1: a haulier's collection plan for one customer, written as a reply on another customer's thread. */
function haulierMail(h: Person, about: Booking, thread: Booking | undefined, random: Random): Written {
  const at = new Date(about.at.getTime() + between(random, 6, 30) * HOUR);
  const c = about.customer;
  const lines: Record<string, string> = {
    pl: `Dzień dobry,\n\nodbiór dla ${c.label}, zlecenie ${about.ref}: auto ${pick(random, ['KR 4711X', 'GD 2203K', 'WE 9K150'])} będzie ${dayAfter('pl', at, 1)} ok. godz. ${between(random, 6, 14)}:00.\n\nPozdrawiam\nDyspozytornia Baltic Road`,
    sv: `Hej,\n\nupphämtning för ${c.label}, order ${about.ref}: bil ${pick(random, ['ABC 123', 'XKT 55A', 'MLR 902'])} ${dayAfter('sv', at, 1)} ca kl. ${between(random, 6, 14)}.00.\n\nMvh\nNordsjö Spedition, trafikledningen`,
    it: `Buongiorno,\n\nritiro per ${c.label}, ordine ${about.ref}: motrice ${pick(random, ['FG 123 KL', 'EX 908 TT'])} ${dayAfter('it', at, 1)} ore ${between(random, 6, 14)}:00.\n\nSaluti\nTrasporti Tirreno – traffico`,
  };
  const fresh = lines[h.lang] ?? lines['pl']!;
  let text = fresh;
  let subject: string;
  let trap: string;
  if (thread && thread.customer.key !== c.key) {
    // The thread is the other customer's: its booking, quoted, with its reference and address.
    const q: Quoted = { from: thread.person, to: [INTAKE, { name: h.name, address: h.address }], subject: thread.subject, at: thread.at, text: thread.text };
    text = reply(h.client, h.lang, fresh, q, h.zone);
    subject = `${REPLY_PREFIX[h.lang][h.client] ?? 'RE: '}${thread.subject}`;
    trap = `class 1: haulier's plan for ${c.key} on ${thread.customer.key}'s thread`;
  } else {
    subject = h.lang === 'pl' ? `Odbiór ${about.ref}` : h.lang === 'sv' ? `Upphämtning ${about.ref}` : `Ritiro ${about.ref}`;
    trap = `haulier's collection plan naming the customer`;
  }
  const mail: Mail = { from: h, to: [INTAKE], subject, at, zone: h.zone, client: h.client, messageId: messageIdFor(h.client, h.address, random), text };
  return { bytes: assemble(mail, h.lang, random), truth: truthOf(c), trap, source: h.address, tag: h.id };
}

/** Class 1 and 8: a customer's own message whose quoted part names another customer (a shared-truck proposal the warehouse sent both). */
function sharedTruckReply(b: Booking, other: Booking, random: Random): Written {
  const p = b.person;
  const at = new Date(Math.max(b.at.getTime(), other.at.getTime()) + between(random, 4, 20) * HOUR);
  const proposal: Quoted = {
    from: { name: 'Ingrid Bakker', address: 'ingrid.bakker@warehouse.example' },
    to: [
      { name: p.name, address: p.address },
      { name: other.person.name, address: other.person.address },
    ],
    subject: `Shared truck ${other.ref} / ${b.ref}`,
    at: new Date(at.getTime() - 3 * HOUR),
    text: `Hello both,\n\n${other.customer.label} (${other.ref}, ${other.person.address}) and ${b.customer.label} (${b.ref}) both go to the same region on ${dayAfter('en', at, 2)}. Could you share one truck?\n\nIngrid Bakker\nwarehouse.example`,
  };
  const yes: Record<Lang, string> = {
    en: `Fine by us – put ${b.ref} on the shared truck.`,
    de: `Für uns in Ordnung – bitte ${b.ref} auf den gemeinsamen LKW.`,
    it: `Per noi va bene, mettete l'ordine ${b.ref} sul camion condiviso.`,
    pl: `Dla nas w porządku – proszę dołączyć ${b.ref} do wspólnego auta.`,
    sv: `Det går bra för oss – lägg ${b.ref} på den gemensamma bilen.`,
    pt: `Por nós está bem – coloquem a ${b.ref} no camião partilhado.`,
  };
  const text = reply(p.client, p.lang, `${yes[p.lang]}\n\n${signature(p, b.customer)}`, proposal, p.zone);
  const mail: Mail = {
    from: p,
    to: [INTAKE],
    cc: [{ name: 'Ingrid Bakker', address: 'ingrid.bakker@warehouse.example' }],
    subject: `${REPLY_PREFIX[p.lang][p.client] ?? 'Re: '}${proposal.subject}`,
    at,
    zone: p.zone,
    client: p.client,
    messageId: messageIdFor(p.client, p.address, random),
    text,
  };
  return {
    bytes: assemble(mail, p.lang, random),
    truth: truthOf(b.customer),
    trap: `class 8: ${b.customer.key}'s reply quoting ${other.customer.key}'s reference and address`,
    source: p.address,
    tag: `${p.id}-shared`,
  };
}

/** Class 3: a look-alike domain forwards a "customer's" mail, with a forged header block of the real one. */
function forgedForward(victim: Booking, lookalike: string, random: Random): Written {
  const at = new Date(victim.at.getTime() + between(random, 20, 60) * HOUR);
  const sender: Mailbox = { name: victim.person.name, address: `${victim.person.address.split('@')[0]}@${lookalike}` };
  const q: Quoted = {
    from: victim.person,
    to: [INTAKE],
    subject: `Invoice ${victim.ref}`,
    at: new Date(at.getTime() - DAY_MS),
    text: `Please note our new bank details for all invoices from now on, including ${victim.ref}:\nIBAN GB12 NWBK 6016 1331 9268 19\n\n${victim.person.name}`,
  };
  const client = pick(random, ['outlook', 'gmail'] as const);
  const text = forward(client, `Forwarding as discussed – please update before paying ${victim.ref}.`, q, sender.name);
  const mail: Mail = {
    from: sender,
    to: [INTAKE],
    subject: `${FORWARD_PREFIX[client]}Invoice ${victim.ref}`,
    at,
    zone: victim.person.zone,
    client,
    messageId: messageIdFor(client, sender.address, random),
    text,
  };
  return {
    bytes: assemble(mail, victim.person.lang, random),
    truth: NOBODY,
    trap: `class 3: forged forward from ${lookalike} quoting ${victim.customer.key}`,
    source: sender.address,
    tag: 'lookalike',
  };
}

/** Class 4: free mail under a customer's name, quoting its real reference. */
function nameSpoof(victim: Booking, random: Random): Written {
  const at = new Date(victim.at.getTime() + between(random, 10, 50) * HOUR);
  const domain = pick(random, FREEMAIL);
  const sender: Mailbox = {
    name: pick(random, [victim.person.name, `${victim.customer.label}`, `${victim.person.name} (${victim.customer.label})`]),
    address: `${victim.customer.domain.split('.')[0]!.replace(/-/g, '')}.${pick(random, ['accounts', 'logistics', 'office'])}@${domain}`,
  };
  const text = `Hello,\n\nregarding ${victim.ref}: please release the goods to our new collection agent, who will call you today. Reply only to this address, my office mail is down.\n\n${victim.person.name}\n${victim.customer.label}\n\nSent from my phone`;
  const mail: Mail = {
    from: sender,
    to: [INTAKE],
    subject: `URGENT ${victim.ref} release`,
    at,
    zone: victim.person.zone,
    client: 'gmail-android',
    messageId: messageIdFor('gmail-android', sender.address, random),
    text,
  };
  return {
    bytes: assemble(mail, 'en', random),
    truth: NOBODY,
    trap: `class 4: display-name spoof on ${domain} quoting ${victim.customer.key}'s reference`,
    source: sender.address,
    tag: 'spoof',
  };
}

/** Class 4 (authentication): the customer's own domain in From, failing SPF, DKIM and DMARC. */
function dmarcFail(victim: Booking, random: Random): Written {
  const at = new Date(victim.at.getTime() + between(random, 10, 50) * HOUR);
  const domain = victim.customer.domain;
  const mail: Mail = {
    from: { name: victim.person.name, address: victim.person.address },
    to: [INTAKE],
    subject: `Change of delivery address ${victim.ref}`,
    at,
    zone: victim.person.zone,
    client: 'system',
    messageId: messageIdFor('system', 'x@mailer.example', random),
    returnPath: `bounce-${hex(random, 6)}@mailer.example`,
    headers: [
      `Authentication-Results: mx1.warehouse.example; spf=fail (domain of ${domain} does not designate 203.0.113.${between(random, 2, 250)} as permitted sender) smtp.mailfrom=${domain}; dkim=none; dmarc=fail (p=reject) header.from=${domain}`,
    ],
    text: `Hi,\n\nplease deliver ${victim.ref} to our new site instead (address to follow). Don't call the office, they don't know yet.\n\n${victim.person.name}`,
  };
  return {
    bytes: assemble(mail, 'en', random),
    truth: NOBODY,
    trap: `class 4: DMARC failure in the name of ${victim.customer.key}`,
    source: victim.person.address,
    tag: 'dmarc-fail',
  };
}

/** Class 5: a free-mail person who books for two customers, or who has moved from one to another. */
function freeMailBooking(who: Person, c: Customer, at: Date, random: Random, trap: string, note = ''): Written {
  const ref = c.ref(between(random, 0, 9_999_999));
  const text = `${pick(random, GREET[who.lang])}\n\n${note}${bookingText(who.lang, between(random, 3, 20), pick(random, c.goods), dayAfter(who.lang, at, 3), `${ref} (${c.label})`)}\n\n${pick(random, CLOSE[who.lang])}\n${who.name}${MOBILE[who.client]?.[who.lang] ? `\n\n${MOBILE[who.client]![who.lang]}` : ''}`;
  const mail: Mail = {
    from: who,
    to: [INTAKE],
    subject: `${c.label.split(' ')[0]} – ${BOOKING_SUBJECT[who.lang](ref)}`,
    at,
    zone: who.zone,
    client: who.client,
    messageId: messageIdFor(who.client, who.address, random),
    text,
  };
  return { bytes: assemble(mail, who.lang, random), truth: truthOf(c), trap, source: who.address, tag: who.id };
}

/** Class 5: a member's post to the Google Group, cc intake: From rewritten "via" the group, Reply-To the member. */
function groupPost(b: Booking, random: Random): Written {
  const p = b.person;
  const at = new Date(b.at.getTime() + between(random, 2, 30) * HOUR);
  const mail: Mail = {
    from: { name: `'${p.name}' via ${GROUP.name}`, address: GROUP.address },
    to: [{ name: GROUP.name, address: GROUP.address }],
    cc: [INTAKE],
    replyTo: { name: p.name, address: p.address },
    subject: `[${GROUP.name}] Cold store space week ${Math.floor((at.getTime() - FIRST_MONDAY) / (7 * DAY_MS)) + 15} – ${b.ref}`,
    at,
    zone: p.zone,
    client: 'gmail',
    messageId: messageIdFor(p.client, p.address, random),
    returnPath: `${GROUP.id.split('.')[0]}+bncBC${b64ish(random, 20)}@googlegroups.com`,
    headers: [
      `X-Original-Sender: ${p.address}`,
      `X-Original-Authentication-Results: mx.google.com; spf=pass smtp.mailfrom=${p.address}`,
      'Precedence: list',
      'Mailing-list: list nordic-coldchain-ops@googlegroups.com; contact nordic-coldchain-ops+owners@googlegroups.com',
      `List-ID: <${GROUP.id}>`,
      `List-Post: <https://groups.google.com/group/nordic-coldchain-ops/post>, <mailto:${GROUP.address}>`,
      `List-Help: <https://groups.google.com/support/>, <mailto:nordic-coldchain-ops+help@googlegroups.com>`,
      `List-Unsubscribe: <mailto:googlegroups-manage+1234567890+unsubscribe@googlegroups.com>, <https://groups.google.com/group/nordic-coldchain-ops/subscribe>`,
    ],
    text: `Hi all (and intake in cc),\n\nfor ${b.customer.label} we need frozen space for ${b.ref} next week – ${between(random, 4, 20)} pallets at -18 °C. Intake, please book it for us.\n\n${signature(p, b.customer)}\n\n--\nYou received this message because you are subscribed to the Google Groups "${GROUP.name}" group.\nTo unsubscribe from this group and stop receiving emails from it, send an email to nordic-coldchain-ops+unsubscribe@googlegroups.com.`,
  };
  return {
    bytes: assemble(mail, 'en', random),
    truth: truthOf(b.customer),
    trap: `class 5: list post via the Google Group for ${b.customer.key}`,
    source: p.address,
    tag: 'group',
  };
}

/** Class 5: a customer's mail relayed by a forwarding service: the envelope sender SRS-rewritten, new each time. */
function srsBooking(b: Booking, random: Random): Written {
  const p = b.person;
  const srs = `SRS0=${b64ish(random, 4)}=${b64ish(random, 2).toUpperCase()}=${domainOf(p.address)}=${p.address.split('@')[0]}@relay.mailforward.example`;
  const mail: Mail = {
    from: p,
    to: [INTAKE],
    subject: b.subject,
    at: b.at,
    zone: p.zone,
    client: p.client,
    messageId: b.messageId,
    returnPath: srs,
    headers: [`X-Forwarded-For: ${p.address} ${INTAKE.address}`, `X-Original-To: booking@warehouse-forward.example`],
    text: b.text,
  };
  return {
    bytes: assemble(mail, p.lang, random),
    truth: truthOf(b.customer),
    trap: 'class 5: SRS-rewritten envelope sender (forwarding service)',
    source: p.address,
    tag: `${p.id}-srs`,
  };
}

/** The group's own mail, and other nobody's mail: newsletters, a ticket acknowledgement, notices. */
function nobodysMail(
  kind: 'group-digest' | 'newsletter' | 'ticket' | 'it-notice' | 'portal-news' | 'linkedin',
  at: Date,
  random: Random,
  about?: Booking,
): Written {
  let mail: Mail;
  let trap: string;
  switch (kind) {
    case 'group-digest':
      mail = {
        from: { name: GROUP.name, address: 'noreply-apps-scripts-notifications@google.com' },
        to: [INTAKE],
        subject: `Abridged summary of nordic-coldchain-ops@googlegroups.com - ${between(random, 2, 9)} updates in ${between(random, 1, 4)} topics`,
        at,
        zone: 0,
        client: 'system',
        messageId: messageIdFor('system', 'x@google.com', random),
        headers: ['Precedence: bulk', `List-ID: <${GROUP.id}>`, 'Auto-Submitted: auto-generated'],
        text: `nordic-coldchain-ops@googlegroups.com\n\nTopic digest\n- Cold store space week ${between(random, 14, 20)}\n- Driver waiting times at Rotterdam\n\nYou received this digest because you're subscribed to updates for this group.`,
      };
      trap = "class 5: the Google Group's own digest";
      break;
    case 'newsletter':
      mail = {
        from: { name: 'Baltic Road Newsletter', address: 'news@mail.balticroad.example' },
        to: [INTAKE],
        subject: pick(random, ['Nowe połączenia Gdańsk–Rotterdam / New Gdańsk–Rotterdam lanes', 'Baltic Road: fuel surcharge May 2027']),
        at,
        zone: 120,
        client: 'system',
        messageId: messageIdFor('system', 'x@mail.balticroad.example', random),
        headers: [
          'Precedence: bulk',
          'List-Unsubscribe: <https://mail.balticroad.example/u/abc>',
          'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
          'X-Mailer: MailChimp Mailer - **CID123abc**',
        ],
        text: 'Dear partner,\n\nfrom 1 May our fuel surcharge changes. Read more on our website.\n\nUnsubscribe | Update preferences',
        html: true,
      };
      trap = "a haulier's newsletter";
      break;
    case 'ticket': {
      const ticket = between(random, 100000, 999999);
      const c = about?.customer;
      mail = {
        from: { name: `${c ? c.label : 'Support'} Service Desk`, address: `support@${c ? c.domain : 'dockslot.example'}` },
        to: [INTAKE],
        subject: `[Ticket #${ticket}] Received: ${about ? about.confirmation.subject : 'your request'}`,
        at,
        zone: 120,
        client: 'system',
        messageId: messageIdFor('system', `x@${c ? c.domain : 'dockslot.example'}`, random),
        returnPath: '',
        headers: ['Auto-Submitted: auto-generated', 'X-Auto-Response-Suppress: All', 'X-Mailer: Zendesk Mailer'],
        text: `##- Please type your reply above this line -##\n\nYour request (#${ticket}) has been received and is being reviewed by our support staff.\n\nTo add additional comments, reply to this email.\n\n${about ? `Subject: ${about.confirmation.subject}` : ''}\n\nThis email is a service from ${c ? c.label : 'DockSlot'} Support.`,
      };
      trap = `class 2: ticket-system acknowledgement${c ? ` from ${c.key}'s service desk` : ''}`;
      break;
    }
    case 'it-notice':
      mail = {
        from: { name: 'IT Service Desk', address: 'servicedesk@warehouse.example' },
        to: [INTAKE],
        subject: 'Your mailbox intake@ is almost full',
        at,
        zone: 120,
        client: 'system',
        messageId: messageIdFor('system', 'x@warehouse.example', random),
        headers: ['Auto-Submitted: auto-generated'],
        text: 'Your mailbox has reached 92% of its quota. Please archive old messages.\n\nIT Service Desk',
      };
      trap = "the warehouse's own IT notice";
      break;
    case 'portal-news':
      mail = {
        from: PORTAL,
        to: [INTAKE],
        subject: 'DockSlot: planned maintenance Sunday 02:00–04:00',
        at,
        zone: 120,
        client: 'system',
        messageId: messageIdFor('system', PORTAL.address, random),
        headers: ['Auto-Submitted: auto-generated', 'Precedence: bulk'],
        text: 'Dear DockSlot user,\n\nDockSlot will be unavailable on Sunday from 02:00 to 04:00 CEST for maintenance.\n\nThe DockSlot team',
      };
      trap = "the portal's own maintenance notice";
      break;
    default:
      mail = {
        from: { name: 'LinkedIn', address: 'messages-noreply@linkedin.com' },
        to: [INTAKE],
        subject: `${pick(random, ['Elin', 'Marco', 'Rita'])}, you appeared in 9 searches this week`,
        at,
        zone: 0,
        client: 'system',
        messageId: messageIdFor('system', 'x@linkedin.com', random),
        headers: ['Precedence: bulk', 'List-Unsubscribe: <https://www.linkedin.com/e/v2?e=abc>'],
        text: 'See who is looking at your profile.\n\nUnsubscribe',
        html: true,
      };
      trap = 'a social network notification';
  }
  return { bytes: assemble(mail, 'en', random), truth: NOBODY, trap, source: mail.from.address, tag: kind };
}

/** The slot portal writes for several customers, naming the customer and its reference in its own text. */
function portalBooking(b: Booking, random: Random): Written {
  const at = new Date(b.at.getTime() + between(random, 1, 12) * HOUR);
  const slot = `${dayAfter('en', at, 2)} ${between(random, 6, 16)}:${pick(random, ['00', '30'])}`;
  const mail: Mail = {
    from: PORTAL,
    to: [INTAKE],
    subject: `New slot booked: ${b.customer.label} – ${b.ref}`,
    at,
    zone: 120,
    client: 'system',
    messageId: messageIdFor('system', PORTAL.address, random),
    text: `A new unloading slot was booked on DockSlot.\n\nCompany: ${b.customer.label}\nBooked by: ${b.person.name}\nReference: ${b.ref}\nSlot: ${slot}\n\nThis message was sent by DockSlot on behalf of ${b.customer.label}.`,
    html: true,
  };
  return {
    bytes: assemble(mail, 'en', random),
    truth: truthOf(b.customer),
    trap: 'portal writing for several customers, naming the customer',
    source: PORTAL.address,
    tag: 'dockslot',
  };
}

// ---------------------------------------------------------------------------------------------
// The plan: six weeks, customers' bookings and what follows them, then the noise over them.

const workday = (week: number, random: Random): Date => {
  const day = between(random, 0, 4);
  return new Date(FIRST_MONDAY + (week - 1) * 7 * DAY_MS + day * DAY_MS + between(random, 6 * 60, 16 * 60) * 60_000);
};

function plan(random: Random): Planned[] {
  const planned: Planned[] = [];
  const add = (at: Date, write: (r: Random) => Written) => planned.push({ at, write });
  const bookings: Booking[][] = Array.from({ length: WEEKS + 1 }, () => []);
  const firstSeen = new Set<string>();

  for (let week = 1; week <= WEEKS; week++) {
    for (const c of CUSTOMERS.filter((x) => x.arrives <= week)) {
      const n = between(random, c.bookings[0], c.bookings[1]);
      for (let i = 0; i < n; i++) {
        let at = workday(week, random);
        const first = !firstSeen.has(c.key);
        // A late customer's first message opens its week: before anyone else writes for it.
        if (first && c.arrives > 1) at = new Date(FIRST_MONDAY + (week - 1) * 7 * DAY_MS + 8 * HOUR + CUSTOMERS.indexOf(c) * 600_000);
        const b = makeBooking(c, first ? c.people[0]! : pick(random, c.people), at, random);
        bookings[week]!.push(b);
        const roll = random();
        if (first) {
          firstSeen.add(c.key);
          add(b.at, (r) => bookingMail(b, r, c.arrives > 1));
        } else if (roll < 0.12) {
          const staff = pick(random, STAFF);
          const asAttachment = random() < 0.25;
          add(new Date(b.at.getTime() + 2 * HOUR), (r) => staffForward(b, staff, r, asAttachment));
        } else if (roll < 0.25 && ['ferretti-alimentari', 'krakowskie-przetwory', 'conservas-atlantico'].includes(c.key)) {
          add(b.at, (r) => srsBooking(b, r));
        } else {
          add(b.at, (r) => bookingMail(b, r, false));
        }
        const after = random();
        if (after < 0.24) add(new Date(b.confirmation.at.getTime() + 3 * HOUR), (r) => confirmationReply(b, r));
        else if (after < 0.4 && !first) add(new Date(b.confirmation.at.getTime() + 120_000), (r) => outOfOffice(b, r));
        else if (after < 0.47 && !first) add(new Date(b.confirmation.at.getTime() + 600_000), (r) => bounce(b, r));
        else if (after < 0.51 && !first)
          add(new Date(b.confirmation.at.getTime() + 900_000), (r) => nobodysMail('ticket', new Date(b.confirmation.at.getTime() + 900_000), r, b));
      }
    }
    const week_ = bookings[week]!;
    const known = (b: Booking) => b.customer.arrives < week || b.at.getTime() > FIRST_MONDAY + (week - 1) * 7 * DAY_MS + DAY_MS;
    // Hauliers: two or three plans a week, half on another customer's thread (class 1).
    for (let i = 0; i < between(random, 2, 3); i++) {
      const about = pick(random, week_.filter(known));
      const h = pick(random, HAULIERS);
      const others = week_.filter((b) => b.customer.key !== about.customer.key && b.at < about.at);
      const thread = random() < 0.6 && others.length > 0 ? pick(random, others) : undefined;
      add(new Date(about.at.getTime() + 8 * HOUR), (r) => haulierMail(h, about, thread, r));
    }
    // The portal, once or twice.
    for (let i = 0; i < between(random, 1, 2); i++) {
      const b = pick(random, week_.filter(known));
      add(new Date(b.at.getTime() + 3 * HOUR), (r) => portalBooking(b, r));
    }
    // A shared-truck reply (classes 1 and 8) most weeks.
    if (week >= 2 && random() < 0.85) {
      const [a, o] = [pick(random, week_.filter(known)), pick(random, week_.filter(known))];
      if (a.customer.key !== o.customer.key) add(new Date(Math.max(a.at.getTime(), o.at.getTime()) + 10 * HOUR), (r) => sharedTruckReply(a, o, r));
    }
    // Class 5: the Google Group's members (Fjord, Björkwall, later Östra Hamnen).
    const members = week_.filter((b) => ['fjord-seafood', 'bjorkwall-tra', 'ostra-hamnen'].includes(b.customer.key) && known(b));
    if (members.length > 0) {
      const b = pick(random, members);
      add(new Date(b.at.getTime() + 5 * HOUR), (r) => groupPost(b, r));
    }
    if (week % 2 === 0) add(workday(week, random), (r) => nobodysMail('group-digest', workday(week, r), r));
    // Class 5: Marta books for Krakowskie Przetwory, and from week 4 for Mazur Kosmetyki too.
    add(workday(week, random), (r) =>
      freeMailBooking(FREELANCER, customer('krakowskie-przetwory'), workday(week, r), r, 'class 5: free-mail address booking for two customers'),
    );
    if (week >= 4)
      add(new Date(FIRST_MONDAY + (week - 1) * 7 * DAY_MS + 3 * DAY_MS + 10 * HOUR), (r) =>
        freeMailBooking(
          FREELANCER,
          customer('mazur-kosmetyki'),
          new Date(FIRST_MONDAY + (week - 1) * 7 * DAY_MS + 3 * DAY_MS + 10 * HOUR),
          r,
          'class 5: free-mail address booking for two customers',
        ),
      );
    // Class 5: Giulia books for Ferretti, then (week 4 on) for Tessitura Brembo, where she moved.
    if (week <= 3)
      add(workday(week, random), (r) =>
        freeMailBooking(MOVER, customer('ferretti-alimentari'), workday(week, r), r, 'class 5: free-mail address of a person before her move'),
      );
    else {
      const at = new Date(FIRST_MONDAY + (week - 1) * 7 * DAY_MS + 2 * DAY_MS + 9 * HOUR);
      add(at, (r) =>
        freeMailBooking(
          MOVER,
          customer('tessitura-brembo'),
          at,
          r,
          'class 5: free-mail address of a person who moved to another customer',
          week === 4 ? 'da questa settimana lavoro per Tessitura Brembo. ' : '',
        ),
      );
    }
    // Classes 3 and 4: impostors, from week 2.
    if (week >= 2) {
      const victims = week_.filter((b) => LOOKALIKES.some((l) => l.victim === b.customer.key));
      if (victims.length > 0 && random() < 0.8) {
        const v = pick(random, victims);
        add(new Date(v.at.getTime() + DAY_MS), (r) => forgedForward(v, LOOKALIKES.find((l) => l.victim === v.customer.key)!.domain, r));
      }
      const v2 = pick(random, week_.filter(known));
      if (random() < 0.8) add(new Date(v2.at.getTime() + 20 * HOUR), (r) => nameSpoof(v2, r));
      if (week === 3 || week === 5) {
        const v3 = pick(
          random,
          week_.filter((b) => b.customer.seeded),
        );
        add(new Date(v3.at.getTime() + 30 * HOUR), (r) => dmarcFail(v3, r));
      }
    }
    // Plain noise.
    for (let i = 0; i < between(random, 1, 2); i++) add(workday(week, random), (r) => nobodysMail('newsletter', workday(week, r), r));
    if (week === 2 || week === 5) add(workday(week, random), (r) => nobodysMail('it-notice', workday(week, r), r));
    if (week === 3 || week === 6) add(workday(week, random), (r) => nobodysMail('portal-news', workday(week, r), r));
    if (random() < 0.5) add(workday(week, random), (r) => nobodysMail('linkedin', workday(week, r), r));
  }
  const end = FIRST_MONDAY + WEEKS * 7 * DAY_MS;
  return planned.filter((p) => p.at.getTime() < end).sort((a, b) => a.at.getTime() - b.at.getTime());
}

export interface WrittenFreshStream {
  readonly dir: string;
  readonly stream: Stream;
  readonly bytes: number;
}

/** Write the fresh stream into `dir` (replacing its email/): the messages and stream.json. Deterministic. */
export function writeFreshStream(dir: string): WrittenFreshStream {
  const random = mulberry32(FRESH_SEED);
  const { stream, bytes } = writeEmailStream(dir, plan(random), random, {
    description:
      "The fresh stream: six weeks of an intake mailbox generated apart from the trap scenario and the mixed stream (its own cast, mail programs, languages and plan; issue 35's classes among ordinary mail), with the ground truth the trusting operator answers from. Generated by stack/src/demo/make-fresh-stream.ts into a temporary folder; never committed.",
    firstMonday: FIRST_MONDAY,
    weeks: WEEKS,
  });
  return { dir, stream, bytes };
}

/** How many messages of each class, week by week: a table for the docs and the console. */
export function describeFreshStream(stream: Stream): string {
  const rows = new Map<string, number[]>();
  for (const m of stream.messages) {
    const name = (m.trap ?? '')
      .replace(/ for [\w-]+ on [\w-]+'s thread/, " on another customer's thread")
      .replace(
        / (?:from|on) \S+\.\S+ quoting [\w-]+('s reference)?| in the name of [\w-]+| from [\w-]+'s service desk| for [\w-]+$|[\w-]+'s reply quoting [\w-]+'s/g,
        (s) => (s.includes('reply quoting') ? "a customer's reply quoting another's" : ''),
      );
    const row = rows.get(name) ?? Array.from({ length: WEEKS }, () => 0);
    row[m.week - 1]! += 1;
    rows.set(name, row);
  }
  const lines = [...rows].sort(([a], [b]) => a.localeCompare(b)).map(([name, row]) => `| ${name} | ${row.join(' | ')} | ${row.reduce((s, n) => s + n, 0)} |`);
  const nobody = stream.messages.filter((m) => m.agent === 'email' && m.truth.none).length;
  return `| class | ${Array.from({ length: WEEKS }, (_, i) => `w${i + 1}`).join(' | ')} | all |\n|---|${'---|'.repeat(WEEKS + 1)}\n${lines.join('\n')}\n\n${stream.messages.length} messages, ${nobody} of them nobody's.`;
}

async function main(argv: readonly string[]): Promise<void> {
  let out: string | undefined;
  let replay = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--replay') replay = true;
    else if (argv[i] === '--describe' || argv[i] === '--json') continue;
    else throw new Error(`Unknown option ${argv[i]}. Options: --out <dir> (required), --describe, --replay.`);
  }
  if (out === undefined) throw new Error('The fresh stream is not committed: say where to write it with --out <dir>.');
  const written = writeFreshStream(out);
  console.log(
    `wrote ${written.stream.messages.length} messages (${(written.bytes / 1024).toFixed(0)} KiB) and stream.json to ${relative(process.cwd(), written.dir) || '.'}`,
  );
  if (argv.includes('--describe')) console.log(`\n${describeFreshStream(written.stream)}`);
  if (replay) {
    const { replayOnFreshStack } = await import('./compare-scenario.ts');
    const { mixedReplay } = await import('./trap-replay.ts');
    const { formatEvidenceQuestions, formatSummary, formatTable, formatWrongDecisions } = await import('./report.ts');
    const result = await replayOnFreshStack('on', { ...mixedReplay(written.dir), name: 'The fresh stream (a trusting operator)' });
    console.log(`\n${formatTable(result)}\n\n${formatSummary(result)}\n\n${formatWrongDecisions(result)}\n\n${formatEvidenceQuestions(result)}`);
    if (argv.includes('--json')) writeFileSync(join(written.dir, 'results-on.json'), JSON.stringify(result, null, 1));
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.stack ?? error.message);
    process.exit(2);
  });
}
