import type { Finding, LearnableAgent, PinnedDefinitions, Question, Reading } from '@learnables/runtime';
import type { ExampleLesson, HandlingExamples } from './handling-examples.ts';
import { COLLECTION, handlingExamplesKind } from './handling-examples.ts';
import type { Candidate, Decision } from './handling-model.ts';
import { ASK_BELOW, ASK_WITHIN, decide, modelOf, prepareModel } from './handling-model.ts';
import type { Consignment, GoodsLine } from './parse-consignment.ts';
import { parseConsignment } from './parse-consignment.ts';

/** The card's promise, written from the constants the code decides with; `handling-agent.test.ts` holds each clause. */
export const HOW =
  "A goods description that is exactly a taught example (case and spacing aside) gets that example's handling; " +
  'any other is classified by a naive Bayes text classifier (wink-naive-bayes-text-classifier) trained on every example of the version, ' +
  'whose odds for each handling are made probabilities that add up to 1, ' +
  `and I ask when the top handling's probability is under ${ASK_BELOW} or within ${ASK_WITHIN} of the next.`;

export const QUESTION = 'Which handling does this consignment need?';

/** What the agent decided for one goods line. */
export interface LineHandling {
  readonly row?: number;
  readonly description: string;
  /** The handling's key; null for a manifest row left undecided (see `read`). */
  readonly handling: string | null;
  /** `phrase`: a taught example; `model`: the classifier, sure enough; `operator`: answered; null: undecided. */
  readonly decidedBy: 'phrase' | 'model' | 'operator' | null;
  /** The classifier's probability for the handling decided (or the top one, undecided); none for an operator's. */
  readonly probability?: number;
}

export interface HandlingResult {
  readonly lines: readonly LineHandling[];
}

/** Two decimals, as the console shows probabilities. */
const shown = (probability: number) => probability.toFixed(2);
const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;

function candidatesText(candidates: readonly Candidate[], count = 3): string {
  return candidates
    .slice(0, count)
    .map((candidate) => `${candidate.label} ${shown(candidate.probability)}`)
    .join(', ');
}

/** A finding's name: `handling` for a message of one description, `row 7` for a manifest's rows. */
const nameOf = (line: GoodsLine) => (line.row === undefined ? 'handling' : `row ${line.row}`);

function readsOf(decision: Decision, trainedOn: number): string {
  switch (decision.by) {
    case 'phrase':
      return `A taught example of ${decision.entry.label}`;
    case 'model':
      return `${decision.entry.label} by the classifier, trained on ${trainedOn} examples (${candidatesText(decision.candidates)})`;
    case 'nobody':
      return `Not sure (${candidatesText(decision.candidates)}): the rule asks under ${ASK_BELOW}, or within ${ASK_WITHIN} of the next`;
  }
}

function handlingOf(line: GoodsLine, decision: Decision): LineHandling {
  const position = line.row === undefined ? {} : { row: line.row };
  if (decision.by === 'nobody') {
    return { ...position, description: line.description, handling: null, decidedBy: null, probability: decision.candidates[0]?.probability ?? 0 };
  }
  const probability = decision.candidates.find((candidate) => candidate.key === decision.entry.key)?.probability ?? 0;
  return { ...position, description: line.description, handling: decision.entry.key, decidedBy: decision.by, probability };
}

interface Decided {
  readonly line: GoodsLine;
  readonly decision: Decision;
}

function decideAll(consignment: Consignment, pinned: PinnedDefinitions): { decided: Decided[]; trainedOn: number } {
  const model = modelOf(pinned.of(handlingExamplesKind));
  return { decided: consignment.lines.map((line) => ({ line, decision: decide(model, line.description, line.tokens) })), trainedOn: model.trainedOn };
}

function findingsOf(decided: readonly Decided[], trainedOn: number, answered?: { line: GoodsLine; key: string; label: string }): Record<string, Finding> {
  const findings: Record<string, Finding> = {};
  for (const { line, decision } of decided) {
    if (answered?.line === line) {
      findings[nameOf(line)] = {
        settled: true,
        winner: answered.key,
        reads: `${answered.label}, as the operator answered (the classifier: ${candidatesText(decision.candidates)})`,
        collection: COLLECTION,
      };
      continue;
    }
    const settled = decision.by !== 'nobody';
    findings[nameOf(line)] = {
      settled,
      ...(decision.by !== 'nobody' && { winner: decision.entry.key }),
      reads: readsOf(decision, trainedOn),
      collection: COLLECTION,
    };
  }
  return findings;
}

/** The question about one line: every handling, the likeliest first, and the description as the example to teach. */
function questionAbout(line: GoodsLine, decision: Decision, manifestRows: number): Question<ExampleLesson> {
  const where = line.row === undefined || manifestRows === 1 ? '' : ` Row ${line.row}: ${quoted(line.description)}.`;
  return {
    collection: COLLECTION,
    question: `${QUESTION}${where}`,
    entries: decision.candidates.map(({ key, label }) => ({ key, label })),
    // The description itself, and nothing wider: taught, it is one more example of the handling the
    // operator names (the console posts a lesson to the answered entry, since no `entry` is set).
    suggested: { example: line.description },
  };
}

export const handlingAgent: LearnableAgent<Consignment, HandlingResult, HandlingExamples> = {
  name: 'Handling agent',
  description:
    'Says which handling a consignment needs (general, fragile, perishable, dangerous goods, oversize, high value) from its goods description, with a text classifier trained on examples people taught. When it is not sure it asks, and a lesson is one more example.',
  version: '0.1.0',
  skill: {
    id: 'consignment-handling',
    name: 'Which handling does this consignment need?',
    description: 'Reads a goods description (or each row of a CSV manifest) and names its handling, or asks when the classifier is not sure.',
    // The first example asks (the seed has no word of it): the conformance kit sends it.
    examples: ['ornamental koi carp in oxygenated bags', 'frozen prawns, 12 cartons, keep at -18 °C'],
    inputModes: ['text/plain', 'text/csv', 'application/json'],
  },
  declaration: {
    collection: COLLECTION,
    entry: 'kind of handling',
    teaches: 'goods descriptions labelled with the handling they need, as examples for the classifier',
    how: HOW,
    decidedBy: 'hybrid',
    // A new handling can be added (then taught examples). Every consignment needs some handling: no "none of these".
    addsEntries: true,
    admitsNone: false,
    lessonFields: [
      {
        name: 'example',
        label: 'Example description',
        kind: 'text',
        help: 'A goods description of this handling. It becomes one example among many for the classifier, and this exact description is decided by it.',
      },
    ],
  },
  kinds: [handlingExamplesKind],
  parse: parseConsignment,
  // A manifest of 1,000 rows takes about 0.3 s to tokenize: large messages are parsed in threads.
  parseModule: { url: new URL('./parse-consignment.ts', import.meta.url), name: 'parseConsignment' },
  summarize: (consignment) => ({
    description: consignment.lines[0]?.description ?? '',
    ...(consignment.lines.length > 1 && { rows: consignment.lines.length }),
  }),
  // Train a new version's classifier off the request path, in slices (see prepareModel).
  async prepare(definitions) {
    if (definitions.has(COLLECTION)) await prepareModel(definitions.of(handlingExamplesKind));
  },
  read(consignment, pinned): Reading<HandlingResult, ExampleLesson> {
    const { decided, trainedOn } = decideAll(consignment, pinned);
    const findings = findingsOf(decided, trainedOn);
    const unsure = decided.find(({ decision }) => decision.by === 'nobody');
    if (unsure !== undefined) {
      return { settled: false, findings, question: questionAbout(unsure.line, unsure.decision, consignment.lines.length) };
    }
    return { settled: true, findings, result: { lines: decided.map(({ line, decision }) => handlingOf(line, decision)) } };
  },
  /**
   * The operator's handling decides the line asked about (the first one the classifier was not
   * sure of). In a manifest, other rows it was not sure of stay undecided (handling null): one
   * answer is not evidence about other goods. Answering teaches nothing; a lesson does.
   */
  answer(consignment, pinned, _question, { entry, addedIn }) {
    const { decided, trainedOn } = decideAll(consignment, pinned);
    const asked = decided.find(({ decision }) => decision.by === 'nobody');
    const label = addedIn?.label ?? pinned.of(handlingExamplesKind).entries.find((known) => known.key === entry)?.label ?? entry;
    const findings = findingsOf(decided, trainedOn, asked && { line: asked.line, key: entry, label });
    const lines = decided.map(({ line, decision }): LineHandling => {
      if (line !== asked?.line) return handlingOf(line, decision);
      return { ...(line.row === undefined ? {} : { row: line.row }), description: line.description, handling: entry, decidedBy: 'operator' };
    });
    return { settled: true, findings, result: { lines } };
  },
};
