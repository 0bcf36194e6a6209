import { createLogger } from '@learnables/authority';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TaskState } from '@a2a-js/sdk';
import type { Learned } from '@learnables/learnable';
import { Learnable, UnlearnableValue, defineCollection, defineKind, lessonField, lessonValue } from '@learnables/learnable';
import type { LessonValueOf } from '@learnables/learnable';
import { LEARNABLES_URI } from '@learnables/protocol';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { AgentMistake, checkAgent, checkReading } from './check-agent.ts';
import { said, sdkClient, send, startAuthority, userText } from './harness.test-support.ts';
import type { LearnableAgent, Reading } from './learnable-agent.ts';
import { pinDefinitions } from './pinned-definitions.ts';
import { startLearnableAgent } from './start-agent.ts';
import type { RunningAgent } from './start-agent.ts';
import { wordAgent } from './word-agent.test-support.ts';

/** A typed learnable of no agent: a bay holds goods up to a height, on a side. */
const bayLesson = lessonValue(
  {
    height: lessonField.number({ missing: 'A bay needs a height.', notANumber: (typed) => `${typed} is not a height.` }),
    side: lessonField.choice(['north', 'south'], { notOne: (typed) => `${typed} is not a side.`, absent: 'north' }),
  },
  { unknownKey: (key) => `A bay takes a height and a side; "${key}" is neither.` },
);
type BayLesson = LessonValueOf<typeof bayLesson>;

class Bay extends Learnable.of(bayLesson) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly height: number | null = null,
  ) {
    super();
  }
  learn({ height }: BayLesson, others: readonly Bay[] = []): Learned<Bay> {
    if (height > 10) throw new UnlearnableValue(`No bay is ${height} m high.`, { field: 'height' });
    const holder = others.find((other) => other.height === height);
    if (holder) throw new UnlearnableValue(`${holder.key} already holds ${height} m.`, { field: 'height' });
    return { next: new Bay(this.key, this.label, height), changed: height !== this.height };
  }
  describes = ({ height }: BayLesson) => `${this.key} holds ${height} m`;
  unlearn(): Learned<Bay> {
    return { next: new Bay(this.key, this.label), changed: this.height !== null };
  }
  describesRetraction = ({ height }: BayLesson) => `${this.key} no longer holds ${height} m`;
  toState = () => ({ label: this.label, height: this.height });
}

const bayKind = defineKind({
  collection: 'bays',
  learnable: Bay,
  state: z.object({ label: z.string(), height: z.number().nullable() }),
  fromState: (key, { label, height }) => new Bay(key, label, height),
  create: (key, label) => new Bay(key, label),
});

type BayAgent = LearnableAgent<{ bay: string }, string, Bay>;

const bayAgent = (declaration: Partial<BayAgent['declaration']> = {}, kinds: BayAgent['kinds'] = [bayKind]): BayAgent => ({
  name: 'Bay agent',
  description: 'Which bay',
  version: '0',
  skill: { id: 'bays', name: 'Bays', description: 'Bays' },
  declaration: {
    collection: 'bays',
    entry: 'bay',
    teaches: 'how high a bay holds',
    how: 'I ask.',
    decidedBy: 'rules',
    lessonFields: [
      { name: 'height', label: 'Height', kind: 'number' },
      { name: 'side', label: 'Side', kind: 'choice', choices: ['north', 'south'] },
    ],
    ...declaration,
  },
  kinds,
  parse: () => ({ bay: 'b1' }),
  read: () => {
    throw new Error('not read here');
  },
  answer: () => {
    throw new Error('not answered here');
  },
});

describe('checkAgent: the card against its kinds, at start-up', () => {
  it('passes an agent whose lesson fields are what its learnable takes', () => {
    expect(() => checkAgent(bayAgent())).not.toThrow();
    // A field the learnable may do without (it has a default) need not be on the card.
    expect(() => checkAgent(bayAgent({ lessonFields: [{ name: 'height', label: 'Height', kind: 'number' }] }))).not.toThrow();
  });

  it.each([
    [{ collection: 'racks' }, 'its card declares the collection "racks", and its kinds are for "bays"; list that collection\'s kind in kinds'],
    [{ entry: 'bays' }, 'its declaration\'s entry is "bays", the name of a collection'],
    [{ entry: 'height' }, 'its declaration\'s entry is "height", the name of a lesson field'],
    [
      {
        lessonFields: [
          { name: 'height', label: 'Height', kind: 'number' },
          { name: 'colour', label: 'Colour', kind: 'text' },
        ],
      },
      'its lesson field "colour" is not a key its learnable takes (it takes "height", "side"): every lesson the form sends would be refused',
    ],
    [
      { lessonFields: [{ name: 'side', label: 'Side', kind: 'text' }] },
      'its learnable needs "height" in every lesson, and the card has no lesson field for it',
    ],
    [
      {
        lessonFields: [
          { name: 'height', label: 'Height', kind: 'number' },
          { name: 'side', label: 'Side', kind: 'choice', choices: ['north', 'east'] },
        ],
      },
      'its lesson field "side" offers "east", which its learnable refuses ("east" is not a side.)',
    ],
    [
      { lessonFields: [{ name: 'height', label: 'Height', kind: 'number', default: 'tall' }] },
      'its lesson field "height" offers "tall", which its learnable refuses ("tall" is not a height.)',
    ],
  ] as const)('refuses %j, saying what to change', (declaration, problem) => {
    expect(() => checkAgent(bayAgent(declaration as Partial<BayAgent['declaration']>))).toThrow(AgentMistake);
    expect(() => checkAgent(bayAgent(declaration as Partial<BayAgent['declaration']>))).toThrow(problem);
  });

  it.each([
    [
      { admitsNone: true },
      'its declaration says admitsNone: true, and it has no answerNone: every "none of these" answer would be refused; add answerNone or drop admitsNone',
    ],
    [
      {
        lessonFields: [
          { name: 'height', label: 'Height', kind: 'number' },
          { name: 'height', label: 'Height again', kind: 'text' },
        ],
      },
      'two of its lesson fields are named "height"',
    ],
    [
      { lessonFields: [{ name: 'height', label: 'Height', kind: 'choice' }] },
      "its declaration is not one the protocol accepts (lessonFields.0.choices: a field of kind 'choice' needs at least one choice)",
    ],
    [{ how: '  ' }, 'its declaration is not one the protocol accepts (how: how must not be empty)'],
  ] as const)('refuses a declaration promising what the agent cannot keep: %j', (declaration, problem) => {
    expect(() => checkAgent(bayAgent(declaration as Partial<BayAgent['declaration']>))).toThrow(problem);
  });

  it('passes admitsNone: true with an answerNone, and addsEntries: true with a kind that creates what it rebuilds', () => {
    const answerNone = () => ({ settled: true as const, findings: {}, result: 'none' });
    expect(() => checkAgent({ ...bayAgent({ admitsNone: true, addsEntries: true }), answerNone })).not.toThrow();
  });

  it.each([
    [
      'whose create makes another key',
      { create: (_key: string, label: string) => new Bay('b1', label) },
      'made the entry "b1" labelled "Learnables start-up check"; a new entry keeps the key and label it is given',
    ],
    [
      'whose create makes an entry its state schema refuses',
      { create: (key: string, label: string) => new Bay(key, label, '3' as unknown as number) },
      'a new entry cannot be rebuilt from the state it stores',
    ],
    [
      'whose create fails',
      {
        create: () => {
          throw new Error('no room');
        },
      },
      'failed: no room',
    ],
  ])('refuses addsEntries: true with a kind %s', (_name, change, problem) => {
    const kind = { ...bayKind, ...change };
    expect(() => checkAgent(bayAgent({ addsEntries: true }, [kind]))).toThrow(`its declaration says addsEntries: true, and its kind's`.slice(0, 40));
    expect(() => checkAgent(bayAgent({ addsEntries: true }, [kind]))).toThrow(problem);
    // The same kind passes when the card promises no new entries.
    expect(() => checkAgent(bayAgent({}, [kind]))).not.toThrow();
  });

  it("takes a create that refuses a name in the learnable's words: that is no broken promise", () => {
    const kind = {
      ...bayKind,
      create: () => {
        throw new UnlearnableValue('Bays are numbered, not named.');
      },
    };
    expect(() => checkAgent(bayAgent({ addsEntries: true }, [kind]))).not.toThrow();
  });

  it('refuses two kinds for one collection', () => {
    expect(() => checkAgent(bayAgent({}, [bayKind, bayKind]))).toThrow('two of its kinds are for "bays"; each collection has one kind');
  });
});

describe('checkReading: a reading against the rules, when the agent reads', () => {
  const pinned = () => pinDefinitions([{ ...defineCollection('bays', [new Bay('b1', 'Bay 1'), new Bay('b2', 'Bay 2', 3)]), version: 4 }]);
  const asking = (question: Partial<Extract<Reading<string, BayLesson>, { settled: false }>['question']> = {}): Reading<string, BayLesson> => ({
    settled: false,
    findings: { bay: { settled: false, reads: 'cannot tell', collection: 'bays' } },
    question: { collection: 'bays', question: 'How high?', entries: [{ key: 'b1', label: 'Bay 1' }], entry: 'b1', ...question },
  });
  const logged: string[] = [];
  const strict = { strict: true, log: (message: string) => logged.push(message), about: 'task t1' };
  const lenient = { ...strict, strict: false };

  it('serves a question whose suggestion the learnable takes, untouched', () => {
    const reading = asking({ suggested: { height: 4, side: 'south' } });
    expect(checkReading(reading, pinned(), strict)).toBe(reading);
  });

  it.each([
    [{ suggested: { height: 40, side: 'north' } }, 'it suggests {"height":40,"side":"north"}, and its own learnable refuses it: No bay is 40 m high.'],
    // Held by another entry: refused as a lesson to this one would be (SPEC §2.3.1).
    [{ suggested: { height: 3, side: 'north' } }, 'its own learnable refuses it: b2 already holds 3 m.'],
    // Without an entry, taught to the question's first entry.
    [{ entry: undefined, suggested: { height: 40, side: 'north' } }, 'No bay is 40 m high.'],
    // Read with the schema first, as a lesson's value is.
    [{ suggested: { height: 4, side: 'north', colour: 'red' } as BayLesson }, 'A bay takes a height and a side; "colour" is neither.'],
  ] as const)('strict, throws for a suggestion the learnable refuses: %j', (question, problem) => {
    expect(() => checkReading(asking(question), pinned(), strict)).toThrow(AgentMistake);
    expect(() => checkReading(asking(question), pinned(), strict)).toThrow(problem);
  });

  it('otherwise logs it and leaves the suggestion out, serving the rest of the question', () => {
    logged.length = 0;
    const served = checkReading(asking({ suggested: { height: 40, side: 'north' } }), pinned(), lenient);
    expect(served).toEqual(asking());
    expect(logged).toEqual([
      expect.stringContaining('task t1: The agent\'s reading breaks the rules of the runtime (task t1): it suggests {"height":40,"side":"north"}'),
    ]);
    expect(logged[0]).toMatch(/The suggestion was left out of the question\.$/);
  });

  it('finds a question entry that is not in the collection, and a finding or question naming a collection not pinned', () => {
    expect(() => checkReading(asking({ entry: 'b9' }), pinned(), strict)).toThrow(
      'its question\'s entry is "b9", which is not in bays: a lesson to it would be refused',
    );
    expect(() => checkReading(asking({ collection: 'racks' }), pinned(), strict)).toThrow('its question is about "racks", and the task is pinned to "bays"');
    const settled: Reading<string> = { settled: true, findings: { bay: { settled: true, winner: 'b1', reads: 'b1', collection: 'racks' } }, result: 'b1' };
    expect(() => checkReading(settled, pinned(), strict)).toThrow('finding "bay" says "racks" decided it, and the task is pinned to "bays"');
    // Not strict: logged, and served as the agent wrote it.
    logged.length = 0;
    expect(checkReading(settled, pinned(), lenient)).toBe(settled);
    expect(logged).toHaveLength(1);
  });

  it("finds an answer whose findings are not named as the question's were", () => {
    const answered: Reading<string> = { settled: true, findings: { bays: { settled: true, winner: 'b1', reads: 'b1', collection: 'bays' } }, result: 'b1' };
    expect(() => checkReading(answered, pinned(), strict, asking())).toThrow(
      'the answer\'s findings are "bays", and the question\'s were "bay"; name them alike',
    );
  });
});

describe('a refused suggestion, over real HTTP', () => {
  let dir: ScratchDir;
  let authority: Awaited<ReturnType<typeof startAuthority>>;
  const agents: RunningAgent[] = [];
  const logged: string[] = [];
  // The word agent, suggesting a blank word: WordList refuses it ("a word list needs a word").
  const blankSuggestion: typeof wordAgent = {
    ...wordAgent,
    read(input, definitions) {
      const reading = wordAgent.read(input, definitions);
      return reading.settled ? reading : { ...reading, question: { ...reading.question, suggested: { word: ' ' } } };
    },
  };
  const start = (name: string, strict?: boolean) =>
    startLearnableAgent(blankSuggestion, {
      store: `sqlite:${dir.path}/${name}.db`,
      authority: { url: authority.url, token: 'agent-token' },
      // Warnings and errors only (each task's info line would be one more), each as its message and its error's.
      logger: createLogger({
        service: 'word',
        level: 'warn',
        destination: {
          write: (line: string) => {
            const { msg, err } = JSON.parse(line) as { msg: string; err?: { message?: string } };
            logged.push(`${msg} ${err?.message ?? ''}`);
          },
        },
      }),
      ...(strict !== undefined && { strict }),
    }).then((agent) => {
      agents.push(agent);
      return agent;
    });

  beforeAll(async () => {
    dir = scratchDir('runtime-checks-');
    authority = await startAuthority();
  });

  afterAll(async () => {
    for (const agent of agents) await agent.close();
    await authority.close();
    authority.dir.remove();
    dir.remove();
  });

  it('fails the task and logs the mistake under NODE_ENV=test, the default in tests', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    logged.length = 0;
    const { client } = await sdkClient((await start('strict')).url);
    const task = await send(client, userText('lychee'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(said(task).text).toMatch(/^The agent failed while reading this message; nothing was decided\./);
    expect(logged.join('\n')).toContain('it suggests {"word":" "}, and its own learnable refuses it: a word list needs a word.');
  });

  it('in production, asks without the suggestion and logs the mistake', async () => {
    logged.length = 0;
    const { client } = await sdkClient((await start('lenient', false)).url, { activate: true });
    const task = await send(client, userText('lychee'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const teach = said(task).extension as Record<string, unknown>;
    expect(teach).toMatchObject({ collection: 'lists', question: 'Which list does this text belong to?', version: 1 });
    expect(teach).not.toHaveProperty('suggested');
    expect(task.status?.message?.metadata?.[LEARNABLES_URI]).toBe(teach);
    expect(logged).toEqual([expect.stringContaining('The suggestion was left out of the question.')]);
  });
});
