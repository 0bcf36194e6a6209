import { inSpan } from '@learnables/tracing';
import type { Message } from '@a2a-js/sdk';
import { Role } from '@a2a-js/sdk';
import type { AuthorityClient, Logger } from '@learnables/authority';
import { labelAsRead } from '@learnables/learnable';
import { checkReading } from '../check-agent.ts';
import type { LearnableAgent, Question, Reading } from '../learnable-agent.ts';
import type { PinnedDefinitions } from '../pinned-definitions.ts';
import { pinDefinitions } from '../pinned-definitions.ts';
import type { InputReader, ParseTicket } from '../parsing/input-reader.ts';
import type { Journal } from '../storage/journal.ts';
import type { KeptInput } from '../storage/kept-input.ts';
import { lostParts, megabytes } from '../storage/kept-input.ts';
import { InputRefused } from '../learnable-agent.ts';
import { readAnswer, toInputParts } from './parts.ts';

/** The message of a task that stopped before reading it, once its parts were kept only as digests. */
export const NOT_READ = 'This message was larger than this agent keeps, and the agent stopped before it had read it; nothing was decided. Send it again.';

/** A message whose reading is larger than the journal keeps for a task. */
export const tooMuchRead = (characters: number): string =>
  `What this agent read from this message takes more than ${megabytes(characters)} to keep, the most it keeps for one task; nothing was decided. Send it in smaller pieces.`;

/** Which version of each collection a task decides with. */
export type Pins = Readonly<Record<string, number>>;

export interface Advanced<Input, Result> {
  readonly input: Input;
  readonly pins: Pins;
  readonly reading: Reading<Result>;
  /** The last answer named no entry of the question; its words, to say so. */
  readonly unmatchedAnswer?: string;
  /** The last answer was "none of these", and this question needs one of its entries. */
  readonly noneRefused?: boolean;
  /** The person answered "none of these" and the task completed with no winner. */
  readonly none?: boolean;
  /** The person answered with an entry added since the pin; where it was found. */
  readonly addedIn?: { readonly entry: string; readonly version: number };
  /** A person's answer decided the task (rather than the rules alone). */
  readonly answered: boolean;
  /** Who answered the last question, if the answer said so. */
  readonly answeredBy?: string;
}

export interface AdvanceDeps<Input, Result> {
  readonly agent: LearnableAgent<Input, Result>;
  readonly journal: Journal;
  readonly authority: AuthorityClient;
  /**
   * A reading that breaks the runtime's rules (a suggestion the learnable refuses, a question's
   * entry not in its collection, …) fails the task when strict; otherwise it is logged, and a
   * refused suggestion left out. Default: strict under NODE_ENV=test (see `checkReading`).
   */
  readonly strict?: boolean;
  /** Where a reading that breaks the rules is said: the task's logger (taskId, contextId). Default: nowhere. */
  readonly logger?: Logger;
  /** The agent's parse, in a thread when it names its module (InputReader). */
  readonly reader: Pick<InputReader<Input>, 'parse'>;
  /** How much of a task's input is kept (the journaled parse is bounded by `input`). */
  readonly kept: KeptInput;
}

/**
 * The fields every line of a task's work carries once its versions are pinned: `pins` (each
 * collection's pinned version) and, for an agent of one collection, `collection` and `version`.
 */
export function pinFields(pins: Readonly<Record<string, number>>): Record<string, unknown> {
  const collections = Object.keys(pins);
  return collections.length === 1 ? { collection: collections[0], version: pins[collections[0]!], pins } : { pins };
}

/** The pinned definitions a task reads, fetched once per version (they never change). */
export async function pinnedDefinitions(authority: AuthorityClient, pins: Pins): Promise<PinnedDefinitions> {
  return pinDefinitions(await Promise.all(Object.entries(pins).map(([collection, version]) => authority.definition(collection, version))));
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
  options: { fresh?: boolean; ticket?: ParseTicket } = {},
): Promise<Advanced<Input, Result>> {
  const { agent, journal, authority, reader } = deps;
  const checks = {
    strict: deps.strict ?? process.env.NODE_ENV === 'test',
    log: (message: string) => deps.logger?.warn(message),
    about: `${agent.name}, task ${taskId}`,
  };
  const userMessages = history.filter((message) => message.role === Role.ROLE_USER);
  const [first, ...answers] = userMessages;
  if (!first) throw new Error(`Task ${taskId} has no message to read.`);

  const steps = await journal.forTask(taskId, options);
  // The pin is asked for as the message's reading starts, and recorded with the parse and the
  // reading in one commit, before anything of the reading is published: the versions active when
  // the task started (SPEC §4.4), one commit a message where there were two, and a task killed
  // before that commit pins and reads again on resume, as one that had not started deciding.
  const [[pins, input], firstReading] = await steps.togetherThen<[Pins, Input], Reading<Result>>(
    [
      {
        name: 'pin',
        compute: async () => {
          const actives = await inSpan('learnables.pin', { 'learnables.collections': agent.kinds.map((kind) => kind.collection) }, async (span) => {
            const read = await Promise.all(agent.kinds.map((kind) => authority.active(kind.collection)));
            span.setAttribute(
              'learnables.pins',
              read.map((active) => `${active.collection}@${active.version}`),
            );
            return read;
          });
          return Object.fromEntries(actives.map((active) => [active.collection, active.version])) as Pins;
        },
      },
      {
        name: 'parse',
        compute: () => {
          if (lostParts(first.parts)) throw new InputRefused(NOT_READ);
          return reader.parse(toInputParts(first.parts), options.ticket);
        },
        bound: { characters: deps.kept.input, refuse: () => new InputRefused(tooMuchRead(deps.kept.input)) },
      },
    ],
    {
      name: 'read',
      compute: async ([pinned, parsed]) => {
        const definitions = await pinnedDefinitions(authority, pinned);
        // Wait here, asynchronously, for whatever the agent compiles for these versions, rather
        // than inside the synchronous read where it would hold up every other request.
        await agent.prepare?.(definitions).catch(() => undefined);
        // Checked before the journal records it, so what is recorded is what was served.
        const pinnedChecks = { ...checks, log: (message: string) => deps.logger?.child(pinFields(pinned)).warn(message) };
        return checkReading(agent.read(parsed, definitions), definitions, pinnedChecks);
      },
    },
  );
  // The answers read with the versions recorded (the client keeps each version it fetched: no request).
  const definitions = await pinnedDefinitions(authority, pins);
  const pinnedLog = deps.logger?.child(pinFields(pins));
  const answerChecks = { ...checks, log: (message: string) => pinnedLog?.warn(message) };
  let reading = firstReading;

  let unmatchedAnswer: string | undefined;
  let noneRefused = false;
  let none = false;
  let addedIn: { entry: string; version: number } | undefined;
  let answeredBy: string | undefined;
  let answered = false;
  for (const [index, message] of answers.entries()) {
    if (reading.settled) break;
    const question: Question = reading.question;
    const answer = readAnswer(message.parts, question.entries);
    const last = index === answers.length - 1;
    const by = answer.answeredBy ? { answeredBy: answer.answeredBy } : {};
    if (answer.none) {
      const answerNone = agent.answerNone;
      if (agent.declaration.admitsNone !== true || answerNone === undefined) {
        unmatchedAnswer = undefined;
        noneRefused = last;
        continue;
      }
      const asked = reading;
      reading = await steps.step(`answer-${index + 1}`, () => checkReading(answerNone(input, definitions, question, by), definitions, answerChecks, asked));
      ({ answered, none, answeredBy } = { answered: true, none: true, answeredBy: answer.answeredBy });
      continue;
    }
    noneRefused = false;
    let entry = answer.entry;
    let added: { key: string; label: string; version: number } | null = null;
    if (entry === undefined && answer.said !== '') {
      // Journaled, so a replay finds the entry in the same version whatever was taught since.
      added = await steps.step(`answer-${index + 1}-added`, () => addedEntry(authority, definitions, question, answer.said));
      entry = added?.key;
    }
    if (entry === undefined) {
      unmatchedAnswer = last ? answer.said : undefined;
      continue;
    }
    unmatchedAnswer = undefined;
    answered = true;
    answeredBy = answer.answeredBy;
    addedIn = added ? { entry: added.key, version: added.version } : undefined;
    const named = entry;
    const extra = added ? { addedIn: { version: added.version, label: added.label } } : {};
    const asked = reading;
    reading = await steps.step(`answer-${index + 1}`, () =>
      checkReading(agent.answer(input, definitions, question, { entry: named, ...by, ...extra }), definitions, answerChecks, asked),
    );
  }
  return {
    input,
    pins,
    reading,
    answered,
    ...(unmatchedAnswer !== undefined && { unmatchedAnswer }),
    ...(noneRefused && { noneRefused }),
    ...(none && { none }),
    ...(addedIn && { addedIn }),
    ...(answeredBy && { answeredBy }),
  };
}

/**
 * An answer naming no entry of the question may name one added to the collection since the pin
 * (SPEC.md §2.7): look for it, by key or label, in the version active now. Only for questions whose
 * choices are the collection's own entries — a question offering other things (columns, verdicts)
 * cannot be answered with an entry.
 */
async function addedEntry(
  authority: AuthorityClient,
  definitions: PinnedDefinitions,
  question: Question,
  said: string,
): Promise<{ key: string; label: string; version: number } | null> {
  const pinned = definitions.get(question.collection);
  if (!pinned || question.entries.length === 0) return null;
  const keys = new Set(pinned.entries.map((entry) => entry.key));
  if (!question.entries.every((choice) => keys.has(choice.key))) return null;
  const active = await authority.active(question.collection);
  if (active.version === pinned.version) return null;
  const live = await authority.definition(question.collection, active.version);
  const read = labelAsRead(said);
  const found = live.entries.find((entry) => entry.key === said.trim()) ?? live.entries.find((entry) => labelAsRead(entry.label) === read);
  if (!found || keys.has(found.key)) return null;
  return { key: found.key, label: found.label, version: active.version };
}
