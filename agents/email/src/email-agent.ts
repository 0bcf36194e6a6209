import type { Definition } from '@learnables/learnable';
import type { EntryChoice } from '@learnables/protocol';
import type { LearnableAgent, Reading } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';
import { MARK_PLACES, customerMarksKind } from './customer-marks.ts';
import type { CustomerMarks, MarkLesson, MarkPlace } from './customer-marks.ts';
import type { EmailInput } from './email-input.ts';
import { findCustomer, matchMarks, prepareMarks } from './match-marks.ts';
import { InternalSenders } from './internal-senders.ts';
import { senderLine } from './message-fields.ts';
import { messageModel } from './message-model.ts';
import type { MessageModel } from './message-model.ts';
import { evidenceNotes, sharedFormatNotes } from './evidence-notes.ts';
import type { MessageField } from './message-fields.ts';
import { emailFromParts } from './parse-parts.ts';
import { howSentence, questionFor, readsAnswered, readsNone } from './sentences.ts';
import { COLLECTION, customerDecider, customerFinding, decideOn, decidingEvidence } from './customer-finding.ts';
import { RecentSenders } from './recent-senders.ts';
import { bodyExcerpt } from './body-excerpt.ts';
import { suggestEvidence } from './suggest-mark.ts';

/** Which customer a message belongs to, and what said so. */
export interface EmailResult {
  /** Null when the operator answered that the message belongs to no customer. */
  readonly customer: string | null;
  readonly customerName: string | null;
  /** `rules` when marks decided; `operator` when a person answered the question. */
  readonly decidedBy: 'rules' | 'operator';
  /** The winner's marks that matched; empty when the operator decided. */
  readonly marks: readonly DecidingMark[];
  /** The version of `customers` the task was pinned to. */
  readonly version: number;
  readonly answeredBy?: string;
  /**
   * Present and true when the entry decided stands for mail that is no customer's (a newsletter,
   * a notice): `customer` then names that entry, and the message belongs to no customer.
   */
  readonly noCustomer?: true;
}

export interface DecidingMark {
  readonly pattern: string;
  readonly where: MarkPlace;
  /** The part it matched in first (a mark for `any` may match several). */
  readonly foundIn: MessageField;
  readonly text: string;
}

export interface EmailAgentOptions {
  /** How many points the top customer must lead the next by to win; at least 1. */
  readonly margin?: number;
  /** Where the agent remembers whom senders lately wrote for; each agent has its own by default. */
  readonly recent?: RecentSenders;
  /**
   * The warehouse's own people and mailboxes (issue 35): only their forwards are read as the
   * forwarded customer's mail, and none of their addresses is offered as a customer's mark. None by
   * default: every forward is then someone else's quoted text.
   */
  readonly internal?: InternalSenders;
}

export function createEmailAgent(options: EmailAgentOptions = {}): LearnableAgent<EmailInput, EmailResult, CustomerMarks> {
  const margin = options.margin ?? 1;
  // Whom each sender's messages were lately decided for, so a shared sender is not offered as a mark.
  const recent = options.recent ?? new RecentSenders();
  const internal = options.internal ?? new InternalSenders();
  // The model of a message read, for `completed` when the runtime hands back the same input (it usually
  // does): a second model of a 40 MB body would cost as much as the first. Weak: it goes with the input.
  const models = new WeakMap<EmailInput, MessageModel>();
  const modelOf = (input: EmailInput): MessageModel => {
    let model = models.get(input);
    if (model === undefined) {
      model = messageModel(input, internal);
      models.set(input, model);
    }
    return model;
  };
  if (!Number.isInteger(margin) || margin < 1) {
    throw new RangeError(`The margin must be a whole number of points, at least 1, and ${margin} is not: with less, a tie would settle.`);
  }

  return {
    name: 'Email intake agent',
    description:
      'Reads the emails that reach a warehouse intake mailbox and says which customer each belongs to, by the marks it has been taught: sender addresses, domains, shipment references. When it cannot tell, it asks, and the answer can be taught.',
    version: '0.1.0',
    skill: {
      id: 'identify-customer',
      name: 'Identify the customer',
      description: 'Says which customer an email belongs to, and which mark (sender, reference…) gave it away.',
      examples: ['An email from billing@origin.example with a pre-alert for NGM/2026/1142', 'A forwarded delivery note'],
      inputModes: ['message/rfc822', 'text/plain'],
    },
    declaration: {
      collection: COLLECTION,
      entry: 'customer',
      teaches: 'which customer a message belongs to',
      how: howSentence(margin),
      decidedBy: 'rules',
      // A new customer can be added from the question itself; a message may belong to none.
      addsEntries: true,
      admitsNone: true,
      lessonFields: [
        {
          name: 'pattern',
          label: 'Text that gives the customer away',
          kind: 'text',
          // A client author reads this to build a pattern by hand: say what text the pattern meets.
          help: 'A sender address, a domain or a reference, e.g. <billing@origin\\.example>. It is a regular expression (RE2) matched regardless of case: put a backslash before a dot or another special character to match it as it is. The from reads as <address> (a display name is no evidence: anyone can type one), so <billing@origin\\.example> matches exactly that address and not a longer one that contains it; @origin\\.example> matches the whole domain.',
        },
        {
          name: 'where',
          label: 'Where to look',
          kind: 'choice',
          choices: [...MARK_PLACES],
          default: 'from',
          help: 'from: the sender; subject; body; attachments: file names and the text of text attachments; any: all of these.',
        },
        {
          name: 'sender',
          label: 'Only in mail from',
          kind: 'text',
          help: "Optional: a pattern the sender must match too, e.g. <noreply@dockslot-portal\\.example>, for a booking portal or a haulier that writes for several customers: its address alone tells none of them apart, and the name or reference alone could be in anyone's mail. Leave empty for any sender.",
        },
      ],
    },
    kinds: [customerMarksKind],
    // A 40 MB email grows by a third in base64, plus the JSON around it.
    bodyLimit: '56mb',

    parse: emailFromParts,
    // The same function, run by the runtime in its parse threads: a 37 MB message takes mailparser
    // seconds, and /healthz and other messages are answered meanwhile.
    parseModule: { url: new URL('./parse-parts.ts', import.meta.url), name: 'emailFromParts' },

    dateOf(input) {
      return input.date === undefined ? undefined : new Date(input.date);
    },

    // Compile a new version's sets ahead of the first message, in slices (see prepareMarks).
    async prepare(definitions) {
      if (definitions.has(COLLECTION)) await prepareMarks(definitions.of(customerMarksKind));
    },

    read(input, definitions): Reading<EmailResult, MarkLesson> {
      const customers = definitions.of(customerMarksKind);
      // The message as mail systems read it: only the author's own part decides (issue 35).
      const model = modelOf(input);
      const fields = model.own;
      const verdict = decideOn(customers, decidingEvidence(model), margin);
      // The same finding the decider gives preview (customer-finding.ts).
      const customer = customerFinding(customers, verdict, margin);
      if (verdict.kind === 'settled') {
        const name = labelOf(customers, verdict.winner);
        return {
          settled: true,
          findings: { customer },
          result: {
            customer: verdict.winner,
            customerName: name,
            decidedBy: 'rules',
            marks: verdict.hits.map((hit) => ({ pattern: hit.mark.pattern, where: hit.mark.where, foundIn: hit.field, text: hit.text })),
            version: customers.version,
            ...(findCustomer(customers, verdict.winner)?.noCustomer === true ? { noCustomer: true as const } : {}),
          },
        };
      }
      const contenders = verdict.kind === 'close' ? verdict.contenders : [];
      const contenderNames = contenders.map((key) => labelOf(customers, key));
      const suggestion = suggestEvidence(input, { customers, recent, internal }, { model });
      const suggested = suggestion?.mark;
      // Why the message's other parts decide nothing, in plain words: what the rule left out.
      const notes = [...evidenceNotes(model, customers, margin), ...sharedFormatNotes(verdict, customers)];
      const question = [questionFor(contenderNames), ...notes, ...(suggestion?.why === undefined ? [] : [suggestion.why])].join(' ');
      return {
        settled: false,
        findings: { customer },
        question: {
          collection: COLLECTION,
          question,
          // A customer's name is a mark of that customer alone: it is the likely answer, so it comes first.
          entries: entriesFirst(
            customers,
            suggestion?.names === undefined ? contenders : [suggestion.names, ...contenders.filter((key) => key !== suggestion.names)],
          ),
          ...(suggested === undefined ? {} : { suggested: { ...suggested } }),
        },
      };
    },

    answer(input, definitions, question, answer): Reading<EmailResult, MarkLesson> {
      const customers = definitions.of(customerMarksKind);
      // A customer added since the pin is not in the pinned version; the runtime found it in a later one.
      const customer = answer.addedIn ? undefined : findCustomer(customers, answer.entry);
      const entry = answer.addedIn ? { key: answer.entry, label: answer.addedIn.label } : customer;
      if (entry === undefined) {
        const known = question.entries.map((choice) => choice.label).join(', ');
        throw new InputRefused(`"${answer.entry}" is not one of the customers; the answer must be one of: ${known}.`);
      }
      return {
        settled: true,
        findings: { customer: { settled: true, winner: entry.key, reads: readsAnswered(entry.label, answer.answeredBy), collection: COLLECTION } },
        result: {
          customer: entry.key,
          customerName: entry.label,
          decidedBy: 'operator',
          marks: [],
          version: customers.version,
          ...(customer?.noCustomer === true ? { noCustomer: true as const } : {}),
          ...(answer.answeredBy === undefined ? {} : { answeredBy: answer.answeredBy }),
        },
      };
    },

    answerNone(_input, definitions, _question, answer): Reading<EmailResult, MarkLesson> {
      return {
        settled: true,
        findings: { customer: { settled: true, reads: readsNone(answer.answeredBy), collection: COLLECTION } },
        result: {
          customer: null,
          customerName: null,
          decidedBy: 'operator',
          marks: [],
          version: definitions.of(customerMarksKind).version,
          ...(answer.answeredBy === undefined ? {} : { answeredBy: answer.answeredBy }),
        },
      };
    },

    // Whom the sender wrote for, noted only once the task completed (decided by marks or answered),
    // never while reading: a reread or a preview reads too, and must leave the next question as it was.
    completed(input, result) {
      if (result.customer !== null) recent.saw(addressIn(modelOf(input).own.from), result.customer);
    },

    // Preview reads thousands of recent messages under two versions: only the marks, and only again
    // for the messages a lesson's customer can reach.
    decider: customerDecider(margin, internal),

    summarize(input) {
      return { from: senderLine(input.from), subject: input.subject, excerpt: bodyExcerpt(input.body) };
    },
  };
}

/** The agent with the default margin of one point. */
export const emailAgent = createEmailAgent();

function labelOf(customers: Definition<CustomerMarks>, key: string): string {
  return findCustomer(customers, key)?.label ?? key;
}

/** The address inside a from line, `Name <address>` or `<address>`. */
function addressIn(from: string): string {
  return /<([^<>]*)>$/.exec(from)?.[1] ?? '';
}

/** Every customer, contenders first so the likely answers are at hand. */
function entriesFirst(customers: Definition<CustomerMarks>, first: readonly string[]): EntryChoice[] {
  const choice = (key: string): EntryChoice => ({ key, label: labelOf(customers, key) });
  const rest = customers.entries.filter((entry) => !first.includes(entry.key)).map((entry) => ({ key: entry.key, label: entry.label }));
  return [...first.map(choice), ...rest];
}
