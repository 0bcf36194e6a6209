import type { Learnable, LearnableKind } from '@learnables/learnable';
import { LessonRefused, saysOf } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import { DeclarationSchema } from '@learnables/protocol';
import type { LearnableAgent, Question, Reading } from './learnable-agent.ts';
import type { PinnedDefinitions } from './pinned-definitions.ts';

/**
 * A mistake in an agent's own code or card that the runtime found: never the fault of an input or
 * of the person who answered. The message says what to change.
 */
export class AgentMistake extends Error {
  override readonly name = 'AgentMistake';
}

const listed = (items: Iterable<string>) => [...items].map((item) => `"${item}"`).join(', ') || 'none';

/**
 * What can be checked before the agent serves anyone: its card's declaration against its kinds.
 * The declared collection must be one of them; `entry` must name what an entry is, not a
 * collection or a lesson field; and when the learnable declares its value's schema, every lesson
 * field must be a key it takes, every key it needs a field, and every choice and default one it
 * accepts — a form the learnable refuses whatever the person types is found here, not by them.
 * The declaration's other promises are held to what the agent can do: it is one the protocol
 * accepts; its lesson fields have names of their own; `admitsNone: true` needs an `answerNone`
 * (else the console offers "None of these" and every such answer is refused); `addsEntries: true`
 * needs a kind whose `create` makes the entry asked for, one the kind rebuilds from its state.
 */
export function checkAgent(agent: LearnableAgent<any, any, any>): void {
  const problems: string[] = [];
  const { declaration, kinds } = agent;
  const parsed = DeclarationSchema.omit({ methods: true }).safeParse(declaration);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    problems.push(`its declaration is not one the protocol accepts (${issue.path.join('.') || 'declaration'}: ${issue.message})`);
  }
  const names = declaration.lessonFields.map((field) => field.name);
  for (const [index, name] of names.entries()) {
    if (names.indexOf(name) !== index) problems.push(`two of its lesson fields are named "${name}"; a form sends one value per name`);
  }
  if (declaration.admitsNone === true && typeof agent.answerNone !== 'function') {
    problems.push(
      'its declaration says admitsNone: true, and it has no answerNone: every "none of these" answer would be refused; add answerNone or drop admitsNone',
    );
  }
  const collections = kinds.map((kind) => kind.collection);
  for (const [index, collection] of collections.entries()) {
    if (collections.indexOf(collection) !== index) problems.push(`two of its kinds are for "${collection}"; each collection has one kind`);
  }
  const kind = kinds.find((k) => k.collection === declaration.collection);
  if (kind === undefined) {
    problems.push(
      `its card declares the collection "${declaration.collection}", and its kinds are for ${listed(collections)}; list that collection's kind in kinds`,
    );
  }
  const fields = declaration.lessonFields.map((field) => field.name);
  const entry = declaration.entry.trim();
  if (entry === declaration.collection || collections.includes(entry)) {
    problems.push(
      `its declaration's entry is "${entry}", the name of a collection; it says what one entry of ${declaration.collection} is called, a singular noun`,
    );
  }
  if (fields.includes(entry)) {
    problems.push(`its declaration's entry is "${entry}", the name of a lesson field; it says what one entry of ${declaration.collection} is called`);
  }
  const shape = kind?.lesson?.shape;
  if (shape !== undefined) {
    const takes = new Map(Object.entries(shape));
    for (const field of declaration.lessonFields) {
      const schema = takes.get(field.name);
      if (schema === undefined) {
        problems.push(
          `its lesson field "${field.name}" is not a key its learnable takes (it takes ${listed(takes.keys())}): every lesson the form sends would be refused`,
        );
        continue;
      }
      for (const offered of [...(field.choices ?? []), ...(field.default === undefined ? [] : [field.default])]) {
        const refusal = refusalOf(() => schema.safeParse(offered));
        if (refusal !== undefined) problems.push(`its lesson field "${field.name}" offers "${offered}", which its learnable refuses (${refusal})`);
      }
    }
    for (const [key, schema] of takes) {
      if (!fields.includes(key) && refusalOf(() => schema.safeParse(undefined)) !== undefined) {
        problems.push(`its learnable needs "${key}" in every lesson, and the card has no lesson field for it`);
      }
    }
  }
  if (kind !== undefined && declaration.addsEntries === true) {
    const refusal = createRefusal(kind);
    if (refusal !== undefined) problems.push(`its declaration says addsEntries: true, and ${refusal}`);
  }
  if (problems.length > 0) throw new AgentMistake(`${agent.name}: ${problems.join('; ')}.`);
}

/**
 * Why a NewEntry would fail or store what cannot be read back: the kind's `create`, given a key and
 * a label, must make an entry of that key and label, of the kind's own class, whose state the kind
 * rebuilds. A refusal in the learnable's words (this name is not one it takes) is no mistake.
 */
function createRefusal(kind: LearnableKind<any>): string | undefined {
  const key = 'learnables-start-up-check';
  const label = 'Learnables start-up check';
  let created: Learnable<any>;
  try {
    created = kind.create(key, label);
  } catch (error) {
    if (error instanceof LessonRefused) return undefined;
    return `its kind's create("${key}", "${label}") failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (created?.key !== key || created.label !== label)
    return `its kind's create("${key}", "${label}") made the entry "${String(created?.key)}" labelled "${String(created?.label)}"; a new entry keeps the key and label it is given`;
  if (kind.owns !== undefined && !kind.owns(created)) return `its kind's create makes an entry its kind does not own (another class than its learnable)`;
  try {
    kind.fromState(key, JSON.parse(JSON.stringify(created.toState())));
  } catch (error) {
    return `a new entry cannot be rebuilt from the state it stores (${error instanceof Error ? error.message : String(error)}): make create's entry one its state schema reads`;
  }
  return undefined;
}

/** The first refusal of a zod parse (or of code that throws), as words; undefined when it passes. */
function refusalOf(parse: () => { success: boolean; error?: { issues: readonly { message: string }[] } }): string | undefined {
  try {
    const read = parse();
    return read.success ? undefined : (read.error?.issues[0]?.message ?? 'refused');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export interface ReadingChecks {
  /** Throw an AgentMistake (tests, development) rather than log it and serve on. */
  readonly strict: boolean;
  readonly log: (message: string, error?: unknown) => void;
  /** Logged with each mistake, e.g. the task's id. */
  readonly about: string;
}

/**
 * What can only be checked when the agent reads: every finding names a collection the task is
 * pinned to (reread reports that collection's version); an answer's findings are named as those of
 * the reading it answered; and a question names a pinned collection, an `entry` of it, and a
 * `suggested` value its learnable accepts — taught in memory to that entry (or, without one, to
 * the first of the question's entries) exactly as a lesson would be (SPEC §2.4).
 *
 * A mistake is the agent's: strict, it throws AgentMistake; otherwise it is logged, a refused
 * suggestion is left out of the question (the person types the value instead) and the rest is
 * served as the agent wrote it.
 */
export function checkReading<R, V extends object>(
  reading: Reading<R, V>,
  definitions: PinnedDefinitions,
  checks: ReadingChecks,
  answered?: Reading<R, V>,
): Reading<R, V> {
  const mistakes: string[] = [];
  for (const [name, finding] of Object.entries(reading.findings)) {
    if (!definitions.has(finding.collection)) {
      mistakes.push(`finding "${name}" says "${finding.collection}" decided it, and the task is pinned to ${listed(definitions.keys())}`);
    }
  }
  if (answered !== undefined) {
    const before = Object.keys(answered.findings).sort().join('\n');
    if (Object.keys(reading.findings).sort().join('\n') !== before) {
      mistakes.push(
        `the answer's findings are ${listed(Object.keys(reading.findings))}, and the question's were ${listed(Object.keys(answered.findings))}; name them alike`,
      );
    }
  }
  let checked = reading;
  if (!reading.settled) {
    const { question } = reading;
    const definition = definitions.get(question.collection);
    if (definition === undefined) {
      mistakes.push(`its question is about "${question.collection}", and the task is pinned to ${listed(definitions.keys())}`);
    } else {
      const entries = definition.entries as readonly Learnable<any>[];
      if (question.entry !== undefined && !entries.some((entry) => entry.key === question.entry)) {
        mistakes.push(`its question's entry is "${question.entry}", which is not in ${question.collection}: a lesson to it would be refused`);
      } else if (question.suggested !== undefined) {
        const refusal = suggestionRefusal(entries, question);
        if (refusal !== undefined) {
          mistakes.push(`it suggests ${JSON.stringify(question.suggested)}, and its own learnable refuses it: ${refusal}`);
          const { suggested: _dropped, says: _words, ...rest } = question;
          checked = { ...reading, question: rest };
        } else {
          // The suggestion in the learnable's own words (SPEC §3.6), for a person who reads no pattern.
          const says = suggestionWords(entries, question);
          if (says !== undefined && says !== question.says) checked = { ...reading, question: { ...question, says } };
        }
      }
    }
  }
  if (mistakes.length === 0) return checked;
  const mistake = new AgentMistake(`The agent's reading breaks the rules of the runtime (${checks.about}): ${mistakes.join('; ')}.`);
  if (checks.strict) throw mistake;
  checks.log(`${checks.about}: ${mistake.message}${checked !== reading ? ' The suggestion was left out of the question.' : ''}`);
  return checked;
}

/** The entry a question's suggestion would be taught to: its `entry`, else the first of its entries the definition holds. */
function suggestionEntry(entries: readonly Learnable<any>[], question: Question<object>): { entry: Learnable<any>; index: number } | undefined {
  const key = question.entry ?? question.entries.find((choice) => entries.some((entry) => entry.key === choice.key))?.key;
  const index = entries.findIndex((entry) => entry.key === key);
  const entry = entries[index];
  return entry === undefined ? undefined : { entry, index };
}

/** The learnable's words for the suggestion; undefined when it has none. */
function suggestionWords(entries: readonly Learnable<any>[], question: Question<object>): string | undefined {
  const found = suggestionEntry(entries, question);
  if (found === undefined) return undefined;
  try {
    return saysOf(found.entry, found.entry.readValue(question.suggested as LessonValue));
  } catch {
    return undefined;
  }
}

/** Why the learnable refuses the question's suggestion, taught to the entry it would extend; undefined when it takes it. */
function suggestionRefusal(entries: readonly Learnable<any>[], question: Question<object>): string | undefined {
  const found = suggestionEntry(entries, question);
  if (found === undefined) return undefined;
  const { entry, index } = found;
  try {
    entry.learn(
      entry.readValue(question.suggested as LessonValue),
      entries.filter((_, i) => i !== index),
    );
    return undefined;
  } catch (error) {
    // A refusal in the learnable's words; anything else thrown is as much the agent's mistake.
    return error instanceof LessonRefused ? error.message : `it failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
