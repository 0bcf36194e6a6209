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
 * And classification from the EmailInput as `read` does it, fields and marks, with the message
 * model of issue 35 (`messageModel` + `decideOn`: the author's own part, the kind of mail, the
 * forward's sender) against the fields before it (`messageFields` + `matchMarks`), in interleaved
 * rounds in the same minutes; a third of the messages are replies quoting an earlier message.
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
import { MESSAGE_FIELDS, messageFields } from '../src/message-fields.ts';
import { decideOn, decidingEvidence } from '../src/customer-finding.ts';
import { InternalSenders } from '../src/internal-senders.ts';
import { messageModel } from '../src/message-model.ts';
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
  return definition.entries.filter((customer) =>
    customer.marks.some((mark) => (mark.where === 'from' || mark.where === 'any') && compileMark(mark.pattern).test(from)),
  ).length;
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

/** The same messages as EmailInput, as parse-email gives them; every third a reply quoting the warehouse, every seventh a forward by it. */
function inputsFor(fields: readonly MessageFields[]): EmailInput[] {
  return fields.map((message, m) => {
    const address = /<([^>]*)>/.exec(message.from)?.[1] ?? '';
    const quoted =
      m % 3 === 0 ? `\n\nOn Mon, 26 Oct 2026 at 16:40, Intake <intake@warehouse.example> wrote:\n> ${FILLER}\n> Bay 4, ref ${reference(m + 7)}.\n` : '';
    const forwarded =
      m % 7 === 0
        ? `Please book in.\n\n---------- Forwarded message ---------\nFrom: Someone <${address}>\nDate: Mon, 26 Oct 2026\nSubject: ${message.subject}\nTo: <ops@warehouse.example>\n\n`
        : '';
    return {
      from: m % 7 === 0 ? { address: 'ops@warehouse.example', name: 'Ops' } : { address, name: 'Someone' },
      subject: m % 7 === 0 ? `Fwd: ${message.subject}` : message.subject,
      body: `${forwarded}${message.body}${quoted}`,
      attachments: [{ filename: message.attachments, mediaType: 'application/pdf' }],
    };
  });
}

/** The median of interleaved rounds of two ways, µs a message each. */
function interleaved(a: () => void, b: () => void, perRound: number, rounds = 7): [number, number] {
  const [as, bs]: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    as.push(microseconds(a, perRound));
    bs.push(microseconds(b, perRound));
  }
  const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
  return [median(as), median(bs)];
}

const internal = new InternalSenders({ domains: ['warehouse.example'] });
const modelRows: string[] = [];
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
  const inputs = inputsFor(messages);
  let b = 0;
  let w = 0;
  const [beforeUs, withModelUs] = interleaved(
    () => matchMarks(definition, messageFields(inputs[b++ % inputs.length] as EmailInput), MARGIN),
    () => decideOn(definition, decidingEvidence(messageModel(inputs[w++ % inputs.length] as EmailInput, internal)), MARGIN),
    MESSAGES * 2,
  );
  const modelSettled = inputs.filter((input) => decideOn(definition, decidingEvidence(messageModel(input, internal)), MARGIN).kind === 'settled').length;
  const beforeSettled = inputs.filter((input) => matchMarks(definition, messageFields(input), MARGIN).kind === 'settled').length;
  modelRows.push(
    `| ${size.toLocaleString('en')} | ${beforeUs.toFixed(1)} µs | ${withModelUs.toFixed(1)} µs | ${(withModelUs / beforeUs).toFixed(2)}× | ${beforeSettled} → ${modelSettled} of ${MESSAGES} |`,
  );
  const questions = questionsFor(size / 2, SUGGESTIONS);
  const recent = new RecentSenders();
  for (const input of questions) {
    const fields = { from: `Someone <${input.from.address}>`, subject: input.subject, body: input.body, attachments: '' };
    if (matchMarks(definition, fields, MARGIN).kind !== 'close') throw new Error(`${input.subject} should tie at ${size} marks`);
    if (suggestEvidence(input, { customers: definition, recent })?.why?.includes('already a mark of') !== true)
      throw new Error(`${input.from.address} should be found held at ${size} marks`);
  }
  let k = 0;
  const suggestUs = microseconds(() => suggestEvidence(questions[k++ % SUGGESTIONS] as EmailInput, { customers: definition, recent }), SUGGESTIONS);
  let l = 0;
  const oldUs = microseconds(() => holdersOneByOne(definition, `Someone <${(questions[l++ % SUGGESTIONS] as EmailInput).from.address}>`), OLD_SUGGESTIONS);
  suggestionRows.push(
    `| ${size.toLocaleString('en')} | ${(suggestUs / 1000).toFixed(2)} ms | ${(oldUs / 1000).toFixed(1)} ms | ${(oldUs / suggestUs).toFixed(0)}× |`,
  );
  console.error(`${size} marks done`);
}

const cpu = cpus();
console.log(
  `Machine: ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, Node ${process.version}; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')} at the end\n`,
);
console.log('| marks | compile the sets (once per version) | RE2 Set, per message | loop of RE2, per message | loop ÷ Set | settled |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);

console.log(
  `\nA question's suggestion (${SUGGESTIONS} messages whose sender is one customer's mark and reference another's), against the old search for who holds the sender alone (${OLD_SUGGESTIONS} messages):\n`,
);
console.log("| marks | suggestion, per message (sets + index of marks) | old search for the sender's holders alone, per message | old ÷ new |");
console.log('|---:|---:|---:|---:|');
for (const row of suggestionRows) console.log(row);

console.log(
  `\nClassifying from the EmailInput (${MESSAGES} messages, a third of them replies quoting an earlier message with another reference, a seventh forwarded by the warehouse): the fields and marks before the message model against the message model and its evidence rule; medians of 7 interleaved rounds:\n`,
);
console.log('| marks | fields + marks, before | message model + marks | model ÷ before | settled, before → with the model |');
console.log('|---:|---:|---:|---:|---:|');
for (const row of modelRows) console.log(row);
