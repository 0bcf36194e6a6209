/**
 * Writes fixtures/scenario/: six weeks of an intake mailbox and a manifest inbox, and the ground
 * truth a simulated operator answers from.
 *
 *   npx tsx stack/src/demo/make-scenario.ts          (from the repository root)
 *
 * Deterministic: one seeded PRNG (mulberry32), fixed dates, .xlsx re-packed with fixed zip
 * timestamps. Running it twice writes the same bytes.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Forwarder, Sender } from './cast.ts';
import { CUSTOMERS, FORWARDERS, SENDERS, offsetMinutes } from './cast.ts';
import { buildEml, htmlOf, rfc822Date } from './eml.ts';
import { writeTopic } from './mail-topics.ts';
import { manifestFile } from './manifest-files.ts';
import type { Random } from '@learnables/testing';
import { between, mulberry32, pick, weighted } from '@learnables/testing';
import type { Stream, StreamItem } from './stream.ts';
import { DAY_MS, SCENARIO_DIR } from './stream.ts';

const FIRST_MONDAY = Date.UTC(2026, 9, 5);
const WEEKS = 6;
const SEED = 20261005;
/** The share of the mail, every week, from senders the seed alone cannot place. */
const ASK_SHARE = 0.45;
/** How far a week's share may stray from it, either way: weeks are alike, not identical. */
const ASK_SHARE_SWING = 0.04;
const INTAKE = { name: 'Intake', address: 'intake@warehouse.example' };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface Planned {
  readonly at: Date;
  readonly week: number;
  readonly sender?: Sender;
  readonly forwarder?: Forwarder;
}

/** Weekdays carry the traffic; a Saturday now and then. */
const DAY_WEIGHTS = [
  { day: 1, weight: 22 },
  { day: 2, weight: 21 },
  { day: 3, weight: 20 },
  { day: 4, weight: 21 },
  { day: 5, weight: 18 },
  { day: 6, weight: 2 },
];

/** A moment on `day` (1 = Monday) of `week`, at a local office hour of `zone`, as a UTC instant. */
function momentIn(random: Random, week: number, day: number, zone: Sender['zone'], earliest = 7.5, latest = 17.5): Date {
  const midnight = FIRST_MONDAY + ((week - 1) * 7 + (day - 1)) * DAY_MS;
  const [from, to] = zone === 'us-east' ? [8, 11.5] : [earliest, latest];
  const minutes = Math.floor((from + random() * (to - from)) * 60);
  const seconds = between(random, 0, 59);
  const local = midnight + minutes * 60_000 + seconds * 1000;
  return new Date(local - offsetMinutes(zone, new Date(local)) * 60_000);
}

function plan(random: Random): Planned[] {
  const planned: Planned[] = [];
  for (let week = 1; week <= WEEKS; week++) {
    for (const sender of SENDERS.filter((s) => s.weekly !== undefined && s.arrives <= week)) {
      planned.push({ week, sender, at: momentIn(random, week, sender.weekly as number, sender.zone, 8, 10.5) });
    }
    // Every sender writes in the week it arrives; the rest of the week is drawn by weight, keeping
    // the business's mix steady: about ASK_SHARE (± ASK_SHARE_SWING) of the mail is from senders the seed does not know.
    const scheduled = SENDERS.filter((s) => s.weekly !== undefined && s.arrives <= week);
    const arriving = SENDERS.filter((s) => s.weight > 0 && s.arrives === week);
    const draws = between(random, 28, 32);
    const unknown = (s: Sender) => s.seed === 'asks';
    const share = ASK_SHARE + (random() - 0.5) * 2 * ASK_SHARE_SWING;
    const asks = Math.round(share * (draws + scheduled.length)) - scheduled.filter(unknown).length - arriving.filter(unknown).length;
    const randomAsks = Math.max(0, asks);
    const randomSettles = Math.max(0, draws - arriving.length - randomAsks);
    const active = SENDERS.filter((s) => s.weight > 0 && s.arrives <= week);
    const chosen = [
      ...arriving,
      ...Array.from({ length: randomAsks }, () => weighted(random, active.filter(unknown))),
      ...Array.from({ length: randomSettles }, () =>
        weighted(
          random,
          active.filter((s) => !unknown(s)),
        ),
      ),
    ];
    for (const sender of chosen) planned.push({ week, sender, at: momentIn(random, week, weighted(random, DAY_WEIGHTS).day, sender.zone) });
    for (const forwarder of FORWARDERS) {
      const count = forwarder.perWeek[week - 1] ?? 0;
      for (let i = 0; i < count; i++) {
        const day = forwarder.weekdays[i % forwarder.weekdays.length] as number;
        planned.push({ week, forwarder, at: momentIn(random, week, day, 'uk', 6, 9) });
      }
    }
  }
  return planned.sort((a, b) => a.at.getTime() - b.at.getTime());
}

const stamp = (at: Date) => at.toISOString().slice(0, 16).replace(':', '').replace('T', '-');
const domainOf = (address: string) => address.slice(address.indexOf('@') + 1);

function writeEmail(random: Random, item: Planned, sequence: number, roadlineTurn: number): { bytes: Buffer; customer: string } {
  const sender = item.sender as Sender;
  const serve = sender.weekly !== undefined && sender.serves.length > 1 ? sender.serves[roadlineTurn % sender.serves.length] : pick(random, sender.serves);
  if (serve === undefined) throw new Error(`${sender.id} serves nobody`);
  const customer = CUSTOMERS[serve.customer];
  if (customer === undefined) throw new Error(`${sender.id} serves ${serve.customer}, which is not a customer`);
  const topic = pick(random, sender.topics);
  const written = writeTopic(topic, { random, sender, customer, refWhere: serve.ref, date: item.at, week: item.week });
  const id = `${stamp(item.at)}.${String(sequence).padStart(3, '0')}`;
  const offset = offsetMinutes(sender.zone, item.at);

  if (sender.forwardedBy) {
    const original = new Date(item.at.getTime() - between(random, 35, 240) * 60_000);
    const text =
      `${pick(random, ['Came to my own inbox by mistake, forwarding to intake.', 'For intake - can someone pick this up?', 'Forwarding, please book in.'])}\n-- Kev, goods-in\n\n` +
      `---------- Forwarded message ---------\nFrom: ${sender.name} <${sender.address}>\nDate: ${rfc822Date(original, offsetMinutes(sender.zone, original))}\n` +
      `Subject: ${written.subject}\nTo: Kevin Marsh <${sender.forwardedBy.address}>\n\n${written.text}`;
    const bytes = buildEml({
      from: sender.forwardedBy,
      to: INTAKE,
      subject: `Fwd: ${written.subject}`,
      date: item.at,
      offsetMinutes: offsetMinutes('uk', item.at),
      messageId: `fwd-${id}@warehouse.example`,
      text,
      attachments: written.attachments,
      relay: 'mail.warehouse.example (internal)',
    });
    return { bytes, customer: customer.key };
  }

  const domain = domainOf(sender.address);
  const bytes = buildEml({
    from: { name: sender.name, address: sender.address },
    to: INTAKE,
    subject: written.subject,
    date: item.at,
    offsetMinutes: offset,
    messageId: `${id}.${sender.id}@${domain}`,
    text: written.text,
    ...(sender.html ? { html: htmlOf(written.text) } : {}),
    attachments: written.attachments,
    relay: `mx1.${domain} (mx1.${domain} [192.0.2.${(sequence % 200) + 20}])`,
    ...(sender.crlf ? { crlf: true } : {}),
    ...(written.reply ? { inReplyTo: `slot-${id}@warehouse.example` } : {}),
  });
  return { bytes, customer: customer.key };
}

async function main(): Promise<void> {
  const random = mulberry32(SEED);
  const planned = plan(random);
  rmSync(join(SCENARIO_DIR, 'email'), { recursive: true, force: true });
  rmSync(join(SCENARIO_DIR, 'manifests'), { recursive: true, force: true });
  mkdirSync(join(SCENARIO_DIR, 'email'), { recursive: true });
  mkdirSync(join(SCENARIO_DIR, 'manifests'), { recursive: true });

  const messages: StreamItem[] = [];
  const manifestSerial = new Map<string, number>();
  let roadlineTurn = 0;
  let bytesWritten = 0;
  for (const [index, item] of planned.entries()) {
    const sequence = index + 1;
    if (item.sender) {
      const sender = item.sender;
      const { bytes, customer } = writeEmail(random, item, sequence, sender.weekly !== undefined && sender.serves.length > 1 ? roadlineTurn++ : 0);
      const file = `email/${stamp(item.at)}-${sender.id}.eml`;
      writeFileSync(join(SCENARIO_DIR, file), bytes);
      bytesWritten += bytes.length;
      const source = sender.forwardedBy ? `${sender.forwardedBy.address} forwarding ${sender.address}` : sender.address;
      messages.push({
        file,
        date: item.at.toISOString(),
        week: item.week,
        agent: 'email',
        source,
        truth: { entry: customer },
        ...(sender.remember === false ? { remember: false as const, why: sender.why ?? 'the sender writes for several customers' } : {}),
      });
    } else if (item.forwarder) {
      const forwarder = item.forwarder;
      const serial = (manifestSerial.get(forwarder.id) ?? 400 + between(random, 0, 300)) + 1;
      manifestSerial.set(forwarder.id, serial);
      const { bytes } = await manifestFile(forwarder, random, item.at);
      const file = `manifests/${item.at.toISOString().slice(0, 10)}-${forwarder.code.toLowerCase()}-manifest-${serial}.${forwarder.format}`;
      writeFileSync(join(SCENARIO_DIR, file), bytes);
      bytesWritten += bytes.length;
      const waybill = forwarder.columns.find((column) => 'field' in column && column.field === 'waybill');
      if (!waybill || !('field' in waybill)) throw new Error(`${forwarder.name} has no waybill column`);
      messages.push({
        file,
        date: item.at.toISOString(),
        week: item.week,
        agent: 'manifest',
        source: forwarder.name,
        truth: { entry: 'waybill', column: waybill.heading },
      });
    }
  }

  const to = new Date(FIRST_MONDAY + (WEEKS * 7 - 1) * DAY_MS).toISOString().slice(0, 10);
  const stream: Stream = {
    description:
      'Six weeks of an intake mailbox and a manifest inbox, in the order they arrive, with the ground truth a simulated operator answers from. Generated by stack/src/demo/make-scenario.ts; do not edit.',
    from: new Date(FIRST_MONDAY).toISOString().slice(0, 10),
    to,
    weeks: WEEKS,
    messages,
  };
  writeFileSync(join(SCENARIO_DIR, 'stream.json'), `${JSON.stringify(stream, null, 1)}\n`);
  writeFileSync(join(SCENARIO_DIR, 'README.md'), readme(stream, bytesWritten));
  console.log(`wrote ${messages.length} messages (${(bytesWritten / 1024).toFixed(0)} KiB) and stream.json to ${SCENARIO_DIR}`);
}

function readme(stream: Stream, bytes: number): string {
  const senderOf = (item: StreamItem) => SENDERS.find((s) => item.file.endsWith(`-${s.id}.eml`));
  const forwarderOf = (item: StreamItem) => FORWARDERS.find((f) => item.file.includes(`-${f.code.toLowerCase()}-manifest-`));
  const rows: string[] = [];
  const seen = new Set<string>();
  for (let week = 1; week <= stream.weeks; week++) {
    const inWeek = stream.messages.filter((m) => m.week === week);
    const emails = inWeek.filter((m) => m.agent === 'email');
    const manifests = inWeek.filter((m) => m.agent === 'manifest');
    const seedAsks = inWeek.filter((m) => (m.agent === 'email' ? senderOf(m)?.seed : forwarderOf(m)?.seed) === 'asks').length;
    // What the agents should ask once answers are remembered: a sender or a waybill heading the seed
    // does not know, the first time it appears; and every question a person would not remember.
    const afterLessons = inWeek.filter((m) => {
      const unknown = (m.agent === 'email' ? senderOf(m)?.seed : forwarderOf(m)?.seed) === 'asks';
      if (!unknown) return false;
      if (m.remember === false) return true;
      const key = m.agent === 'email' ? m.source : `heading:${m.truth.column.toLowerCase()}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }).length;
    const monday = new Date(Date.parse(stream.from) + (week - 1) * 7 * DAY_MS).toISOString().slice(0, 10);
    rows.push(`| ${week} | ${monday} | ${emails.length} | ${manifests.length} | ${inWeek.length} | ${seedAsks} | ${afterLessons} |`);
  }
  const senderRows = SENDERS.map((s) => {
    const customers = s.serves.map((serve) => serve.customer).join(', ');
    const count = stream.messages.filter((m) => senderOf(m)?.id === s.id).length;
    const how = s.forwardedBy
      ? `forwarded by ${s.forwardedBy.address}`
      : s.weekly
        ? `every ${['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'][s.weekly]}`
        : `weight ${s.weight}`;
    return `| ${s.name} <${s.address}> | ${customers} | ${s.arrives} | ${how} | ${count} | ${s.seed}${s.remember === false ? ' (answered, not remembered)' : ''} |`;
  });
  const forwarderRows = FORWARDERS.map((f) => {
    const waybill = f.columns.find((column) => 'field' in column && column.field === 'waybill');
    const count = stream.messages.filter((m) => forwarderOf(m)?.id === f.id).length;
    return `| ${f.name} | ${f.format}${f.separator === ';' ? ' (;)' : ''}${f.title ? ', title rows' : ''} | \`${waybill && 'heading' in waybill ? waybill.heading : '?'}\` | ${f.perWeek.join(' ')} | ${count} | ${f.seed} |`;
  });
  return `# The six-week scenario

Generated by [\`stack/src/demo/make-scenario.ts\`](../../stack/src/demo/make-scenario.ts); do not edit by hand.

\`\`\`sh
npx tsx stack/src/demo/make-scenario.ts      # from the repository root; deterministic, a few seconds
\`\`\`

${stream.messages.length} messages from Monday ${stream.from} to Sunday ${stream.to} (${(bytes / 1024).toFixed(0)} KiB): emails to the
intake mailbox for the email agent (\`email/*.eml\`, RFC 822, each dated by its \`Date\` header) and
shipping manifests for the manifest agent (\`manifests/*.xlsx|csv\`, each dated by the day its file
name starts with). Everything is fictitious; every domain is \`.example\`. Customers are the keys of
[\`fixtures/seeds/customers.json\`](../seeds/customers.json).

[\`stream.json\`](stream.json) lists them in arrival order:
\`{ file, date, week, agent, source, truth, remember?, why? }\`. \`truth\` is what the simulated
operator answers from: \`{ entry: <customer> }\` for an email, \`{ entry: "waybill", column: <heading> }\`
for a manifest. \`remember: false\` marks a question a person answers but would not turn into a rule
(\`why\` says why).

The replay is \`pnpm demo\` / \`pnpm demo:compare\`; see [docs/scenario](../../docs/scenario/README.md).

## Week by week

"the seed alone cannot settle" counts the messages whose sender (or waybill heading) the seed
definitions do not know: with nothing remembered, the agents should ask about each of them, every
week. "with lessons" counts what should still be asked when answers are remembered: a sender or a
heading the seed does not know, the first time it appears, and the questions a person answers but
would not remember. The replay measures both; these columns are what the stream was built to show.

| week | from | emails | manifests | all | the seed alone cannot settle | with lessons |
|---|---|---|---|---|---|---|
${rows.join('\n')}

## What makes it realistic

- **Repeat senders carry most of the traffic**, and the operator can teach each one once: its exact
  address, which is what the agent suggests (never its domain: a suggestion is no wider than its
  evidence).
- **Customers with several senders** (Oakridge: three people; Pinnacle, Vireo, Saltmarsh, Sable: two)
  are asked about once per sender.
- **New senders arrive every week**, so the line never reaches zero.
- **Some messages are identifiable only by a reference**: a customs broker and a haulier write for
  several customers, quoting references the seed knows (\`CVE-…\`, \`BW-…\`, \`KP/…\`, \`TWP…\`,
  \`NGM/…\` in the subject, \`QS/…\` in the body). The haulier also quotes references nobody has
  taught a pattern for (Pinnacle's \`PA-2026-09…\`, Oakridge's \`OFC-…\`): the agent asks every
  time, offers the haulier's address as the mark, and a person declines to remember it — that
  address would claim every customer's mail.
- **Forwarded mail**: a colleague forwards to intake; the agent suggests the original sender from
  the quoted \`From:\` line, never the colleague.
- **A forwarder billing for a customer** (\`billing@origin.example\` for Northgate) and a look-alike
  domain (\`billing@origin-example.example\` is Hollis Toys).
- **Manifests**: forwarders head the waybill column their own way. Those using the seed's headings
  (\`Waybill\`, \`AWB\`, \`MAWB\`) never ask; the others ask the first time their layout appears and not
  after the lesson. \`Air Waybill No\` is used by two forwarders, so the second never asks.
- Time zones and summer time (the clocks go back on 25 October 2026; a US sender's on 1 November),
  multipart/alternative, PDF and CSV attachments, CRLF line ends, RFC 2047 names, quoted-printable.

## Senders

| sender | customer(s) | arrives in week | how often | messages | with the seed alone |
|---|---|---|---|---|---|
${senderRows.join('\n')}

## Forwarders (manifests)

| forwarder | format | waybill heading | per week | manifests | with the seed alone |
|---|---|---|---|---|---|
${forwarderRows.join('\n')}
`;
}

await main();
