import type { Message } from '@a2a-js/sdk';
import { Role } from '@a2a-js/sdk';
import type { AuthorityClient } from '@learnables/authority';
import type { LearnableAgent, PinnedDefinitions, Question, Reading } from '../learnable-agent.ts';
import type { Journal } from '../storage/journal.ts';
import { readAnswer, toInputParts } from './parts.ts';

/** Which version of each collection a task decides with. */
export type Pins = Readonly<Record<string, number>>;

export interface Advanced<Input, Result> {
  readonly input: Input;
  readonly pins: Pins;
  readonly reading: Reading<Result>;
  /** The last answer named no entry of the question; its words, to say so. */
  readonly unmatchedAnswer?: string;
  /** A person's answer decided the task (rather than the rules alone). */
  readonly answered: boolean;
  /** Who answered the last question, if the answer said so. */
  readonly answeredBy?: string;
}

export interface AdvanceDeps<Input, Result> {
  readonly agent: LearnableAgent<Input, Result>;
  readonly journal: Journal;
  readonly authority: AuthorityClient;
}

/** The pinned definitions a task reads, fetched once per version (they never change). */
export async function pinnedDefinitions(authority: AuthorityClient, pins: Pins): Promise<PinnedDefinitions> {
  const entries = await Promise.all(
    Object.entries(pins).map(async ([collection, version]) => [collection, await authority.definition(collection, version)] as const),
  );
  return new Map(entries);
}

/**
 * Bring a task as far as it can go from its history: parse the first message, pin the active
 * versions, read, then apply each answer that followed. Every step goes through the journal, so
 * running this again for the same task — after a crash, or on another replica — recomputes
 * nothing and decides on the same pinned versions.
 */
export async function advanceTask<Input, Result>(
  deps: AdvanceDeps<Input, Result>,
  taskId: string,
  history: readonly Message[],
  options: { fresh?: boolean } = {},
): Promise<Advanced<Input, Result>> {
  const { agent, journal, authority } = deps;
  const userMessages = history.filter((message) => message.role === Role.ROLE_USER);
  const [first, ...answers] = userMessages;
  if (!first) throw new Error(`Task ${taskId} has no message to read.`);

  const steps = await journal.forTask(taskId, options);
  const input = await steps.step('parse', () => agent.parse(toInputParts(first.parts)));
  const pins = await steps.step('pin', async () => {
    const actives = await Promise.all(agent.kinds.map((kind) => authority.active(kind.collection)));
    return Object.fromEntries(actives.map((active) => [active.collection, active.version])) as Pins;
  });
  const definitions = await pinnedDefinitions(authority, pins);
  // Wait here, asynchronously, for whatever the agent compiles for these versions, rather than
  // inside the synchronous read where it would hold up every other request.
  await agent.prepare?.(definitions).catch(() => undefined);
  let reading = await steps.step('read', () => agent.read(input, definitions));

  let unmatchedAnswer: string | undefined;
  let answeredBy: string | undefined;
  let answered = false;
  for (const [index, message] of answers.entries()) {
    if (reading.settled) break;
    const question: Question = reading.question;
    const answer = readAnswer(message.parts, question.entries);
    if (answer.entry === undefined) {
      unmatchedAnswer = index === answers.length - 1 ? answer.said : undefined;
      continue;
    }
    unmatchedAnswer = undefined;
    answered = true;
    answeredBy = answer.answeredBy;
    const entry = answer.entry;
    reading = await steps.step(`answer-${index + 1}`, () =>
      agent.answer(input, definitions, question, { entry, ...(answer.answeredBy && { answeredBy: answer.answeredBy }) }),
    );
  }
  return { input, pins, reading, answered, ...(unmatchedAnswer !== undefined && { unmatchedAnswer }), ...(answeredBy && { answeredBy }) };
}
