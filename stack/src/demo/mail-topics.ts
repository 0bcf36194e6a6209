// What each message says: a subject with its reference, a body a person would write, and the
// attachments the topic calls for.
import type { Customer, RefWhere, Sender, Topic } from './cast.ts';
import type { MailAttachment } from './eml.ts';
import { tinyPdf } from './eml.ts';
import type { Random } from '@learnables/testing';
import { between, pick } from '@learnables/testing';

export interface Written {
  readonly subject: string;
  readonly text: string;
  readonly attachments: readonly MailAttachment[];
  /** A reply quotes the warehouse's earlier message. */
  readonly reply: boolean;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const longDate = (d: Date) => `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
const plus = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);
const firstName = (name: string) => name.split(' ')[0] ?? name;

export interface TopicContext {
  readonly random: Random;
  readonly sender: Sender;
  readonly customer: Customer;
  readonly refWhere: RefWhere;
  readonly date: Date;
  readonly week: number;
}

function signature(context: TopicContext): string {
  const { sender, customer } = context;
  const person =
    /\b(Desk|Ops|Orders|Accounts|Billing|Planning|Logistics|Dispatch|Claims|Stock|Supply|QA|Returns|Entries|Purchasing|Yard|Shipping|Roastery|Goods-In|Bonded|Chain)\b/.test(
      sender.name,
    )
      ? sender.name
      : firstName(sender.name);
  return `${pick(context.random, ['Kind regards', 'Best regards', 'Thanks', 'Regards', 'Many thanks'])},\n${person}\n${sender.company ?? customer.name}`;
}

const greeting = (random: Random) => pick(random, ['Hello,', 'Hi team,', 'Good morning,', 'Dear intake team,', 'Hi,']);

/** The message a topic makes; the reference goes where the sender puts it. */
export function writeTopic(topic: Topic, context: TopicContext): Written {
  const { random, customer, refWhere, date } = context;
  const ref = customer.ref(random);
  const goods = pick(random, customer.goods);
  const pallets = between(random, 2, 26);
  const inSubject = refWhere === 'subject';
  const subjectRef = inSubject ? ` ${ref}` : '';
  const bodyRef = `Our reference: ${ref}`;
  const arrival = plus(date, between(random, 1, 6));
  const sign = signature(context);
  const attachments: MailAttachment[] = [];
  const attachRef = () => attachments.push({ filename: `${ref.replace(/\//g, '-')}.pdf`, mediaType: 'application/pdf', content: tinyPdf(ref) });
  let subject: string;
  let text: string;
  let reply = false;

  switch (topic) {
    case 'booking':
      subject = pick(random, [
        `Booking${subjectRef}: ${pallets} pallets ${goods}`,
        `Inbound booking request${subjectRef}`,
        `New delivery${subjectRef} - ${goods}`,
      ]);
      text = `${greeting(random)}\n\nPlease book in ${pallets} pallets of ${goods} for ${longDate(arrival)}, arriving on our own transport in the morning.\n${refWhere === 'body' ? `${bodyRef}\n` : ''}\nCould you confirm a bay and a time slot?\n\n${sign}\n`;
      break;
    case 'prealert':
      subject = pick(random, [`Pre-alert${subjectRef} ETA ${longDate(arrival)}`, `Pre-advice${subjectRef}: ${goods}`]);
      text = `${greeting(random)}\n\nPre-alert for the consignment below.\n\n  Goods:        ${goods}\n  Packages:     ${pallets} pallets\n  ETA:          ${longDate(arrival)}\n${refWhere === 'body' ? `  Reference:    ${ref}\n` : ''}\nPlease advise if anything is missing from the paperwork.\n\n${sign}\n`;
      break;
    case 'slot-reply':
      reply = true;
      subject = `Re: delivery slot${subjectRef}`;
      text = `${pick(random, ['That works for us', '10:30 is fine', 'Can we make it the afternoon instead?', 'Confirmed, thank you'])}. The driver will call ahead.\n${refWhere === 'body' ? `\n${bodyRef}\n` : ''}\n${sign}\n\n> On ${longDate(plus(date, -1))}, Intake <intake@warehouse.example> wrote:\n> We can offer bay ${between(random, 1, 14)} at 10:30 for your delivery.\n> Please confirm.\n`;
      break;
    case 'collection':
      subject = pick(random, [`Collection request${subjectRef}`, `Please release for collection${subjectRef}`, `Outbound${subjectRef} - ${pallets} pallets`]);
      text = `${greeting(random)}\n\nPlease have ${pallets} pallets of ${goods} ready for collection on ${longDate(arrival)}. Our haulier will quote the reference at the gate.\n${refWhere === 'body' ? `${bodyRef}\n` : ''}\n${sign}\n`;
      break;
    case 'storage':
      subject = pick(random, [`Storage extension${subjectRef}`, `Extend storage${subjectRef} to end of month`]);
      text = `${greeting(random)}\n\nWe need to keep the ${goods} in storage for another ${between(random, 2, 6)} weeks; the onward order has slipped. Please extend and let us know the rate.\n${refWhere === 'body' ? `${bodyRef}\n` : ''}\n${sign}\n`;
      break;
    case 'damage':
      subject = pick(random, [`Damaged goods${subjectRef}`, `Claim${subjectRef}: damage on arrival`]);
      text = `${greeting(random)}\n\nTwo cartons of ${goods} arrived crushed. Photos and the delivery note are attached. Please hold the damaged units for inspection.\n${refWhere === 'body' ? `${bodyRef}\n` : ''}\n${sign}\n`;
      attachments.push({ filename: `damage-photos-${date.toISOString().slice(0, 10)}.pdf`, mediaType: 'application/pdf', content: tinyPdf('damage photos') });
      break;
    case 'stock-report': {
      subject = `Weekly stock report - week ${41 + context.week - 1}`;
      const rows = Array.from({ length: 4 }, () => `${customer.ref(random)},${pick(random, customer.goods)},${between(random, 10, 400)}`);
      text = `${greeting(random)}\n\nOur stock report for this week is attached.\n\n${sign}\n`;
      attachments.push({
        filename: `stock-report-w${41 + context.week - 1}.csv`,
        mediaType: 'text/csv',
        content: Buffer.from(`reference,item,quantity\n${rows.join('\n')}\n`),
      });
      break;
    }
    case 'forecast': {
      subject = `Weekly inbound forecast w/c ${longDate(date)}`;
      const rows = Array.from({ length: 5 }, () => `${customer.ref(random)},${pick(random, customer.goods)},${between(random, 2, 30)}`);
      text = `Hi all,\n\nForecast for the coming week attached; chilled volumes are in the second column.\n\n${sign}\n`;
      attachments.push({
        filename: `forecast-${date.toISOString().slice(0, 10)}.csv`,
        mediaType: 'text/csv',
        content: Buffer.from(`order,product,pallets\n${rows.join('\n')}\n`),
      });
      break;
    }
    case 'remittance':
      subject = `Remittance advice${subjectRef}`;
      text = `${greeting(random)}\n\nPlease find our remittance advice attached for your storage invoice of last month (GBP ${between(random, 400, 9000)}.${between(random, 10, 99)}).\n${refWhere === 'body' ? `${bodyRef}\n` : ''}\n${sign}\n`;
      attachments.push({ filename: `remittance-${date.toISOString().slice(0, 10)}.pdf`, mediaType: 'application/pdf', content: tinyPdf('remittance') });
      break;
    case 'invoice': {
      const invoice = `OB-${between(random, 55121, 59999)}`;
      subject = pick(random, [`Pre-alert and invoice ${invoice}`, `Invoice ${invoice}: ${pallets} pallets ${goods}`]);
      text = `Good morning,\n\nPre-alert for the consignment below. Our invoice ${invoice} is attached.\n\n  Consignee:      ${customer.name}\n  Your reference: ${ref}\n  Contents:       ${goods}\n  ETA:            ${longDate(arrival)}\n\nPlease book delivery into your warehouse on arrival and advise the bay number.\n\n${sign}\n`;
      attachments.push({ filename: `${invoice}_invoice.pdf`, mediaType: 'application/pdf', content: tinyPdf(invoice) });
      break;
    }
    case 'customs':
      subject = pick(random, [`Customs entry${subjectRef} cleared`, `Customs hold${subjectRef}: documents needed`, `Import entry lodged${subjectRef}`]);
      text = `${greeting(random)}\n\n${pick(random, ['The import entry has been cleared; the goods are free to move to your warehouse.', 'HMRC have placed the consignment on hold pending the commercial invoice.', 'We have lodged the import entry and expect clearance today.'])}\n${refWhere === 'body' ? `${bodyRef}\n` : ''}\n${sign}\n`;
      break;
    case 'haulage':
      subject = pick(random, [`Collection booked${subjectRef}`, `Delivery ETA${subjectRef}`, `POD${subjectRef}`]);
      text = `${greeting(random)}\n\n${pick(random, ['Our driver will arrive tomorrow between 08:00 and 10:00.', 'Vehicle is loaded and on its way, ETA early afternoon.', 'Signed POD attached for the delivery yesterday.'])} ${pallets} pallets.\n${refWhere === 'body' ? `${bodyRef}\n` : ''}\n${sign}\n`;
      break;
  }
  // Reports carry their references inside the attached CSV; anything else attaches a document named after it.
  if (refWhere === 'attachment' && topic !== 'stock-report' && topic !== 'forecast') attachRef();
  return { subject, text, attachments, reply };
}
