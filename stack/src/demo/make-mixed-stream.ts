/**
 * Writes the mixed stream of issue 35: six weeks of an intake mailbox, built otherwise than the trap
 * scenario. The trap generator draws senders and lets each write; this one plans **shipments**
 * (a customer's booking, then perhaps its follow-up, the warehouse's confirmation answered by an
 * out-of-office reply or bounced back, a haulier's collection plan written as a reply on another
 * customer's thread) and lays **noise** over them (ticket systems, delivery reports, list notices,
 * look-alike forwards, spoofed display names, newsletters). Every message is written in its sender's
 * mail program (mixed-mail.ts) and language; the cast is mixed-cast.ts.
 *
 *   npx tsx stack/src/demo/make-mixed-stream.ts --out /tmp/mixed      (never committed: generated at test time)
 *
 * The ground truth (stream.json, the shape of the other streams) says, for each message, the
 * customer it belongs to, with the label of a customer the seed lacks (the clerk adds it), or
 * `none: true` for nobody's mail: automated replies, ticket acknowledgements, delivery reports, list
 * notices, newsletters and notices, and mail from impostors. A forged forward (a look-alike domain
 * quoting a real customer's header block) and a display-name spoof (free mail under a customer's
 * name, quoting its real reference) are nobody's: the impostor is not the customer, and a warehouse
 * that files a fraud under the customer it imitates has been fooled. `trap` names the class of
 * issue 35 each message carries ("class 1: …"), or the old class it repeats.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Random } from '@learnables/testing';
import { between, mulberry32, pick, weighted } from '@learnables/testing';
import type { MailAttachment, Mailbox } from './eml.ts';
import { tinyPdf } from './eml.ts';
import type { Lang, MailClient, MixedCustomer, MixedHaulier, MixedPerson, Staff, Zone } from './mixed-cast.ts';
import { CUSTOMERS, FIRST_MONDAY, HAULIERS, LIST, MIXED_SEED, PEOPLE, PORTAL, STAFF, WAREHOUSE, WEEKS, customerByKey, servesIn } from './mixed-cast.ts';
import type { Body, Envelope, Quoted } from './mixed-mail.ts';
import { assemble, dayName, forwardBody, headerLines, messageIdFor, mobileFooter, rfcDate, replyBody } from './mixed-mail.ts';
import type { EmailTruth, Stream, WrittenEmail } from './stream.ts';
import { DAY_MS, writeEmailStream } from './stream.ts';

const HOUR = 3_600_000;
const INTAKE: Mailbox = WAREHOUSE.intake;

/** One message, written: its bytes, whose it is, and the class it carries. */
type Written = WrittenEmail;

interface Planned {
  readonly at: Date;
  readonly week: number;
  readonly write: (random: Random) => Written;
}

const truthOf = (customer: MixedCustomer): EmailTruth => (customer.seeded ? { entry: customer.key } : { entry: customer.key, label: customer.label });
const NOBODY: EmailTruth = { entry: 'no-customer', none: true };
const plain = (label: string) => label.replace(/\s+(GmbH|BV|NV|S\.A\.|S\.L\.|Ltd|Mills|Supplies)$/u, '');

// ---------------------------------------------------------------------------------------------
// Words, per language.

const GREET: Record<Lang, readonly string[]> = {
  en: ['Hi team,', 'Hello,', 'Morning all,', 'Dear Polder Gate team,'],
  de: ['Guten Tag,', 'Hallo zusammen,', 'Sehr geehrte Damen und Herren,'],
  fr: ['Bonjour,', 'Bonjour à tous,'],
  nl: ['Goedemorgen,', 'Hallo,', 'Beste collega’s,'],
  es: ['Buenos días:', 'Hola,', 'Estimados:'],
};
const CLOSE: Record<Lang, readonly string[]> = {
  en: ['Thanks,', 'Kind regards,', 'Best,'],
  de: ['Mit freundlichen Grüßen', 'Viele Grüße', 'Danke und Gruß'],
  fr: ['Cordialement,', 'Bien à vous,'],
  nl: ['Met vriendelijke groet,', 'Groeten,', 'Mvg,'],
  es: ['Un saludo,', 'Saludos cordiales,', 'Gracias,'],
};

function bookingLine(lang: Lang, n: number, goods: string, day: string, ref: string | undefined): string {
  const r = ref === undefined ? '' : ref;
  switch (lang) {
    case 'de':
      return ref
        ? `bitte ${n} Paletten ${goods} für ${day} avisieren, unsere Referenz ${r}.`
        : `bitte ${n} Paletten ${goods} für ${day} avisieren; die Packliste folgt.`;
    case 'fr':
      return ref
        ? `merci de réserver un créneau pour ${n} palettes de ${goods} le ${day}, notre réf. ${r}.`
        : `merci de réserver un créneau pour ${n} palettes de ${goods} le ${day}.`;
    case 'nl':
      return ref
        ? `graag ${n} pallets ${goods} inplannen voor ${day}, onze referentie ${r}.`
        : `graag ${n} pallets ${goods} inplannen voor ${day}; de paklijst volgt.`;
    case 'es':
      return ref
        ? `os pedimos reservar descarga para ${n} palets de ${goods} el ${day}, nuestra ref. ${r}.`
        : `os pedimos reservar descarga para ${n} palets de ${goods} el ${day}.`;
    default:
      return ref
        ? `please book in ${n} pallets of ${goods} for ${day}, our ref ${r}.`
        : `please book in ${n} pallets of ${goods} for ${day}; packing list to follow.`;
  }
}
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** `days` working days after `at` (deliveries are booked Monday to Friday). */
function workday(at: Date, days: number): Date {
  let t = at.getTime();
  for (let left = days; left > 0; ) {
    t += DAY_MS;
    const weekday = new Date(t + HOUR).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return new Date(t);
}

function bookingSubject(lang: Lang, ref: string | undefined, random: Random): string {
  const withRef: Record<Lang, readonly ((r: string) => string)[]> = {
    en: [(r) => `Booking ${r}`, (r) => `Delivery booking – ${r}`, (r) => `Inbound ${r}`],
    de: [(r) => `Avis ${r}`, (r) => `Anlieferung ${r}`, (r) => `Lieferavis ${r} / Rampe`],
    fr: [(r) => `Réservation ${r}`, (r) => `Livraison ${r}`],
    nl: [(r) => `Aanmelding ${r}`, (r) => `Levering ${r}`, (r) => `Inslag ${r}`],
    es: [(r) => `Reserva descarga ${r}`, (r) => `Entrega ${r}`],
  };
  const without: Record<Lang, readonly string[]> = {
    en: ['Delivery next week', 'Booking request'],
    de: ['Anlieferung nächste Woche', 'Avis'],
    fr: ['Livraison semaine prochaine'],
    nl: ['Levering volgende week', 'Aanmelding'],
    es: ['Entrega próxima semana', 'Reserva'],
  };
  return ref === undefined ? pick(random, without[lang]) : pick(random, withRef[lang])(ref);
}

const replyPrefix = (lang: Lang, client: MailClient) =>
  client === 'notes' || client === 'thunderbird' ? 'Re: ' : { en: 'RE: ', de: 'AW: ', fr: 'RE : ', nl: 'RE: ', es: 'RE: ' }[lang];

/** The warehouse's confirmation of a booking: what replies quote, auto-replies answer and bounces return. */
function confirmation(customer: MixedCustomer, ref: string, to: Mailbox, at: Date, subject: string, random: Random): Quoted {
  const dock = between(random, 1, 18);
  const time = `${between(random, 7, 15)}:${pick(random, ['00', '30'])}`;
  return {
    from: INTAKE,
    to,
    subject: `RE: ${subject}`,
    at,
    text: `Hello,\n\nslot confirmed for ${ref}: dock ${dock}, ${dayName(workday(at, 2), 'en')} at ${time}. Please quote our booking number PGW-${between(random, 300000, 399999)} on the CMR.\n\n${WAREHOUSE.signature}`,
  };
}

function signature(person: { name: string; company: string }, lang: Lang, random: Random, client: MailClient): string {
  const lines = [pick(random, CLOSE[lang]), person.name, ...(person.company ? [person.company] : [])];
  const footer = mobileFooter(client, lang);
  return `${lines.join('\n')}${footer ? `\n\n${footer}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// The senders' addresses as mail systems rewrite them.

/** An SRS0 address (the Sender Rewriting Scheme): hash and timestamp change, so it never recurs day to day. */
function srsAddress(original: string, relay: string, at: Date, random: Random): string {
  const [local, domain] = original.split('@');
  const stamp = Math.floor(at.getTime() / DAY_MS) % 1024;
  const b32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return `SRS0=${Array.from({ length: 4 }, () => b32[between(random, 0, 31)]).join('')}=${b32[(stamp >> 5) & 31]}${b32[stamp & 31]}=${domain}=${local}@${relay}`;
}

interface Sent {
  readonly from: Mailbox;
  readonly client: MailClient;
  readonly zone: Zone;
  readonly extra: string[];
  readonly returnPath?: string;
  readonly relay: string;
  readonly how: string;
}

/** How a person's message leaves: its own address, through an SRS relay, or through the list. */
function sentBy(person: MixedPerson, at: Date, random: Random, viaList: boolean): Sent {
  const domain = person.address.split('@')[1]!;
  if (person.srs) {
    const rewritten = srsAddress(person.address, person.srs.relay, at, random);
    return {
      from: { name: person.name, address: rewritten },
      client: person.client,
      zone: person.zone,
      extra: [],
      returnPath: rewritten,
      relay: person.srs.relay,
      how: 'class 5: SRS-rewritten sender',
    };
  }
  if (viaList) {
    return {
      from: { name: `${person.name} via ${LIST.name}`, address: LIST.address },
      client: person.client,
      zone: person.zone,
      returnPath: LIST.bounces,
      relay: 'lists.benelux-inbound.example',
      extra: [
        `Reply-To: ${person.name} <${person.address}>`,
        `Sender: "${LIST.name}" <${LIST.bounces}>`,
        `List-Id: ${LIST.id}`,
        `List-Unsubscribe: <https://lists.benelux-inbound.example/mailman/options/${LIST.name}>, <mailto:${LIST.name}-request@lists.benelux-inbound.example?subject=unsubscribe>`,
        `List-Archive: <https://lists.benelux-inbound.example/pipermail/${LIST.name}/>`,
        `List-Post: <mailto:${LIST.address}>`,
        `List-Help: <mailto:${LIST.name}-request@lists.benelux-inbound.example?subject=help>`,
        'Precedence: list',
        'X-Mailman-Version: 2.1.39',
      ],
      how: 'class 5: list post ("via" rewriting, Reply-To)',
    };
  }
  const how = person.freeMail ? (person.serves.length > 1 ? 'class 5: free-mail person who works for two customers' : 'free-mail person') : 'ordinary mail';
  return { from: { name: person.name, address: person.address }, client: person.client, zone: person.zone, extra: [], relay: `mail.${domain}`, how };
}

function envelope(sent: Sent, subject: string, at: Date, random: Random, inReplyTo?: string): Envelope {
  return {
    from: sent.from,
    to: INTAKE,
    subject,
    at,
    zone: sent.zone,
    messageId: messageIdFor(sent.client, sent.from.address, random),
    ...(inReplyTo && { inReplyTo }),
    ...(sent.returnPath && { returnPath: sent.returnPath }),
    extra: sent.extra,
    relay: sent.relay,
  };
}

const htmlClient = (client: MailClient) => client === 'outlook' || client === 'gmail' || client === 'apple' || client === 'notes';

function packingList(customer: MixedCustomer, ref: string, random: Random): MailAttachment {
  const rows = Array.from({ length: between(random, 2, 5) }, (_, i) => `${i + 1};${pick(random, customer.goods)};${between(random, 1, 26)}`);
  return {
    filename: `${ref.replace(/\//g, '-')}_packlist.csv`,
    mediaType: 'text/csv',
    content: Buffer.from(`ref;${ref}\nline;goods;pallets\n${rows.join('\n')}\n`, 'utf8'),
  };
}

// ---------------------------------------------------------------------------------------------
// The messages.

interface Booking {
  readonly customer: MixedCustomer;
  readonly ref: string;
  readonly week: number;
  readonly at: Date;
  readonly subject: string;
  readonly author: Mailbox;
  readonly text: string;
}

/** A customer's booking, by one of its people: where the reference stands varies. */
function writeBooking(person: MixedPerson, b: Booking, viaList: boolean, random: Random, first = false): Written {
  const sent = sentBy(person, b.at, random, viaList);
  const lang = person.lang;
  const drawn = weighted(random, [
    { place: 'subject', weight: 5 },
    { place: 'body', weight: 3 },
    { place: 'attachment', weight: person.id === 'alder-planning' || person.id === 'alder-srs' ? 4 : 1 },
  ]).place;
  const place = first ? 'subject' : drawn;
  const n = between(random, 2, 26);
  const day = dayName(workday(b.at, between(random, 1, 4)), lang);
  const inBody = first ? false : place === 'subject' ? random() < 0.4 : place === 'body';
  // Free-mail people and list posts name the customer they write for: they write for more than one.
  const names = person.freeMail || viaList || person.srs || random() < 0.3;
  const forWhom = names
    ? {
        en: `For ${b.customer.label}: `,
        de: `Für ${b.customer.label}: `,
        fr: `Pour ${b.customer.label} : `,
        nl: `Voor ${b.customer.label}: `,
        es: `Para ${b.customer.label}: `,
      }[lang]
    : '';
  const line = `${forWhom}${forWhom ? bookingLine(lang, n, pick(random, b.customer.goods), day, inBody ? b.ref : undefined) : cap(bookingLine(lang, n, pick(random, b.customer.goods), day, inBody ? b.ref : undefined))}`;
  const text = `${pick(random, GREET[lang])}\n\n${line}\n\n${signature(person, lang, random, sent.client)}`;
  const subject = place === 'subject' ? b.subject : bookingSubject(lang, undefined, random);
  const attachments =
    place === 'attachment'
      ? [packingList(b.customer, b.ref, random)]
      : random() < 0.3
        ? [{ filename: `CMR_${between(random, 10000, 99999)}.pdf`, mediaType: 'application/pdf', content: tinyPdf('CMR') }]
        : [];
  const body: Body = { kind: 'text', text, html: htmlClient(sent.client), flowed: sent.client === 'thunderbird', attachments };
  return {
    bytes: assemble(headerLines(sent.client, envelope(sent, subject, b.at, random), random), body, random),
    truth: truthOf(b.customer),
    trap: first ? 'a new customer’s first message' : sent.how === 'ordinary mail' ? `booking (reference in the ${place})` : sent.how,
    source: sent.from.address,
    tag: person.id,
  };
}

/** The customer answers the warehouse's confirmation: top- or bottom-posted as its program does. */
function writeFollowUp(person: MixedPerson, b: Booking, confirm: Quoted, random: Random): Written {
  const sent = sentBy(person, confirm.at, random, false);
  const lang = person.lang;
  const said: Record<Lang, readonly string[]> = {
    en: ['Thanks, that works.', 'Can we move this to the afternoon?', 'Driver will be Marek, plate WX71 KTB.', 'One pallet less, please.'],
    de: ['Danke, passt.', 'Können wir auf den Nachmittag schieben?', 'Fahrer: Herr Nowak, Kennzeichen D-KF 4471.', 'Bitte eine Palette weniger.'],
    fr: ['Merci, c’est noté.', 'Pouvons-nous décaler à l’après-midi ?'],
    nl: ['Dank, akkoord.', 'Kan het naar de middag?', 'Chauffeur is Jan, kenteken 12-BXL-4.', 'Eén pallet minder graag.'],
    es: ['Gracias, perfecto.', '¿Podemos pasarlo a la tarde?', 'El chófer será Luis, matrícula 4471 KLM.'],
  };
  const mentions = random() < 0.45;
  const line = `${pick(random, said[lang])}${mentions ? ` (${b.ref})` : ''}`;
  const text = `${line}\n\n${signature(person, lang, random, sent.client)}`;
  const at = new Date(confirm.at.getTime() + between(random, 1, 20) * HOUR);
  const body: Body = {
    kind: 'text',
    text: replyBody(sent.client, lang, text, confirm, random),
    html: htmlClient(sent.client),
    flowed: sent.client === 'thunderbird',
  };
  const subject = `${replyPrefix(lang, sent.client)}${confirm.subject.replace(/^RE: /, '')}`;
  return {
    bytes: assemble(
      headerLines(sent.client, envelope(sent, subject, at, random, `${between(random, 100000, 999999)}@warehouse.example`), random),
      body,
      random,
    ),
    truth: truthOf(b.customer),
    trap: sent.client === 'thunderbird' ? 'reply, bottom-posted under the quote' : `reply, top-posted (${sent.client})`,
    source: sent.from.address,
    tag: `${person.id}-re`,
  };
}

/** An automatic answer to the warehouse's confirmation: out of office, in the person's program. Nobody's. */
function writeAutoReply(
  who: { name: string; address: string; client: MailClient; lang: Lang; zone: Zone },
  confirm: Quoted,
  random: Random,
  style: 'rfc3834' | 'x-autoreply' | 'subject-only',
): Written {
  const lang = who.lang;
  const prefix = {
    en: 'Automatic reply: ',
    de: 'Automatische Antwort: ',
    fr: 'Réponse automatique : ',
    nl: 'Automatisch antwoord: ',
    es: 'Respuesta automática: ',
  }[lang];
  const subject =
    who.client === 'notes'
      ? `Abwesenheitsnotiz: ${confirm.subject}`
      : who.client === 'thunderbird' || who.client === 'gmail'
        ? `Auto: ${confirm.subject}`
        : `${prefix}${confirm.subject}`;
  const back = dayName(new Date(confirm.at.getTime() + between(random, 3, 9) * DAY_MS), lang);
  const words: Record<Lang, string> = {
    en: `I am out of the office until ${back} with limited access to e-mail. For urgent bookings please contact logistics@ our office.`,
    de: `Ich bin bis ${back} nicht im Büro und lese meine E-Mails nur eingeschränkt. In dringenden Fällen wenden Sie sich bitte an die Zentrale.`,
    fr: `Je suis absente jusqu’au ${back}. Pour toute urgence, merci de contacter le standard.`,
    nl: `Ik ben afwezig tot en met ${back}. Voor dringende zaken kunt u de planning bellen.`,
    es: `Estaré fuera de la oficina hasta el ${back}. Para asuntos urgentes, contacte con la centralita.`,
  };
  const extra =
    style === 'rfc3834'
      ? [
          'Auto-Submitted: auto-replied',
          ...(who.client === 'outlook' ? ['X-Auto-Response-Suppress: All', 'X-MS-Exchange-Inbox-Rules-Loop: ' + who.address] : []),
        ]
      : style === 'x-autoreply'
        ? ['X-Autoreply: yes', 'Precedence: auto_reply']
        : [];
  const at = new Date(confirm.at.getTime() + between(random, 1, 9) * 60_000);
  // Some programs quote the message they answer; Exchange does not.
  const quotes = who.client !== 'outlook' && random() < 0.6;
  const text = quotes ? replyBody(who.client, lang, words[lang], confirm, random) : words[lang];
  const e: Envelope = {
    from: { name: who.name, address: who.address },
    to: INTAKE,
    subject,
    at,
    zone: who.zone,
    messageId: messageIdFor(who.client, who.address, random),
    inReplyTo: `${between(random, 100000, 999999)}@warehouse.example`,
    returnPath: style === 'rfc3834' ? '' : who.address,
    extra,
    relay: `mail.${who.address.split('@')[1]}`,
  };
  const trap =
    style === 'subject-only'
      ? 'class 2: out-of-office with no RFC 3834 header, subject only'
      : style === 'rfc3834'
        ? 'class 2: out-of-office (Auto-Submitted: auto-replied), the reference in its subject'
        : 'class 2: out-of-office (X-Autoreply), the reference in its subject';
  return { bytes: assemble(headerLines(who.client, e, random), { kind: 'text', text }, random), truth: NOBODY, trap, source: who.address, tag: 'auto-reply' };
}

/** A haulier's collection plan for one customer's shipment; often a reply on an older thread about another customer's. */
function writeHaulier(h: MixedHaulier, customer: MixedCustomer, ref: string, older: Booking | undefined, at: Date, random: Random): Written {
  const lang = h.lang;
  const named = random() < 0.7;
  const who = named ? `${plain(customer.label)} ${ref}` : ref;
  const plan: Record<Lang, string> = {
    en: `Collection for ${who} booked for ${dayName(workday(at, 1), 'en')}, ETA 10:30, ${between(random, 4, 33)} pallets.`,
    de: `Abholung für ${who} ist für ${dayName(workday(at, 1), 'de')} disponiert, ETA 10:30, ${between(random, 4, 33)} Paletten.`,
    fr: `Enlèvement pour ${who} prévu ${dayName(workday(at, 1), 'fr')}, arrivée vers 10h30, ${between(random, 4, 33)} palettes.`,
    nl: `Ophaling voor ${who} ingepland op ${dayName(workday(at, 1), 'nl')}, ETA 10:30, ${between(random, 4, 33)} pallets.`,
    es: `Recogida para ${who} programada el ${dayName(workday(at, 1), 'es')}, llegada 10:30, ${between(random, 4, 33)} palets.`,
  };
  const text = `${pick(random, GREET[lang])}\n\n${plan[lang]}\n\n${pick(random, CLOSE[lang])}\n${h.name}\n${h.company}`;
  let subject: string;
  let bodyText: string;
  let trap: string;
  if (older) {
    // A reply on the thread of another customer's shipment: its subject and its quote are that customer's.
    const quoted: Quoted = {
      from: INTAKE,
      to: { name: h.name, address: h.address },
      subject: `Collection ${older.ref} (${plain(older.customer.label)})`,
      at: new Date(older.at.getTime() + 3 * HOUR),
      text: `Hello,\n\nplease collect ${older.ref} for ${older.customer.label} from dock ${between(random, 1, 18)}.\n\n${WAREHOUSE.signature}`,
    };
    const keepsSubject = random() < 0.5;
    subject = keepsSubject
      ? `${replyPrefix(lang, h.client)}${quoted.subject}`
      : `${replyPrefix(lang, h.client)}${{ en: 'Collections', de: 'Abholungen', fr: 'Enlèvements', nl: 'Ophalingen', es: 'Recogidas' }[lang]} ${dayName(at, lang)}`;
    bodyText = replyBody(h.client, lang, text, quoted, random);
    trap = keepsSubject
      ? `class 1: haulier's reply for ${customer.key} on ${older.customer.key}'s thread (its reference in the kept subject and the quote)`
      : `class 1: haulier's reply for ${customer.key} quoting ${older.customer.key}'s reference`;
  } else {
    subject = `${{ en: 'Collection', de: 'Abholung', fr: 'Enlèvement', nl: 'Ophaling', es: 'Recogida' }[lang]} ${ref}`;
    bodyText = text;
    trap = 'haulier writing for several customers';
  }
  const sent: Sent = {
    from: { name: h.name, address: h.address },
    client: h.client,
    zone: h.zone,
    extra: [],
    relay: `mail.${h.address.split('@')[1]}`,
    how: trap,
  };
  const body: Body = { kind: 'text', text: bodyText, html: htmlClient(h.client) };
  return {
    bytes: assemble(
      headerLines(h.client, envelope(sent, subject, at, random, older ? `${between(random, 100000, 999999)}@warehouse.example` : undefined), random),
      body,
      random,
    ),
    truth: truthOf(customer),
    trap,
    source: h.address,
    tag: h.id,
  };
}

/** The portal's notice: names the customer, or quotes only its reference (an old class). */
function writePortal(customer: MixedCustomer, ref: string, at: Date, random: Random): Written {
  const named = random() < PORTAL.named;
  const slot = `${dayName(workday(at, 2), 'en')}, ${between(random, 7, 15)}:00`;
  const text = `YardBooker – booking confirmed\n\n${named ? `Client: ${customer.label}\n` : ''}Reference: ${ref}\nSite: Polder Gate Warehousing, Rotterdam\nSlot: ${slot}\nVehicle: ${pick(random, ['curtainsider', 'box trailer', 'reefer'])}\n\nThis message was sent automatically. Manage your bookings at https://yardbooker.example/b/${between(random, 100000, 999999)}`;
  const e: Envelope = {
    from: { name: PORTAL.name, address: PORTAL.address },
    to: INTAKE,
    subject: `Booking confirmed: ${ref}`,
    at,
    zone: 'uk',
    messageId: messageIdFor('system', PORTAL.address, random),
    extra: [],
    relay: 'out.yardbooker.example',
  };
  return {
    bytes: assemble(headerLines('system', e, random), { kind: 'text', text, html: true }, random),
    truth: truthOf(customer),
    trap: named ? 'portal writing for three customers, naming the customer' : 'portal writing for three customers, the reference only',
    source: PORTAL.address,
    tag: 'yardbooker',
  };
}

/** One of the warehouse's own staff forwards a customer's mail that reached them (an old class, in new layouts). */
function writeStaffForward(staff: Staff, person: MixedPerson, b: Booking, random: Random): Written {
  const notes: Record<Lang, readonly string[]> = {
    en: ['Came to me, please book in.', 'For intake.'],
    de: ['Bitte einbuchen.', 'Zur Info und Bearbeitung.'],
    fr: ['Pour traitement, merci.', 'Reçu par erreur, à réserver svp.'],
    nl: ['Graag inplannen.', 'Kwam bij mij binnen, graag oppakken.'],
    es: ['Para vosotros, gracias.', 'Me ha llegado a mí, ¿lo gestionáis?'],
  };
  const original: Quoted = {
    from: { name: person.name, address: person.address },
    to: { name: staff.name, address: staff.address },
    subject: b.subject,
    at: b.at,
    text: b.text,
  };
  const at = new Date(b.at.getTime() + between(random, 1, 5) * HOUR);
  const note = `${pick(random, notes[staff.lang])}\n\n${staff.name}\n${WAREHOUSE.signature.replace('intake@warehouse.example', staff.address)}`;
  const prefix = staff.client === 'notes' ? 'WG: ' : staff.client === 'outlook' ? 'FW: ' : 'Fwd: ';
  const text = forwardBody(staff.client, staff.lang, note, original, { name: staff.name, address: staff.address }, at);
  const e: Envelope = {
    from: { name: staff.name, address: staff.address },
    to: INTAKE,
    subject: `${prefix}${b.subject}`,
    at,
    zone: 'cet',
    messageId: messageIdFor(staff.client, staff.address, random),
    extra: [],
    relay: 'mail.warehouse.example (internal)',
  };
  return {
    bytes: assemble(headerLines(staff.client, e, random), { kind: 'text', text, html: htmlClient(staff.client) }, random),
    truth: truthOf(b.customer),
    trap: `forward by the warehouse's own staff (${staff.client})`,
    source: `${staff.address} forwarding ${person.address}`,
    tag: `fw-${staff.id}`,
  };
}

/** A look-alike domain forwards a forged message "from" a real customer's person, asking for money. Nobody's. */
function writeForgedForward(victim: MixedPerson, lookalike: Mailbox, ref: string, at: Date, random: Random): Written {
  const forged: Quoted = {
    from: { name: victim.name, address: victim.address },
    to: { name: 'Accounts', address: 'accounts@warehouse.example' },
    subject: `Updated bank details – ${ref}`,
    at: new Date(at.getTime() - 2 * DAY_MS),
    text: `Dear partner,\n\nplease note our new bank details for all open invoices, including ${ref}: IBAN GB${between(random, 10, 99)} MIDL ${between(random, 1000, 9999)} ${between(random, 1000, 9999)} ${between(random, 1000, 9999)}.\n\n${victim.name}\n${victim.company}`,
  };
  // The impostor's own words name no customer: the customer is only in the forged quoted block (class 3).
  // (A look-alike that names the customer in its own words is evidence by the issue's rule, and would
  // need a look-alike-domain rule the issue does not ask for.)
  const note = `Please see the request below and process the payment today, the account is blocked otherwise.\n\nRegards\n${lookalike.name}`;
  const e: Envelope = {
    from: lookalike,
    to: INTAKE,
    subject: `FW: ${forged.subject}`,
    at,
    zone: 'uk',
    messageId: messageIdFor('outlook', lookalike.address, random),
    extra: [],
    relay: `mail.${lookalike.address.split('@')[1]}`,
  };
  return {
    bytes: assemble(headerLines('outlook', e, random), { kind: 'text', text: forwardBody('outlook', 'en', note, forged, lookalike, at), html: true }, random),
    truth: NOBODY,
    trap: `class 3: forged forward from a look-alike domain quoting ${victim.address}`,
    source: lookalike.address,
    tag: 'forged-forward',
  };
}

/** Free mail under a customer's person's name, quoting the customer's real reference, asking to divert a delivery. Nobody's. */
function writeSpoof(victim: MixedPerson, freeMail: string, b: Booking, at: Date, random: Random): Written {
  const confirm = confirmation(b.customer, b.ref, { name: victim.name, address: victim.address }, new Date(b.at.getTime() + 2 * HOUR), b.subject, random);
  const text = `Urgent: please hold this delivery and release it only to our new carrier, who will call you today. I am travelling, reply to this address only.\n\n${victim.name}\nSent from my phone`;
  const e: Envelope = {
    from: { name: `${victim.name} (${plain(b.customer.label)})`, address: freeMail },
    to: INTAKE,
    subject: `RE: ${confirm.subject.replace(/^RE: /, '')}`,
    at,
    zone: 'uk',
    messageId: messageIdFor('gmail', freeMail, random),
    extra: [],
    relay: 'mail-sor-f41.google.example',
  };
  return {
    bytes: assemble(headerLines('gmail', e, random), { kind: 'text', text: replyBody('gmail', 'en', text, confirm, random), html: true }, random),
    truth: NOBODY,
    trap: `class 4: display-name spoof of ${victim.address} from free mail, quoting ${b.ref}`,
    source: freeMail,
    tag: 'spoof',
  };
}

/**
 * The customer's person's own address, forged outright from a server the domain does not allow: the
 * warehouse's server says so in `Authentication-Results` (RFC 8601: SPF and DMARC fail). Nobody's.
 */
function writeDmarcSpoof(victim: MixedPerson, b: Booking, at: Date, random: Random): Written {
  const domain = victim.address.split('@')[1]!;
  const confirm = confirmation(b.customer, b.ref, { name: victim.name, address: victim.address }, new Date(b.at.getTime() + 2 * HOUR), b.subject, random);
  const text = `Please change the delivery address for this order to our new cross-dock (details to follow) and confirm by return. Do not call the office, the lines are down.\n\n${victim.name}`;
  const e: Envelope = {
    from: { name: victim.name, address: victim.address },
    to: INTAKE,
    subject: `RE: ${confirm.subject.replace(/^RE: /, '')}`,
    at,
    zone: 'cet',
    messageId: messageIdFor('outlook', `x@vps-${between(random, 100, 999)}.hosting.invalid`, random),
    returnPath: `bounce@vps-${between(random, 100, 999)}.hosting.invalid`,
    extra: [
      `Authentication-Results: mx1.warehouse.example; spf=fail (sender IP is 203.0.113.${between(random, 2, 250)}) smtp.mailfrom=${domain}; dkim=none (message not signed) header.d=none; dmarc=fail action=quarantine header.from=${domain}`,
    ],
    relay: `vps-${between(random, 100, 999)}.hosting.invalid`,
  };
  return {
    bytes: assemble(headerLines('outlook', e, random), { kind: 'text', text: replyBody('outlook', 'en', text, confirm, random), html: true }, random),
    truth: NOBODY,
    trap: `class 4: ${victim.address} forged outright, DMARC and SPF failing (Authentication-Results)`,
    source: victim.address,
    tag: 'dmarc-fail',
  };
}

/** A bounce of the warehouse's confirmation: Postfix or Exchange, the original attached. Nobody's. */
function writeBounce(kind: 'postfix' | 'exchange' | 'remote', confirm: Quoted, at: Date, random: Random, headersOnly = false): Written {
  const rcpt = confirm.to.address;
  const origId = `${between(random, 100000, 999999)}@warehouse.example`;
  const original = `Return-Path: <${INTAKE.address}>\nFrom: ${INTAKE.name} <${INTAKE.address}>\nTo: ${confirm.to.name} <${rcpt}>\nSubject: ${confirm.subject}\nDate: ${rfcDate(confirm.at, 'cet')}\nMessage-ID: <${origId}>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=us-ascii\n${headersOnly ? '' : `\n${confirm.text}\n`}`;
  const mta = kind === 'remote' ? `mx1.${rcpt.split('@')[1]}` : 'mx1.warehouse.example';
  const status = `Reporting-MTA: dns; ${mta}\nArrival-Date: ${rfcDate(confirm.at, 'cet')}\n\nFinal-Recipient: rfc822; ${rcpt}\nOriginal-Recipient: rfc822;${rcpt}\nAction: failed\nStatus: 5.1.1\nRemote-MTA: dns; mail.${rcpt.split('@')[1]}\nDiagnostic-Code: smtp; 550 5.1.1 <${rcpt}>: Recipient address rejected: User unknown\n`;
  let from: Mailbox;
  let subject: string;
  let text: string;
  let trap: string;
  if (kind === 'exchange') {
    from = { name: 'Microsoft Outlook', address: 'MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@warehouse.example' };
    subject = `Undeliverable: ${confirm.subject}`;
    text = `Your message to ${rcpt} couldn't be delivered.\n\n${rcpt.split('@')[0]} wasn't found at ${rcpt.split('@')[1]}.\n\n${INTAKE.name}    Office 365    ${rcpt.split('@')[0]}\nAction Required\n\nUnknown To address\n\nHow to Fix It\nThe address may be misspelled or may not exist.`;
    trap = 'class 2: Exchange non-delivery report (multipart/report) of a confirmation with a reference';
  } else {
    from = { name: 'Mail Delivery System', address: kind === 'remote' ? `MAILER-DAEMON@mx1.${rcpt.split('@')[1]}` : 'MAILER-DAEMON@mx1.warehouse.example' };
    subject = 'Undelivered Mail Returned to Sender';
    text = `This is the mail system at host ${mta}.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients. It's attached below.\n\nFor further assistance, please send mail to postmaster.\n\n                   The mail system\n\n<${rcpt}>: host mail.${rcpt.split('@')[1]} said: 550 5.1.1 User unknown\n    (in reply to RCPT TO command)`;
    trap =
      kind === 'remote'
        ? `class 2: Postfix bounce from the customer's own mail server (${rcpt.split('@')[1]})`
        : `class 2: Postfix bounce (RFC 3464 multipart/report${headersOnly ? ', headers only' : ''})`;
  }
  const e: Envelope = {
    from,
    to: INTAKE,
    subject,
    at,
    zone: 'cet',
    messageId: messageIdFor('system', from.address, random),
    returnPath: '',
    extra: ['Auto-Submitted: auto-replied'],
    relay: mta,
  };
  return {
    bytes: assemble(headerLines('system', e, random), { kind: 'report', text, status, original, headersOnly }, random),
    truth: NOBODY,
    trap,
    source: from.address,
    tag: 'bounce',
  };
}

/** A ticket system's acknowledgement of the warehouse's mail, quoting its subject with the reference. Nobody's. */
function writeTicketAck(system: { name: string; address: string; lang: Lang }, aboutSubject: string, at: Date, random: Random): Written {
  const number = `${2027}0${between(random, 2, 3)}${between(random, 10, 28)}1000${between(random, 1000, 9999)}`;
  const de = system.lang === 'de';
  const subject = `[Ticket#${number}] ${de ? 'Eingangsbestätigung' : 'We received your request'}: ${aboutSubject}`;
  const text = de
    ? `Sehr geehrte Damen und Herren,\n\nvielen Dank für Ihre Nachricht. Ihre Anfrage wurde unter der Ticketnummer ${number} erfasst und wird schnellstmöglich bearbeitet.\n\nBitte antworten Sie nicht auf diese automatisch erzeugte E-Mail.\n\n${system.name}`
    : `Hello,\n\nthank you for contacting us. Your request has been logged as ticket ${number}; an agent will reply shortly.\n\nThis is an automated message; please do not reply.\n\n${system.name}`;
  const e: Envelope = {
    from: { name: system.name, address: system.address },
    to: INTAKE,
    subject,
    at,
    zone: 'cet',
    messageId: messageIdFor('system', system.address, random),
    extra: ['Auto-Submitted: auto-replied', 'X-OTRS-Loop: yes', 'Precedence: bulk'],
    relay: `mail.${system.address.split('@')[1]}`,
  };
  return {
    bytes: assemble(headerLines('system', e, random), { kind: 'text', text }, random),
    truth: NOBODY,
    trap: 'class 2: ticket-system acknowledgement quoting a reference in its subject',
    source: system.address,
    tag: 'ticket',
  };
}

/** Nobody's mail of the old classes and the list's own notices. */
function writeNotice(kind: 'newsletter' | 'it' | 'sales' | 'list-welcome' | 'list-reminder', at: Date, random: Random, mention?: MixedCustomer): Written {
  let from: Mailbox;
  let subject: string;
  let text: string;
  let extra: string[] = [];
  let trap: string;
  switch (kind) {
    case 'newsletter':
      from = { name: 'Cargo Pulse', address: 'news@cargopulse.example' };
      subject = `Cargo Pulse weekly: ${mention ? `${plain(mention.label)} expands Rotterdam volumes` : 'Red Sea rates ease again'}`;
      text = `This week in Cargo Pulse\n\n- ${mention ? `${mention.label} signs a new warehousing deal` : 'Spot rates fall for the third week'}\n- Rhine water levels: what shippers should plan for\n- Interview: automating the dock office\n\nUnsubscribe: https://cargopulse.example/u/${between(random, 10000, 99999)}`;
      extra = [
        'List-Id: Cargo Pulse weekly <weekly.cargopulse.example>',
        `List-Unsubscribe: <https://cargopulse.example/u/${between(random, 10000, 99999)}>`,
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        'Precedence: bulk',
      ];
      trap = mention ? 'newsletter naming a customer in a headline' : 'newsletter';
      break;
    case 'it':
      from = { name: 'Polder Gate IT', address: 'itdesk@warehouse.example' };
      subject = 'Gepland onderhoud / planned maintenance WMS';
      text = `Beste collega's,\n\nzaterdag van 06:00 tot 10:00 is het WMS niet beschikbaar.\n\nPolder Gate IT`;
      trap = "the warehouse's own notice";
      break;
    case 'sales':
      from = { name: 'Dockflow Software', address: 'hello@dockflow.example' };
      subject = 'Cut dock waiting times by 30%';
      text = `Hi,\n\nwarehouses like yours use Dockflow to plan docks automatically. Fifteen minutes for a demo next week?\n\nBest,\nEmma from Dockflow`;
      trap = "a vendor's sales mail";
      break;
    default:
      from = { name: `${LIST.name} owner`, address: LIST.owner };
      subject = kind === 'list-welcome' ? `Welcome to the "${LIST.name}" mailing list` : `${LIST.address.split('@')[1]} mailing list memberships reminder`;
      text =
        kind === 'list-welcome'
          ? `Welcome to the ${LIST.name}@${LIST.address.split('@')[1]} mailing list!\n\nTo post to this list, send your message to:\n\n  ${LIST.address}\n\nMembers include Sint-Baafs Foods, Hendrix Bloembollen and Alder Chemicals planning.`
          : `This is a reminder, sent out once a month, about your ${LIST.address.split('@')[1]} mailing list memberships.\n\nPasswords for intake@warehouse.example:\n\nList                                     Password // URL\n----                                     --------\n${LIST.address}                         ********`;
      extra = [
        `List-Id: ${LIST.id}`,
        `List-Unsubscribe: <mailto:${LIST.name}-request@lists.benelux-inbound.example?subject=unsubscribe>`,
        'Precedence: bulk',
        'X-Mailman-Version: 2.1.39',
        'Auto-Submitted: auto-generated',
      ];
      trap = 'class 5: the mailing list’s own notice';
  }
  const e: Envelope = {
    from,
    to: INTAKE,
    subject,
    at,
    zone: 'cet',
    messageId: messageIdFor('system', from.address, random),
    extra,
    relay: `mail.${from.address.split('@')[1]}`,
  };
  return {
    bytes: assemble(headerLines('system', e, random), { kind: 'text', text, html: kind === 'newsletter' }, random),
    truth: NOBODY,
    trap,
    source: from.address,
    tag: kind,
  };
}

// ---------------------------------------------------------------------------------------------
// The plan: shipments first, then the noise over them.

const WEEKDAY_WEIGHTS = [1, 2, 3, 4, 5].map((day) => ({ day, weight: day === 5 ? 16 : 21 }));

function moment(random: Random, week: number, day: number, from = 7.5, to = 17): Date {
  const midnight = FIRST_MONDAY + ((week - 1) * 7 + (day - 1)) * DAY_MS;
  // Local (CET) office hours, written as UTC.
  return new Date(midnight + Math.floor((from + random() * (to - from)) * 60) * 60_000 - HOUR + between(random, 0, 59) * 1000);
}
const later = (at: Date, hours: number) => new Date(at.getTime() + hours * HOUR);

function plan(random: Random): Planned[] {
  const planned: Planned[] = [];
  const add = (at: Date, week: number, write: (r: Random) => Written) => planned.push({ at, week, write });
  const bookings: Booking[] = [];
  const confirmations: { b: Booking; q: Quoted }[] = [];
  let autoReplies = 0;
  for (let week = 1; week <= WEEKS; week++) {
    for (const customer of CUSTOMERS) {
      if (customer.arrives > week) continue;
      const count = between(random, customer.bookings[0], customer.bookings[1]) + (customer.arrives === week && week > 1 ? 1 : 0);
      for (let i = 0; i < count; i++) {
        // A customer that arrives late introduces itself: its first message, on the Monday morning, is
        // its own people's, with the reference in the subject, before anyone else writes for it. (A
        // shared reference shape can only be seen as shared once that customer's reference was answered.)
        const first = customer.arrives > 1 && customer.arrives === week && i === 0;
        const writers = PEOPLE.filter((p) => servesIn(p, customer.key, week) && (!first || (!p.freeMail && !p.srs)));
        const channels = [
          ...writers.map((p) => ({ weight: p.weight, person: p as MixedPerson | undefined, portal: false })),
          ...(PORTAL.serves.some((k) => k === customer.key) && !first ? [{ weight: 3, person: undefined, portal: true }] : []),
        ];
        const channel = weighted(random, channels);
        const day = weighted(random, WEEKDAY_WEIGHTS).day;
        const at = first ? moment(random, week, 1, 8, 9.5) : moment(random, week, customer.arrives === week ? Math.max(2, day) : day);
        const ref = customer.ref(random);
        if (channel.portal || channel.person === undefined) {
          add(at, week, (r) => writePortal(customer, ref, at, r));
          continue;
        }
        const person = channel.person;
        const subject = bookingSubject(person.lang, ref, random);
        const b: Booking = {
          customer,
          ref,
          week,
          at,
          subject,
          author: { name: person.name, address: person.address },
          text: `${pick(random, GREET[person.lang])}\n\n${cap(bookingLine(person.lang, between(random, 2, 20), pick(random, customer.goods), dayName(workday(at, 3), person.lang), ref))}\n\n${person.name}\n${person.company}`,
        };
        bookings.push(b);
        // One booking in eight reached a colleague instead, who forwards it to intake.
        if (!person.freeMail && !person.srs && !first && random() < 0.14) {
          const staff = pick(random, STAFF);
          add(later(at, 1), week, (r) => writeStaffForward(staff, person, b, r));
        } else {
          const viaList = person.viaList === true && !first && random() < 0.5;
          add(at, week, (r) => writeBooking(person, b, viaList, r, first));
        }
        const q = confirmation(customer, ref, b.author, later(at, between(random, 1, 4)), subject, random);
        confirmations.push({ b, q });
        if (person.away?.includes(week)) {
          // Each mail system marks its auto-replies its own way: the styles in turn, so every one is in the stream.
          const style = (['rfc3834', 'x-autoreply', 'rfc3834', 'subject-only'] as const)[autoReplies++ % 4]!;
          add(later(q.at, 0.1), week, (r) => writeAutoReply(person, q, r, style));
        } else if (random() < 0.32) {
          const replier = writers.find((p) => p.address === person.address && !p.srs) ?? writers.find((p) => !p.srs && !p.viaList) ?? person;
          add(later(q.at, 5), week, (r) => writeFollowUp(replier, b, q, r));
        }
      }
    }
    // Hauliers' collection plans, half of them replies on an older thread of another customer's.
    for (const h of HAULIERS) {
      const active = h.serves.map(customerByKey).filter((c) => c.arrives <= week);
      for (let i = between(random, h.perWeek[0], h.perWeek[1]); i > 0; i--) {
        const at = moment(random, week, weighted(random, WEEKDAY_WEIGHTS).day);
        // A haulier collects for a customer the warehouse has already heard from.
        const known = active.filter((c) => bookings.some((b) => b.customer.key === c.key && b.at < at));
        if (known.length === 0) continue;
        const customer = pick(random, known);
        const recent = bookings.filter((b) => b.customer.key === customer.key && b.at < at);
        const ref = recent.length > 0 && random() < 0.7 ? pick(random, recent).ref : customer.ref(random);
        const others = bookings.filter((b) => b.customer.key !== customer.key && h.serves.includes(b.customer.key) && b.at < at);
        const older = others.length > 0 && random() < 0.5 ? pick(random, others.slice(-6)) : undefined;
        add(at, week, (r) => writeHaulier(h, customer, ref, older, at, r));
      }
      // The haulier's ticket system answers the warehouse's mail about a shipment.
      if (h.tickets && week % 2 === 0) {
        const about = bookings.filter((b) => h.serves.includes(b.customer.key) && b.week === week);
        if (about.length > 0) {
          const b = pick(random, about);
          const at = later(b.at, 6);
          const tickets = h.tickets;
          add(at, week, (r) => writeTicketAck({ ...tickets, lang: h.lang }, `Abholung ${b.ref}`, at, r));
        }
      }
    }
    // The haulier's dispatcher is away in week 3: the warehouse's mail about a Tidewater collection answers itself.
    if (week === 3) {
      const tw = bookings.filter((b) => b.customer.key === 'tidewater-paper').at(-1);
      if (tw) {
        const q: Quoted = {
          from: INTAKE,
          to: { name: 'Planning Van der Linden', address: 'planning@vdlinden-transport.example' },
          subject: `Ophalen ${tw.ref}`,
          at: later(tw.at, 4),
          text: `Hello,\n\nplease collect ${tw.ref} tomorrow.\n\n${WAREHOUSE.signature}`,
        };
        add(later(q.at, 0.05), week, (r) =>
          writeAutoReply(
            { name: 'Planning Van der Linden', address: 'planning@vdlinden-transport.example', client: 'outlook', lang: 'nl', zone: 'cet' },
            q,
            r,
            'rfc3834',
          ),
        );
      }
    }
  }
  // Noise, week by week: bounces, ticket acknowledgements, forged forwards, spoofs, notices.
  const confirmationIn = (week: number, customer?: string) =>
    confirmations.filter(({ b }) => b.week === week && (customer === undefined || b.customer.key === customer)).at(0);
  const bounces: [number, 'postfix' | 'exchange' | 'remote', string | undefined, boolean][] = [
    [1, 'postfix', 'kaufhaus-falkner', false],
    [2, 'exchange', 'sint-baafs-foods', false],
    [3, 'postfix', 'tidewater-paper', true],
    [4, 'remote', 'castellano-aceites', false],
    [5, 'exchange', 'hendrix-bloembollen', false],
    [6, 'postfix', 'quayside-spirits', false],
  ];
  for (const [week, kind, customer, headersOnly] of bounces) {
    // A bounce comes from a company's mail server, never a free-mail provider's.
    const company = (c?: string) =>
      confirmations
        .filter(({ b, q }) => b.week === week && (c === undefined || b.customer.key === c) && !PEOPLE.some((p) => p.freeMail && p.address === q.to.address))
        .at(0);
    const found = company(customer) ?? company();
    if (!found) continue;
    // The confirmation went to a mistyped address (or a person who has left), so it comes back.
    const wrong: Quoted = { ...found.q, to: { name: found.q.to.name, address: found.q.to.address.replace('@', '.old@') } };
    const at = later(found.q.at, 0.02);
    add(at, week, (r) => writeBounce(kind, wrong, at, r, headersOnly));
  }
  const kfHelp = { name: 'Kaufhaus Falkner Kundenservice', address: 'service@helpdesk.kaufhaus-falkner.example', lang: 'de' as Lang };
  for (const week of [3, 5]) {
    const found = confirmationIn(week, 'kaufhaus-falkner');
    if (found) add(later(found.q.at, 0.03), week, (r) => writeTicketAck(kfHelp, found.q.subject, later(found.q.at, 0.03), r));
  }
  const person = (id: string) => PEOPLE.find((p) => p.id === id)!;
  const forged: [number, string, Mailbox, string][] = [
    [2, 'kf-vogel', { name: 'Kaufhaus Falkner Buchhaltung', address: 'buchhaltung@kaufhaus-falkner.example-zahlung.invalid' }, 'kaufhaus-falkner'],
    [4, 'mg-hale', { name: 'Marigold Cosmetics Accounts', address: 'accounts@marigold-cosmetics.example.invalid' }, 'marigold-cosmetics'],
    [6, 'alder-planning', { name: 'Alder Chemicals Finance', address: 'finance@alder-chem.example.secure-invoice.invalid' }, 'alder-chemicals'],
  ];
  for (const [week, victim, lookalike, customer] of forged) {
    const ref = bookings.filter((b) => b.customer.key === customer && b.week <= week).at(-1)?.ref ?? customerByKey(customer).ref(random);
    const at = moment(random, week, between(random, 1, 5));
    add(at, week, (r) => writeForgedForward(person(victim), lookalike, ref, at, r));
  }
  const spoofs: [number, string, string, string][] = [
    [3, 'mg-hale', 'sophie.hale.marigold@gmail.com', 'marigold-cosmetics'],
    [5, 'kf-vogel', 'martina.vogel.falkner@gmail.com', 'kaufhaus-falkner'],
    [6, 'sbf-janssens', 'hanne.janssens.sbf@outlook.com', 'sint-baafs-foods'],
  ];
  for (const [week, victim, freeMail, customer] of spoofs) {
    const b = bookings.filter((x) => x.customer.key === customer && x.week <= week).at(-1);
    if (!b) continue;
    const at = later(b.at, between(random, 20, 40));
    add(at, Math.min(WEEKS, week), (r) => writeSpoof(person(victim), freeMail, b, at, r));
  }
  for (const [week, victim, customer] of [
    [4, 'kf-vogel', 'kaufhaus-falkner'],
    [6, 'mg-hale', 'marigold-cosmetics'],
  ] as const) {
    const b = bookings.filter((x) => x.customer.key === customer && x.week <= week).at(-1);
    if (!b) continue;
    const at = later(b.at, between(random, 26, 50));
    add(at, week, (r) => writeDmarcSpoof(person(victim), b, at, r));
  }
  const notices: [number, Parameters<typeof writeNotice>[0], MixedCustomer | undefined][] = [
    [1, 'list-welcome', undefined],
    [1, 'it', undefined],
    [2, 'newsletter', undefined],
    [3, 'sales', undefined],
    [4, 'newsletter', customerByKey('sint-baafs-foods')],
    [4, 'it', undefined],
    [5, 'list-reminder', undefined],
    [6, 'newsletter', undefined],
    [5, 'sales', undefined],
  ];
  for (const [week, kind, mention] of notices) {
    const at = moment(random, week, kind === 'newsletter' ? 2 : between(random, 1, 5), 6, 9);
    add(at, week, (r) => writeNotice(kind, at, r, mention));
  }
  // A message's week is the week its date falls in (a follow-up written on Saturday of week 2 is week 2's).
  return planned
    .map((p) => ({ ...p, week: Math.min(WEEKS, Math.floor((p.at.getTime() - FIRST_MONDAY) / (7 * DAY_MS)) + 1) }))
    .filter((p) => p.at.getTime() < FIRST_MONDAY + WEEKS * 7 * DAY_MS)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

export interface WrittenMixedStream {
  readonly dir: string;
  readonly stream: Stream;
  readonly bytes: number;
}

/** Write the mixed stream into `dir` (replacing its email/): the messages and stream.json. Deterministic. */
export function writeMixedStream(dir: string): WrittenMixedStream {
  const random = mulberry32(MIXED_SEED);
  const { stream, bytes } = writeEmailStream(dir, plan(random), random, {
    description:
      "The mixed stream of issue 35: six weeks of an intake mailbox built apart from the trap scenario (other cast, other mail programs, the issue's classes mixed with the old ones), with the ground truth the trusting operator answers from. Generated by stack/src/demo/make-mixed-stream.ts into a temporary folder; never committed.",
    firstMonday: FIRST_MONDAY,
    weeks: WEEKS,
  });
  return { dir, stream, bytes };
}

/** What the stream holds, by class and week: for the docs and the generator's own output. */
export function describeMixedStream(stream: Stream): string {
  const classes = new Map<string, number[]>();
  for (const m of stream.messages) {
    const name = (m.trap ?? '')
      .replace(/ for [\w-]+ on [\w-]+'s thread/, " on another customer's thread")
      .replace(/ for [\w-]+ quoting [\w-]+'s/, " quoting another customer's")
      .replace(/ of \S+@\S+| quoting \S+@\S+|, quoting \S+| \([^)]*\.example\)/g, '');
    const row = classes.get(name) ?? [0, 0, 0, 0, 0, 0];
    row[m.week - 1]! += 1;
    classes.set(name, row);
  }
  const lines = [...classes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, row]) => `| ${name} | ${row.join(' | ')} | ${row.reduce((s, n) => s + n, 0)} |`);
  // Classes 6 and 7 are in the references themselves, whoever writes them.
  const byCustomer = (label: string, keys: readonly string[]) => {
    const row = [0, 0, 0, 0, 0, 0];
    for (const m of stream.messages) if (keys.includes(m.truth.entry)) row[m.week - 1]! += 1;
    lines.push(`| ${label} | ${row.join(' | ')} | ${row.reduce((s, n) => s + n, 0)} |`);
  };
  byCustomer("class 6: Quayside's `QS/2027/4…`, the shape of Quarry Stone's seed mark (all Quayside's mail)", ['quayside-spirits']);
  byCustomer('class 6: `PO-` and six digits, issued by both Marigold and Palmera (all their mail)', ['marigold-cosmetics', 'palmera-apparel']);
  byCustomer('class 7: prefixed references `KF-BK-2027-12…`, `BL-SBF27-0…`, `HB-BK-2027-12…` (all their mail)', [
    'kaufhaus-falkner',
    'sint-baafs-foods',
    'hendrix-bloembollen',
  ]);
  const nobody = stream.messages.filter((m) => m.agent === 'email' && m.truth.none).length;
  return `| class | w1 | w2 | w3 | w4 | w5 | w6 | all |\n|---|---|---|---|---|---|---|---|\n${lines.join('\n')}\n\n${stream.messages.length} messages, ${nobody} of them nobody's.`;
}

async function main(argv: readonly string[]): Promise<void> {
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--describe') continue;
    else throw new Error(`Unknown option ${argv[i]}. Options: --out <dir> (required), --describe.`);
  }
  if (out === undefined) throw new Error('The mixed stream is not committed: say where to write it with --out <dir>.');
  const written = writeMixedStream(out);
  console.log(
    `wrote ${written.stream.messages.length} messages (${(written.bytes / 1024).toFixed(0)} KiB) and stream.json to ${relative(process.cwd(), written.dir) || '.'}`,
  );
  if (argv.includes('--describe')) console.log(`\n${describeMixedStream(written.stream)}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.message);
    process.exit(2);
  });
}
