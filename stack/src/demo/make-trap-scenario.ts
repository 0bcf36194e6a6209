/**
 * Writes the trap scenario: six weeks of an intake mailbox with the traps real warehouses have
 * (a booking portal's `noreply@` writing for three customers, a haulier for several, forwards in
 * old and localized Outlook layouts and under edited subjects, clerks' signatures with the
 * warehouse's postcode, phone numbers and EORI, look-alike domains, newsletters and notices that
 * are nobody's, new senders late), and the ground truth the trusting operator answers from.
 *
 *   npx tsx stack/src/demo/make-trap-scenario.ts                       fixtures/trap-scenario (main)
 *   npx tsx stack/src/demo/make-trap-scenario.ts --variant holdout --out /tmp/holdout
 *
 * `holdout` is a second stream written apart (other seed, customers, portal, clerks, layouts and
 * wording) that the agent's rules were never tuned on. Deterministic: running it twice writes the
 * same bytes. Manifests come from trap-manifests.ts, on a PRNG of their own.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Random } from '@learnables/testing';
import { between, mulberry32, pick, weighted } from '@learnables/testing';
import { offsetMinutes } from './cast.ts';
import type { Zone } from './cast.ts';
import type { Stream, StreamItem } from './stream.ts';
import { DAY_MS, TRAP_SCENARIO_DIR } from './stream.ts';

// Where the committed stream lives (stream.ts holds it, for the replay); exported here for the generator's users.
export { TRAP_SCENARIO_DIR };
import type { TrapCast, TrapSender, TrapVariant } from './trap-cast.ts';
import { TRAP_CASTS } from './trap-cast.ts';
import { writeTrapMessage } from './trap-mail.ts';
import type { TrapManifestFile } from './trap-manifests.ts';
import { trapManifestReadme, trapManifests } from './trap-manifests.ts';

const WEEKS = 6;

interface Planned {
  readonly at: Date;
  readonly week: number;
  readonly sender: TrapSender;
}

const DAY_WEIGHTS = [
  { day: 1, weight: 22 },
  { day: 2, weight: 21 },
  { day: 3, weight: 20 },
  { day: 4, weight: 21 },
  { day: 5, weight: 18 },
  { day: 6, weight: 2 },
];

function momentIn(cast: TrapCast, random: Random, week: number, day: number, zone: Zone, earliest = 7.5, latest = 17.5): Date {
  const midnight = cast.firstMonday + ((week - 1) * 7 + (day - 1)) * DAY_MS;
  const [from, to] = zone === 'us-east' ? [8, 11.5] : [earliest, latest];
  const minutes = Math.floor((from + random() * (to - from)) * 60);
  const local = midnight + minutes * 60_000 + between(random, 0, 59) * 1000;
  return new Date(local - offsetMinutes(zone, new Date(local)) * 60_000);
}

function plan(cast: TrapCast, random: Random): Planned[] {
  const planned: Planned[] = [];
  const add = (week: number, sender: TrapSender, day: number, earliest?: number, latest?: number) =>
    planned.push({ week, sender, at: momentIn(cast, random, week, day, sender.zone, earliest, latest) });
  for (let week = 1; week <= WEEKS; week++) {
    for (const sender of cast.senders) {
      if (sender.arrives > week) continue;
      if (sender.weekly !== undefined) add(week, sender, sender.weekly, 7, 9.5);
      if (sender.weeks?.includes(week)) add(week, sender, weighted(random, DAY_WEIGHTS).day);
      // Every drawn sender writes in the week it arrives.
      if (sender.weight > 0 && sender.arrives === week) add(week, sender, weighted(random, DAY_WEIGHTS).day);
    }
    const active = cast.senders.filter((s) => s.weight > 0 && s.arrives <= week);
    const draws = between(random, cast.drawsPerWeek[0], cast.drawsPerWeek[1]);
    for (let i = 0; i < draws; i++) add(week, weighted(random, active), weighted(random, DAY_WEIGHTS).day);
  }
  return planned.sort((a, b) => a.at.getTime() - b.at.getTime());
}

const stamp = (at: Date) => at.toISOString().slice(0, 16).replace(':', '').replace('T', '-');

export interface WrittenTrapScenario {
  readonly dir: string;
  readonly stream: Stream;
  readonly bytes: number;
}

/** Write one variant of the trap scenario into `dir` (replacing its email/ and manifests/). */
export async function writeTrapScenario(variant: TrapVariant, dir: string): Promise<WrittenTrapScenario> {
  const cast = TRAP_CASTS[variant];
  const random = mulberry32(cast.seed);
  const planned = plan(cast, random);
  for (const sub of ['email', 'manifests']) {
    rmSync(join(dir, sub), { recursive: true, force: true });
    mkdirSync(join(dir, sub), { recursive: true });
  }
  const items: (StreamItem & { readonly at: number })[] = [];
  let bytesWritten = 0;
  for (const [index, item] of planned.entries()) {
    const sender = item.sender;
    const customerKey = sender.serves.length === 0 ? undefined : pick(random, sender.serves);
    const customer = customerKey === undefined ? undefined : cast.customers.get(customerKey);
    if (customerKey !== undefined && customer === undefined) throw new Error(`${sender.id} serves ${customerKey}, which is not in the ${variant} cast`);
    const message = writeTrapMessage({ random, cast, sender, ...(customer && { customer }), at: item.at, week: item.week, sequence: index + 1 });
    const file = `email/${stamp(item.at)}-${sender.id}.eml`;
    writeFileSync(join(dir, file), message.bytes);
    bytesWritten += message.bytes.length;
    const forwardedBy = sender.forward ? cast.clerks.get(sender.forward.clerk)?.address : undefined;
    items.push({
      at: item.at.getTime(),
      file,
      date: item.at.toISOString(),
      week: item.week,
      agent: 'email',
      source: forwardedBy ? `${forwardedBy} forwarding ${sender.address}` : sender.address,
      truth: { entry: message.truth },
      trap: message.trap,
    });
  }
  const manifests: readonly TrapManifestFile[] = await trapManifests({
    cast,
    weeks: WEEKS,
    firstMonday: cast.firstMonday,
    random: mulberry32(cast.seed ^ 0x5eed),
  });
  for (const manifest of manifests) {
    const file = `manifests/${manifest.name}`;
    writeFileSync(join(dir, file), manifest.bytes);
    bytesWritten += manifest.bytes.length;
    items.push({
      at: manifest.at.getTime(),
      file,
      date: manifest.at.toISOString(),
      week: manifest.week,
      agent: 'manifest',
      source: manifest.source,
      truth: manifest.truth,
      trap: manifest.trap,
      ...(manifest.remember === false ? { remember: false as const, why: manifest.why ?? 'a person would not remember this one' } : {}),
    });
  }
  items.sort((a, b) => a.at - b.at || a.file.localeCompare(b.file));
  const messages: StreamItem[] = items.map(({ at: _at, ...item }) => item);
  const stream: Stream = {
    description: `The trap scenario (${variant}): six weeks of an intake mailbox with the traps real warehouses have, in arrival order, with the ground truth the trusting operator answers from. Generated by stack/src/demo/make-trap-scenario.ts; do not edit.`,
    from: new Date(cast.firstMonday).toISOString().slice(0, 10),
    to: new Date(cast.firstMonday + (WEEKS * 7 - 1) * DAY_MS).toISOString().slice(0, 10),
    weeks: WEEKS,
    messages,
  };
  writeFileSync(join(dir, 'stream.json'), `${JSON.stringify(stream, null, 1)}\n`);
  writeFileSync(join(dir, 'README.md'), readme(cast, stream, bytesWritten, manifests));
  return { dir, stream, bytes: bytesWritten };
}

function readme(cast: TrapCast, stream: Stream, bytes: number, manifests: readonly TrapManifestFile[]): string {
  const senderOf = (item: StreamItem) => cast.senders.find((s) => item.file.endsWith(`-${s.id}.eml`));
  const rows: string[] = [];
  for (let week = 1; week <= stream.weeks; week++) {
    const inWeek = stream.messages.filter((m) => m.week === week);
    const emails = inWeek.filter((m) => m.agent === 'email');
    const kinds = (kind: TrapSender['kind']) => emails.filter((m) => senderOf(m)?.kind === kind).length;
    const late = emails.filter((m) => (senderOf(m)?.arrives ?? 0) >= 5 && senderOf(m)?.arrives === week).length;
    const monday = new Date(Date.parse(stream.from) + (week - 1) * 7 * DAY_MS).toISOString().slice(0, 10);
    rows.push(
      `| ${week} | ${monday} | ${emails.length} | ${inWeek.length - emails.length} | ${kinds('portal')} | ${kinds('haulier')} | ${kinds('forwarded')} | ${kinds('nobody')} | ${kinds('phish')} | ${late} |`,
    );
  }
  const senderRows = cast.senders.map((s) => {
    const count = stream.messages.filter((m) => senderOf(m)?.id === s.id).length;
    const how = s.weekly
      ? `every ${['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'][s.weekly]}`
      : s.weeks
        ? `weeks ${s.weeks.join(', ')}`
        : `weight ${s.weight}`;
    const via = s.forward ? `forwarded by ${cast.clerks.get(s.forward.clerk)?.address} (${s.forward.layouts.join(', ')})` : s.kind;
    return `| ${s.name} <${s.address}> | ${s.serves.length === 0 ? '*no-customer*' : s.serves.join(', ')} | ${via} | ${s.arrives} | ${how} | ${count} |`;
  });
  const manifestPart = trapManifestReadme(manifests);
  return `# The trap scenario${cast.variant === 'main' ? '' : ` (${cast.variant})`}

Generated by [\`stack/src/demo/make-trap-scenario.ts\`](../../stack/src/demo/make-trap-scenario.ts) (cast:
[\`trap-cast.ts\`](../../stack/src/demo/trap-cast.ts), wording and layouts:
[\`trap-mail.ts\`](../../stack/src/demo/trap-mail.ts), manifests:
[\`trap-manifests.ts\`](../../stack/src/demo/trap-manifests.ts)); do not edit by hand.

\`\`\`sh
npx tsx stack/src/demo/make-trap-scenario.ts                                  # this folder; deterministic
npx tsx stack/src/demo/make-trap-scenario.ts --variant holdout --out <dir>    # the holdout stream
\`\`\`

${stream.messages.length} messages from Monday ${stream.from} to Sunday ${stream.to} (${(bytes / 1024).toFixed(0)} KiB) to the
intake mailbox of ${cast.warehouse.name} (\`${cast.warehouse.intake}\`). Everything is fictitious; domains are
\`.example\` or \`.invalid\`. Customers are keys of [\`fixtures/seeds/customers.json\`](../seeds/customers.json);
mail that is no customer's belongs to its \`no-customer\` entry.

[\`stream.json\`](stream.json) has the shape of [the six-week scenario's](../scenario/README.md)
(\`{ file, date, week, agent, source, truth, trap }\`); \`trap\` says which trap a message carries. The
operator who replays it **trusts every suggestion** (\`pnpm demo:compare\`, \`pnpm demo --trap\`; see
[docs/trap-scenario](../../docs/trap-scenario/README.md)): there is no \`remember: false\` in it.

This stream was written to be hard, not to be passed: it was written before the email agent's
rules for it, and a second variant (\`--variant holdout\`: other customers, portal, hauliers, clerks,
layouts and wording, another seed) is replayed alongside it to check that those rules are general.

## The traps

- **A booking portal's automated address writes for three customers.** Most of its notices name the
  customer; the rest quote only the customer's reference. Its address alone tells nobody apart.
- **A haulier (or customs broker) writes for several customers**, one of which the seed knows by a
  reference, naming the customer or quoting a reference.
- **Forwards** by colleagues, each in their own mail program: old Outlook (\`From: Name [mailto:…]\`),
  German (\`WG:\` / \`Von:\`), French (\`TR:\` / \`De :\`), Italian (\`I:\` / \`Da:\`), Spanish (\`RV:\` / \`De:\`),
  Gmail, Apple Mail, \`>\`-quoted, and under a subject the colleague wrote herself. Each colleague signs
  above the quoted block with the warehouse's own address, postcode, phone numbers and tax numbers:
  text that stands in every forward, whoever it concerns.
- **Look-alike domains** (\`…@brightwell-foods.example-remit.invalid\` and the like) asking for payment:
  nobody's mail, and never the customer whose domain they imitate.
- **Nobody's mail**: a weekly newsletter (that now and then names a customer in a headline),
  maintenance notices and internal notices.
- **New senders late**, in weeks 5 and 6.

## Week by week

| week | from | emails | manifests | portal | haulier/broker | forwards | nobody's | look-alike | new senders |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

## Senders

| sender | whose mail | how it arrives | arrives in week | how often | messages |
|---|---|---|---|---|---|
${senderRows.join('\n')}
${manifestPart === '' ? '' : `\n${manifestPart}\n`}`;
}

async function main(argv: readonly string[]): Promise<void> {
  let variant: TrapVariant = 'main';
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--variant') {
      const value = argv[++i];
      if (value !== 'main' && value !== 'holdout') throw new Error(`--variant takes main or holdout, not ${value ?? 'nothing'}.`);
      variant = value;
    } else if (arg === '--out') out = argv[++i];
    else throw new Error(`Unknown option ${arg}. Options: --variant main|holdout, --out <dir>.`);
  }
  if (out === undefined && variant !== 'main') throw new Error('The holdout is not committed: say where to write it with --out <dir>.');
  const written = await writeTrapScenario(variant, out ?? TRAP_SCENARIO_DIR);
  console.log(
    `wrote ${written.stream.messages.length} messages (${(written.bytes / 1024).toFixed(0)} KiB) and stream.json to ${relative(process.cwd(), written.dir) || '.'}`,
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.message);
    process.exit(2);
  });
}
