// What each message of the trap scenario says, and how it is wrapped: direct mail, a portal's
// notices, a haulier's or broker's updates, forwards in the layouts mail programs write,
// newsletters and notices, and phishing from look-alike domains. Wording differs by cast, so the
// holdout is not the main stream with other names.
import type { Random } from '@learnables/testing';
import { between, digits, pick } from '@learnables/testing';
import { offsetMinutes } from './cast.ts';
import type { MailAttachment } from './eml.ts';
import { buildEml, htmlOf, rfc822Date, tinyPdf } from './eml.ts';
import type { Clerk, ForwardLayout, TrapCast, TrapCustomer, TrapSender } from './trap-cast.ts';

export interface TrapMessage {
  readonly bytes: Buffer;
  /** The seed entry the message belongs to: a customer, or `no-customer`. */
  readonly truth: string;
  /** The trap it carries, in a few words (stream.json's `trap`). */
  readonly trap: string;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const longDate = (d: Date) => `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
const shortDate = (d: Date) => `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
const plus = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);
const stamp = (at: Date) => at.toISOString().slice(0, 16).replace(':', '').replace('T', '-');
const domainOf = (address: string) => address.slice(address.indexOf('@') + 1);
/** The name as people write it in running text: without its legal form. */
export const plainName = (name: string) => name.replace(/[\s,]+(?:plc|ltd\.?|inc\.?|co\.|gmbh|ag|as|sarl|s\.l\.)$/i, '').trim();

interface Written {
  readonly subject: string;
  readonly text: string;
  readonly attachments?: readonly MailAttachment[];
  readonly html?: boolean;
}

/** Wording that differs between the casts. */
const WORDS = {
  main: {
    greet: ['Hello,', 'Hi team,', 'Good morning,', 'Dear intake team,', 'Hi,'],
    close: ['Kind regards,', 'Best regards,', 'Thanks,', 'Regards,', 'Many thanks,'],
    directSubjects: [
      (ref: string, goods: string, n: number) => `Booking ${ref}: ${n} pallets ${goods}`,
      (ref: string) => `Pre-alert ${ref}`,
      (ref: string) => `Collection request ${ref}`,
      (ref: string) => `Re: delivery slot ${ref}`,
    ],
  },
  holdout: {
    greet: ['Dear all,', 'Hello team,', 'Morning,', 'To the goods-in team,', 'Hi there,'],
    close: ['Best wishes,', 'Cheers,', 'Warm regards,', 'Sincerely,', 'Thank you,'],
    directSubjects: [
      (ref: string, goods: string) => `Inbound ${goods} – ref ${ref}`,
      (ref: string) => `ASN for ${ref}`,
      (ref: string, _goods: string, n: number) => `${n} plts arriving, order ${ref}`,
      (ref: string) => `Outbound release ${ref}`,
    ],
  },
} as const;

export interface WriteContext {
  readonly random: Random;
  readonly cast: TrapCast;
  readonly sender: TrapSender;
  /** The customer this message is for (none for nobody's mail). */
  readonly customer?: TrapCustomer;
  readonly at: Date;
  readonly week: number;
  readonly sequence: number;
}

/** One whole message, as bytes, with its truth. */
export function writeTrapMessage(context: WriteContext): TrapMessage {
  const { sender, cast, at, sequence } = context;
  const id = `${stamp(at)}.${String(sequence).padStart(3, '0')}`;
  const intake = { name: 'Intake', address: cast.warehouse.intake };
  if (sender.kind === 'forwarded') return forwarded(context, id);
  const written = writeKind(context);
  const domain = domainOf(sender.address);
  const bytes = buildEml({
    from: { name: sender.name, address: sender.address },
    to: intake,
    subject: written.subject,
    date: at,
    offsetMinutes: offsetMinutes(sender.zone, at),
    messageId: `${id}.${sender.id}@${domain}`,
    text: written.text,
    ...(written.html ? { html: htmlOf(written.text) } : {}),
    ...(written.attachments ? { attachments: written.attachments } : {}),
    relay: `mx.${domain} (mx.${domain} [198.51.100.${(sequence % 200) + 20}])`,
  });
  return { bytes, truth: context.customer?.key ?? 'no-customer', trap: trapOf(sender) };
}

function trapOf(sender: TrapSender): string {
  switch (sender.kind) {
    case 'portal':
      return 'shared sender: a booking portal writing for several customers';
    case 'haulier':
      return 'shared sender: a haulier or broker writing for several customers';
    case 'phish':
      return "look-alike domain: not the customer's";
    case 'nobody':
      return `nobody's mail: ${sender.notice}`;
    case 'forwarded':
      return `forward (${sender.forward?.layouts.join(' or ')})`;
    default:
      return sender.arrives >= 5 ? 'new sender, late' : 'direct';
  }
}

function writeKind(context: WriteContext): Written {
  switch (context.sender.kind) {
    case 'direct':
      return direct(context);
    case 'portal':
      return portal(context);
    case 'haulier':
      return haulier(context);
    case 'nobody':
      return notice(context);
    case 'phish':
      return phish(context);
    case 'forwarded':
      return direct(context);
  }
}

function direct(context: WriteContext): Written {
  const { random, cast, sender, at } = context;
  const customer = context.customer as TrapCustomer;
  const words = WORDS[cast.variant];
  const ref = customer.ref(random);
  const goods = pick(random, customer.goods);
  const pallets = between(random, 2, 24);
  const arrival = plus(at, between(random, 1, 5));
  const person = sender.name.split(' ')[0] ?? sender.name;
  const inSubject = random() < 0.75;
  const subject = inSubject
    ? pick(random, words.directSubjects)(ref, goods, pallets)
    : pick(random, [`Delivery next week`, `Stock query`, `Question about our ${goods}`, `Slot for ${longDate(arrival)}`]);
  const body = pick(random, [
    `Please book in ${pallets} pallets of ${goods} for ${longDate(arrival)}.`,
    `We have ${pallets} pallets of ${goods} leaving our site today, ETA ${longDate(arrival)}.`,
    `Could you release ${pallets} pallets of ${goods} for collection on ${longDate(arrival)}?`,
    `Please confirm what you hold of ${goods}; our system shows ${pallets} pallets.`,
  ]);
  const refLine = inSubject ? '' : `\n${pick(random, ['Our reference', 'Order', 'PO'])}: ${ref}\n`;
  const sign = `${pick(random, words.close)}\n${person}\n${customer.name}\n${pick(random, ['Tel 01632 960 ' + digits(random, 3), 'Unit 3, Riverside Works, Leeds LS10 1QR', 'www.' + domainOf(sender.address)])}`;
  return { subject, text: `${pick(random, words.greet)}\n\n${body}${refLine}\n\n${sign}\n`, html: random() < 0.3 };
}

function portal(context: WriteContext): Written {
  const { random, cast, sender, at } = context;
  const customer = context.customer as TrapCustomer;
  const ref = customer.ref(random);
  const booking = `${sender.company?.slice(0, 2).toUpperCase() ?? 'BK'}-${between(random, 400000, 499999)}`;
  const slot = plus(at, between(random, 1, 6));
  const bay = between(random, 1, 18);
  const named = random() < (sender.named ?? 1);
  const action = pick(random, ['confirmed', 'confirmed', 'amended', 'cancelled']);
  if (cast.variant === 'main') {
    const subject = `[DockSlot] Booking ${booking} ${action} – ${longDate(slot)}`;
    const account = named ? `Customer:         ${customer.name}\n` : '';
    const text =
      `This is an automated message from DockSlot. Please do not reply.\n\n` +
      `Booking ${booking} has been ${action}.\n\n${account}Customer ref:     ${ref}\nSlot:             ${longDate(slot)}, ${between(random, 6, 16)}:00\nDoor:             ${bay}\nPallets:          ${between(random, 2, 26)}\n\n` +
      `Manage this booking at https://dockslot-portal.example/b/${booking.toLowerCase()}\n\n--\nDockSlot Ltd, 1 Canal Street, Manchester M1 3HE. You receive this because your site uses DockSlot.\n`;
    return { subject, text, html: true };
  }
  const subject = pick(random, [`SlotBook: ${action} ${shortDate(slot)} (${booking})`, `Your time slot was ${action} – ${booking}`]);
  const account = named ? `Account: ${plainName(customer.name)}\n` : '';
  const text =
    `${account}Order number: ${ref}\nDate: ${shortDate(slot)}\nTime window: ${between(random, 6, 15)}:30–${between(random, 16, 19)}:00\nRamp: ${bay}\nStatus: ${action}\n\n` +
    `Questions? Contact the booking party directly. This mailbox is not monitored.\nSlotBook GmbH · Speicherstraße 4 · 20457 Hamburg\n`;
  return { subject, text };
}

function haulier(context: WriteContext): Written {
  const { random, cast, sender, at } = context;
  const customer = context.customer as TrapCustomer;
  const ref = customer.ref(random);
  const named = random() < (sender.named ?? 1);
  const pallets = between(random, 2, 26);
  const when = plus(at, between(random, 0, 3));
  const job = `${between(random, 700000, 799999)}`;
  const who = named ? ` for ${plainName(customer.name)}` : '';
  const refInSubject = random() < 0.5;
  const words = WORDS[cast.variant];
  const subject = pick(random, [
    `Delivery ETA${refInSubject ? ` ${ref}` : ''} – job ${job}`,
    `Collection booked${refInSubject ? ` ${ref}` : ` job ${job}`}`,
    `POD job ${job}${refInSubject ? ` / ${ref}` : ''}`,
    sender.id === 'kerrigan' ? `Customs entry${refInSubject ? ` ${ref}` : ''} cleared` : `Vehicle update job ${job}`,
  ]);
  const line = pick(random, [
    `Our driver will be with you ${longDate(when)} between 08:00 and 10:00 with ${pallets} pallets${who}.`,
    `Vehicle loaded${who}, ${pallets} pallets, ETA early afternoon ${longDate(when)}.`,
    `Signed POD attached for the delivery${who} yesterday.`,
    `The import entry${who} has been cleared; the goods are free to move.`,
  ]);
  const refLine = refInSubject ? '' : `\n${pick(random, ['Customer ref', 'Consignee reference', 'Your ref'])}: ${ref}`;
  const sign = `${pick(random, words.close)}\n${sender.name}\n${sender.company ?? ''}\nTraffic office 0161 555 ${digits(random, 4)}`;
  const attachments = line.startsWith('Signed POD')
    ? [{ filename: `POD-${job}.pdf`, mediaType: 'application/pdf', content: tinyPdf(`POD ${job}`) }]
    : undefined;
  return { subject, text: `${pick(random, words.greet)}\n\n${line}${refLine}\n\n${sign}\n`, ...(attachments ? { attachments } : {}) };
}

function notice(context: WriteContext): Written {
  const { random, cast, sender, at, week } = context;
  const others = [...cast.customers.values()];
  switch (sender.notice) {
    case 'newsletter':
    case 'carrier-news': {
      // Trade news mentions companies, now and then one of the warehouse's own customers.
      const mentioned = random() < 0.4 ? pick(random, others) : undefined;
      const issue = 40 + week;
      const headline = mentioned
        ? `${plainName(mentioned.name)} ${pick(random, ['opens a new distribution hub', 'reports record volumes', 'signs a three-year logistics deal'])}`
        : pick(random, [
            'Diesel prices ease for third week',
            'Port congestion: what to expect before Christmas',
            'New customs rules from January',
            'Driver shortage: the latest figures',
          ]);
      const subject =
        sender.notice === 'newsletter' ? `${sender.company} weekly #${issue}: ${headline}` : `${sender.company} – Ausgabe ${issue}/2027: ${headline}`;
      const text =
        `${sender.company ?? 'News'} — issue ${issue}\n\n${headline}\n\n${pick(random, ['Read the full story on our website.', 'More inside this week.'])}\n\n` +
        `Also this week: rates, ${pick(random, ['warehousing', 'air freight', 'rail'])} and events.\n\n` +
        `Unsubscribe: https://${domainOf(sender.address)}/unsubscribe?u=${digits(random, 8)}\n`;
      return { subject, text, html: true };
    }
    case 'maintenance': {
      const day = plus(at, between(random, 2, 5));
      const system = pick(random, ['the WMS', 'the label printers', 'the gate booking screen', 'email']);
      return {
        subject: cast.variant === 'main' ? `Planned maintenance: ${system} unavailable ${longDate(day)}` : `Wartungsfenster ${shortDate(day)}: ${system}`,
        text: `Hello all,\n\n${system} will be unavailable on ${longDate(day)} from 22:00 to 23:30 for planned maintenance. Ticket CHG-${digits(random, 5)}.\n\nIT Service Desk\n`,
      };
    }
    case 'internal':
    default:
      return {
        subject: pick(random, ['Fire alarm test this Thursday', 'Car park resurfacing', 'Canteen closed Friday', 'Christmas rota']),
        text: `Hi everyone,\n\n${pick(random, ['A reminder that the fire alarm will be tested at 11:00.', 'Please use the overflow car park from Monday.', 'The canteen is closed on Friday for a deep clean.', 'The rota for the holidays is on the notice board.'])}\n\nThanks\n${sender.name}\n`,
      };
  }
}

function phish(context: WriteContext): Written {
  const { random, sender } = context;
  const invoice = `INV-${digits(random, 6)}`;
  return {
    subject: pick(random, [`Updated bank details – invoice ${invoice}`, `URGENT: outstanding payment ${invoice}`, `Remittance details changed`]),
    text:
      `Dear Accounts,\n\nPlease note our bank details have changed. All payments, including invoice ${invoice}, should now be made to the account in the attached letter.\n\n` +
      `Kindly confirm by return.\n\nRegards,\n${sender.name}\n`,
    attachments: [{ filename: `bank-details-${invoice}.pdf`, mediaType: 'application/pdf', content: tinyPdf('bank details') }],
  };
}

/** A header block as each mail program writes it, and the subject prefix it puts on. */
function headerBlock(
  layout: ForwardLayout,
  sender: TrapSender,
  sent: Date,
  to: { name: string; address: string },
  subject: string,
): { block: string; prefix: string } {
  const rfc = rfc822Date(sent, offsetMinutes(sender.zone, sent));
  const outlookDate = `${WEEKDAYS[sent.getUTCDay()]}, ${MONTHS[sent.getUTCMonth()]} ${sent.getUTCDate()}, ${sent.getUTCFullYear()} ${String(sent.getUTCHours()).padStart(2, '0')}:${String(sent.getUTCMinutes()).padStart(2, '0')}`;
  switch (layout) {
    case 'gmail':
      return {
        prefix: 'Fwd: ',
        block: `---------- Forwarded message ---------\nFrom: ${sender.name} <${sender.address}>\nDate: ${rfc}\nSubject: ${subject}\nTo: ${to.name} <${to.address}>\n`,
      };
    case 'apple':
      return {
        prefix: 'Fwd: ',
        block: `Begin forwarded message:\n\nFrom: ${sender.name} <${sender.address}>\nSubject: ${subject}\nDate: ${longDate(sent)} at ${sent.getUTCHours()}:${String(sent.getUTCMinutes()).padStart(2, '0')}\nTo: ${to.address}\n`,
      };
    case 'outlook-mailto':
      return {
        prefix: 'FW: ',
        block: `-----Original Message-----\nFrom: ${sender.name} [mailto:${sender.address}]\nSent: ${outlookDate}\nTo: ${to.name}\nSubject: ${subject}\n`,
      };
    case 'outlook-de':
      return {
        prefix: 'WG: ',
        block: `________________________________\nVon: ${sender.name} <${sender.address}>\nGesendet: ${shortDate(sent)} ${sent.getUTCHours()}:${String(sent.getUTCMinutes()).padStart(2, '0')}\nAn: ${to.name} <${to.address}>\nBetreff: ${subject}\n`,
      };
    case 'outlook-fr':
      return {
        prefix: 'TR: ',
        block: `________________________________\nDe : ${sender.name} <${sender.address}>\nEnvoyé : ${shortDate(sent)}\nÀ : ${to.name} <${to.address}>\nObjet : ${subject}\n`,
      };
    case 'outlook-it':
      return {
        prefix: 'I: ',
        block: `________________________________\nDa: ${sender.name} <${sender.address}>\nInviato: ${shortDate(sent)}\nA: ${to.name} <${to.address}>\nOggetto: ${subject}\n`,
      };
    case 'outlook-es':
      return {
        prefix: 'RV: ',
        block: `________________________________\nDe: ${sender.name} <${sender.address}>\nEnviado el: ${shortDate(sent)}\nPara: ${to.name} <${to.address}>\nAsunto: ${subject}\n`,
      };
    case 'edited-subject':
      return {
        prefix: '',
        block: `---------- Forwarded message ---------\nFrom: ${sender.name} <${sender.address}>\nDate: ${rfc}\nSubject: ${subject}\nTo: <${to.address}>\n`,
      };
    case 'quoted':
      return { prefix: 'Fwd: ', block: `> From: ${sender.name} <${sender.address}>\n> Date: ${rfc}\n> Subject: ${subject}\n> To: ${to.address}\n` };
  }
}

/** A colleague forwards the customer's message from their own inbox, signing above the quoted block. */
function forwarded(context: WriteContext, id: string): TrapMessage {
  const { random, cast, sender, at } = context;
  const forward = sender.forward as NonNullable<TrapSender['forward']>;
  const clerk = cast.clerks.get(forward.clerk) as Clerk;
  const layout = pick(random, forward.layouts);
  const original = direct(context);
  const sent = new Date(at.getTime() - between(random, 20, 300) * 60_000);
  const { block, prefix } = headerBlock(layout, sender, sent, clerk, original.subject);
  const quotedText =
    layout === 'quoted'
      ? original.text
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n')
      : original.text;
  const edited = pick(
    random,
    cast.variant === 'main'
      ? ['Can someone book this in please', 'This one is for you', 'Delivery query - see below']
      : ['Please handle', 'Wrong inbox again', 'See below, thanks'],
  );
  const subject = layout === 'edited-subject' ? edited : `${prefix}${original.subject}`;
  const text = `${pick(random, clerk.notes)}\n\n${clerk.signature}\n\n${block}\n${quotedText}`;
  const bytes = buildEml({
    from: { name: clerk.name, address: clerk.address },
    to: { name: 'Intake', address: cast.warehouse.intake },
    subject,
    date: at,
    offsetMinutes: offsetMinutes('uk', at),
    messageId: `fwd-${id}@${cast.warehouse.domain}`,
    text,
    relay: `mail.${cast.warehouse.domain} (internal)`,
  });
  return {
    bytes,
    truth: (context.customer as TrapCustomer).key,
    trap: `forward (${layout}) by a colleague whose signature carries the warehouse's postcode, phone and EORI`,
  };
}
