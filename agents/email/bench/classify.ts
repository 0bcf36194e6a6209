/**
 * Classification time per message with 1,000 / 10,000 / 50,000 marks: the agent's RE2 Sets
 * (matchMarks) against the obvious alternative, a loop over one RE2 per mark. Both score the same
 * way; every message's verdict is checked to agree before any time is reported.
 *
 * Then a question's suggestion at the same sizes (a message no mark settles: its sender is one
 * customer's mark, its reference another's): `suggestEvidence` as the agent calls it, against the
 * way it looked for customers already holding the sender until 2026-12-01, each customer's from
 * marks compiled and tried in turn (which it did on top of the rest).
 *
 *   npx tsx agents/email/bench/classify.ts     (or: pnpm --filter @learnables/email-agent bench)
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type RE2 from 're2';
import { defineCollection } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import { CustomerMarks, compileMark } from '../src/customer-marks.ts';
import type { Mark } from '../src/customer-marks.ts';
import { referencePattern, senderPattern } from '../src/mark-patterns.ts';
import { compileMarks, matchMarks } from '../src/match-marks.ts';
import { suggestEvidence } from '../src/suggest-mark.ts';
import type { EmailInput } from '../src/email-input.ts';
import { RecentSenders } from '../src/recent-senders.ts';
import { MESSAGE_FIELDS } from '../src/message-fields.ts';
import type { MessageField, MessageFields } from '../src/message-fields.ts';

const SIZES = [1_000, 10_000, 50_000];
const MESSAGES = 300;
/** The loop is slow at 50,000 marks; it reads fewer messages there to keep the run short. */
const LOOP_MESSAGES = 60;
const MARGIN = 1;

const address = (i: number) => `buyer${i}@customer${i}.example`;
const reference = (i: number) => `CU-2026-${String(i).padStart(6, '0')}`;

/** Two marks per customer, as suggestions make them: the exact sender, and a reference in the subject; every tenth a reference anywhere. */
function customersWith(markCount: number): Definition<CustomerMarks> {
  const entries: CustomerMarks[] = [];
  for (let c = 0; c < markCount / 2; c++) {
    const marks: Mark[] = [
      { pattern: senderPattern(address(c)), where: 'from' },
      { pattern: referencePattern(reference(c)), where: c % 10 === 0 ? 'any' : 'subject' },
    ];
    entries.push(new CustomerMarks(`customer-${c}`, `Customer ${c}`, marks));
  }
  return defineCollection('customers', entries);
}

const FILLER = 'Please book in the consignment below; pallets are shrink-wrapped and labelled. ';

/** Deterministic messages: some from known senders, some with a known reference only, most unknown. */
function messagesFor(customerCount: number, count: number): MessageFields[] {
  let seed = 42;
  const next = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % below;
  };
  return Array.from({ length: count }, (_, m) => {
    const known = next(customerCount);
    const stranger = customerCount + next(1_000_000);
    const kind = m % 5;
    return {
      from: `Someone <${address(kind < 2 ? known : stranger)}>`,
      subject: `Pre-alert ${reference(kind === 2 ? known : stranger)} - ${m} pallets`,
      body: `Hello,\n\n${FILLER.repeat(18)}\nOur ref ${reference(stranger + 1)}, PO OF-2026-${m}.\n\nRegards`,
      attachments: `invoice-${reference(stranger + 2)}.pdf`,
    };
  });
}

interface LoopMark {
  readonly customer: string;
  readonly places: readonly MessageField[];
  readonly regex: RE2;
}

/** The alternative to a Set: one compiled RE2 per mark, tried one by one, scored the same way. */
function loopVerdict(marks: readonly LoopMark[], fields: MessageFields): string {
  const points = new Map<string, number>();
  for (const mark of marks) {
    if (mark.places.some((place) => mark.regex.test(fields[place]))) points.set(mark.customer, (points.get(mark.customer) ?? 0) + 1);
  }
  const [top, next] = [...points].sort((a, b) => b[1] - a[1]);
  if (top === undefined) return 'unmarked';
  return top[1] - (next?.[1] ?? 0) >= MARGIN ? top[0] : 'close';
}

function setVerdict(definition: Definition<CustomerMarks>, fields: MessageFields): string {
  const verdict = matchMarks(definition, fields, MARGIN);
  return verdict.kind === 'settled' ? verdict.winner : verdict.kind;
}

function microseconds(run: () => void, repeat: number): number {
  const start = performance.now();
  for (let i = 0; i < repeat; i++) run();
  return ((performance.now() - start) * 1000) / repeat;
}

/** The old search for customers already holding a sender: every from (or any) mark compiled and tried. */
function holdersOneByOne(definition: Definition<CustomerMarks>, from: string): number {
  return definition.entries.filter((customer) => customer.marks.some((mark) => (mark.where === 'from' || mark.where === 'any') && compileMark(mark.pattern).test(from))).length;
}

/** Messages the marks leave open: a known sender with another known customer's reference (a tie). */
function questionsFor(customerCount: number, count: number): EmailInput[] {
  return Array.from({ length: count }, (_, m) => {
    const known = (m * 7_919) % customerCount;
    return {
      from: { address: address(known), name: 'Someone' },
      subject: `Pre-alert ${reference((known + 1) % customerCount)}`,
      body: `Hello,\n\n${FILLER.repeat(4)}\nOur ref ${reference(customerCount + m)}.\n\nRegards`,
      attachments: [],
    };
  });
}

const SUGGESTIONS = 40;
/** The old search costs a compile per mark: a few messages are enough to time it. */
const OLD_SUGGESTIONS = 5;
const suggestionRows: string[] = [];
const rows: string[] = [];
for (const size of SIZES) {
  const definition = customersWith(size);
  const messages = messagesFor(size / 2, MESSAGES);

  const compileStart = performance.now();
  compileMarks(definition);
  const compileMs = performance.now() - compileStart;

  const loopMarks: LoopMark[] = definition.entries.flatMap((customer) =>
    customer.marks.map((mark) => ({
      customer: customer.key,
      places: mark.where === 'any' ? MESSAGE_FIELDS : [mark.where],
      regex: compileMark(mark.pattern),
    })),
  );

  for (const fields of messages.slice(0, LOOP_MESSAGES)) {
    const bySet = setVerdict(definition, fields);
    const byLoop = loopVerdict(loopMarks, fields);
    if (bySet !== byLoop) throw new Error(`The set and the loop disagree at ${size} marks: ${bySet} against ${byLoop} for ${fields.from}`);
  }
  const settled = messages.filter((fields) => !['unmarked', 'close'].includes(setVerdict(definition, fields))).length;

  let i = 0;
  const setUs = microseconds(() => setVerdict(definition, messages[i++ % messages.length] as MessageFields), MESSAGES * 10);
  let j = 0;
  const loopUs = microseconds(() => loopVerdict(loopMarks, messages[j++ % LOOP_MESSAGES] as MessageFields), LOOP_MESSAGES);

  rows.push(
    `| ${size.toLocaleString('en')} | ${compileMs.toFixed(0)} ms | ${setUs.toFixed(1)} µs | ${(loopUs / 1000).toFixed(2)} ms | ${(loopUs / setUs).toFixed(0)}× | ${settled} of ${MESSAGES} |`,
  );
  const questions = questionsFor(size / 2, SUGGESTIONS);
  const recent = new RecentSenders();
  for (const input of questions) {
    const fields = { from: `Someone <${input.from.address}>`, subject: input.subject, body: input.body, attachments: '' };
    if (matchMarks(definition, fields, MARGIN).kind !== 'close') throw new Error(`${input.subject} should tie at ${size} marks`);
    if (suggestEvidence(input, { customers: definition, recent })?.why?.includes('already a mark of') !== true) throw new Error(`${input.from.address} should be found held at ${size} marks`);
  }
  let k = 0;
  const suggestUs = microseconds(() => suggestEvidence(questions[k++ % SUGGESTIONS] as EmailInput, { customers: definition, recent }), SUGGESTIONS);
  let l = 0;
  const oldUs = microseconds(() => holdersOneByOne(definition, `Someone <${(questions[l++ % SUGGESTIONS] as EmailInput).from.address}>`), OLD_SUGGESTIONS);
  suggestionRows.push(`| ${size.toLocaleString('en')} | ${(suggestUs / 1000).toFixed(2)} ms | ${(oldUs / 1000).toFixed(1)} ms | ${(oldUs / suggestUs).toFixed(0)}× |`);
  console.error(`${size} marks done`);
}

const cpu = cpus();
console.log(`Machine: ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, Node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} at the end\n`);
console.log('| marks | compile the sets (once per version) | RE2 Set, per message | loop of RE2, per message | loop ÷ Set | settled |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);

console.log(`\nA question's suggestion (${SUGGESTIONS} messages whose sender is one customer's mark and reference another's), against the old search for who holds the sender alone (${OLD_SUGGESTIONS} messages):\n`);
console.log('| marks | suggestion, per message (sets + index of marks) | old search for the sender\'s holders alone, per message | old ÷ new |');
console.log('|---:|---:|---:|---:|');
for (const row of suggestionRows) console.log(row);
