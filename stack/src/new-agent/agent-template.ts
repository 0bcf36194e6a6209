// The files `pnpm new-agent` writes: a small, complete learnable agent for one lesson shape (a
// number, a word, a choice, or two words and a choice) and one answer shape (a field of the entry
// the message names, or the entry itself). CI scaffolds every combination into a scratch copy,
// typechecks them, runs their tests and the conformance kit against each (test/new-agent.test.ts),
// so what these strings say is held to the real runtime.
import type { AnswerShape, LessonKind, LessonShape } from './lesson-shapes.ts';
import { lessonShape } from './lesson-shapes.ts';

/** What the scaffolder was told, checked and with every spelling derived. */
export interface AgentAnswers {
  /** Kebab case: `carrier`, `cold-store`. */
  readonly name: string;
  /** The collection the agent learns: kebab case, plural, e.g. `carrier-limits`. */
  readonly collection: string;
  /** What one entry of the collection is, a singular noun: `carrier`. */
  readonly entry: string;
  /** The (first) lesson field, a camelCase identifier: `limit`. */
  readonly field: string;
  readonly lesson: LessonKind;
  readonly answer: AnswerShape;
  readonly port: number;
}

const words = (kebab: string) => kebab.split('-');
export const pascal = (kebab: string) =>
  words(kebab)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
export const camel = (kebab: string) => pascal(kebab)[0]!.toLowerCase() + pascal(kebab).slice(1);
const spaced = (kebab: string) => words(kebab).join(' ');
const ts = (value: unknown) => JSON.stringify(value).replace(/"([A-Za-z_$][\w$]*)":/g, '$1: ');

/** The names one agent's files share. */
export function spellings(a: AgentAnswers) {
  return {
    pkg: `@learnables/${a.name}-agent`,
    agentConst: `${camel(a.name)}Agent`,
    Rule: `${pascal(a.name)}Rule`,
    ruleKind: `${camel(a.name)}RuleKind`,
    RuleState: `${pascal(a.name)}RuleState`,
    ruleLesson: `${camel(a.name)}Lesson`,
    RuleLesson: `${pascal(a.name)}Lesson`,
    Input: `${pascal(a.name)}Input`,
    Result: `${pascal(a.name)}Result`,
    parseInput: `parse${pascal(a.name)}Input`,
    title: spaced(a.name),
    entryWords: spaced(a.entry),
  };
}

/** The card's `how`: true of the code below, clause by clause (the generated agent test holds it). */
function howOf(a: AgentAnswers, shape: LessonShape): string {
  const E = spellings(a).entryWords;
  if (a.answer === 'entry')
    return `A message goes to the one ${E} taught ${shape.fields.length > 1 ? 'words' : `a ${a.field}`} it has; when no ${E} or several are, I ask which ${E} it is.`;
  const rule = {
    number: `A message whose amount is above its ${E}'s ${a.field} is flagged`,
    text: `A message with its ${E}'s ${a.field} in it is flagged`,
    choice: `A message is flagged or let through as its ${E}'s ${a.field} says`,
    fields: `A message with its ${E}'s two words in it (both, or either, as taught) is flagged`,
  }[a.lesson];
  return `${rule}; a ${E} taught nothing yet, I ask about.`;
}

/** Every file of the new package, by its path under agents/<name>/. */
export function agentFiles(a: AgentAnswers): Map<string, string> {
  const s = spellings(a);
  const shape = lessonShape(a.lesson, a.answer, a.field);
  const byEntry = a.answer === 'entry';
  const how = howOf(a, shape);
  const files = new Map<string, string>();
  const asking = byEntry ? shape.meetsNothing : `second ${shape.meetsNothing}`;
  const settling = byEntry ? shape.meetsSeed : `first ${shape.meetsSeed}`;

  files.set(
    'package.json',
    `${JSON.stringify(
      {
        name: s.pkg,
        version: '0.1.0',
        description: `The ${s.title} agent: ${how}`,
        license: 'Apache-2.0',
        type: 'module',
        exports: { '.': './src/index.ts', './kinds': './src/kinds.ts' },
        dependencies: { '@learnables/learnable': 'workspace:*', '@learnables/protocol': 'workspace:*', '@learnables/runtime': 'workspace:*', zod: '^4.1.0' },
      },
      null,
      2,
    )}\n`,
  );

  files.set(
    `seeds/${a.collection}.json`,
    `${JSON.stringify(
      {
        collection: a.collection,
        entries: {
          first: { label: 'First', taught: byEntry ? [shape.seeded] : shape.seeded },
          second: { label: 'Second', taught: byEntry ? [] : null },
          // A second entry taught nothing, which the card's second example asks about: the kit teaches
          // both, then retracts one lesson and checks the other stays.
          ...(!byEntry && { third: { label: 'Third', taught: null } }),
        },
      },
      null,
      2,
    )}\n`,
  );

  files.set(
    'src/index.ts',
    `export { ${s.Rule}, ${s.ruleKind}, ${s.ruleLesson}, COLLECTION, meets, suggestionFor${constantsOf(shape)
      .map((name) => `, ${name}`)
      .join('')} } from './${a.name}-rule.ts';
export type { ${s.RuleLesson}, ${s.RuleState} } from './${a.name}-rule.ts';
export { ${s.agentConst}, HOW, ${byEntry ? '' : 'ANSWERS, '}${s.parseInput} } from './${a.name}-agent.ts';
export type { ${s.Input}, ${s.Result} } from './${a.name}-agent.ts';
export { seedsFolder } from './seeds-folder.ts';
`,
  );

  files.set(
    'src/kinds.ts',
    `// What the stack's registry and the authority need of this agent without loading it: the kind it
// learns and its seeds. \`${s.pkg}/kinds\`.
export { ${s.ruleKind} } from './${a.name}-rule.ts';
export { seedsFolder } from './seeds-folder.ts';
`,
  );

  files.set(
    'src/seeds-folder.ts',
    `import { fileURLToPath } from 'node:url';

/** The folder holding \`${a.collection}.json\`, version 1 of the collection, for \`loadSeeds\`. */
export const seedsFolder = fileURLToPath(new URL('../seeds/', import.meta.url));
`,
  );

  files.set(`src/${a.name}-rule.ts`, ruleFile(a, shape));
  files.set(`src/${a.name}-agent.ts`, agentFile(a, shape, how, asking));
  files.set(`src/${a.name}-rule.test.ts`, ruleTest(a, shape));
  files.set(`src/${a.name}-agent.test.ts`, agentTest(a, shape, asking, settling));
  files.set('README.md', readme(a, shape, how, asking));
  return files;
}

function ruleFile(a: AgentAnswers, shape: LessonShape): string {
  const s = spellings(a);
  const byEntry = a.answer === 'entry';
  const imports = [
    'Learnable',
    'defineKind',
    'lessonField',
    'lessonValue',
    ...(a.lesson === 'number' ? ['readNumber'] : []),
    ...(shape.check || byEntry ? ['UnlearnableValue'] : []),
  ].sort((x, y) => x.localeCompare(y, 'en', { sensitivity: 'base' }));
  const Taught = byEntry ? `readonly ${s.RuleLesson}[]` : `${s.RuleLesson} | null`;
  return `import { z } from 'zod';
import type { Learned, LessonValueOf } from '@learnables/learnable';
import { ${imports.join(', ')} } from '@learnables/learnable';

export const COLLECTION = '${a.collection}';

${shape.prelude}/**
 * A lesson's value, read with this schema before \`learn\` sees it: ${shape.described.replace(/`/g, '\\`')}.
 * It arrives as the text a person typed (a client shows a field of kind \`number\` as a text box),
 * and every refusal is in this learnable's words, naming its field. Replace it with your own.
 */
export const ${s.ruleLesson} = lessonValue(
  {
    ${shape.schema}
  },
  {
    unknownKey: (key) => \`A ${s.entryWords} lesson takes ${shape.fields.join(', ')}; "\${key}" is not one.\`,${shape.check ? `\n    ${shape.check}` : ''}
  },
);
export type ${s.RuleLesson} = LessonValueOf<typeof ${s.ruleLesson}>;

/** One taught value as stored, and as the seed writes it. */
const lessonState = z.object({ ${shape.state} });
/** One ${s.entryWords} as stored: ${byEntry ? 'every value it was taught' : 'its taught value, null until someone teaches one'}. */
const ruleState = z.object({ label: z.string(), taught: ${byEntry ? 'z.array(lessonState)' : 'lessonState.nullable()'} });
export type ${s.RuleState} = z.infer<typeof ruleState>;
${
  a.lesson === 'number'
    ? `
/** The first figure among a message's words. */
const firstNumber = (words: readonly string[]) => words.map((word) => readNumber(word)).find((number) => number !== undefined);
`
    : ''
}
/** Whether a message's words (lower case) meet a taught value. */
export function meets(lesson: ${s.RuleLesson}, words: readonly string[]): boolean {
  ${shape.meets}
}

/** A value drawn from a message's words, no wider than they are (SPEC §2.3), or undefined. */
export function suggestionFor(words: readonly string[]): ${s.RuleLesson} | undefined {
  ${shape.suggest}
}

const same = (a: ${s.RuleLesson}, b: ${s.RuleLesson}) => ${shape.same};
const say = (lesson: ${s.RuleLesson}) => ${shape.say};

/**
 * One ${s.entryWords} and ${byEntry ? 'the values it was taught: a message meeting one of them is this ' + s.entryWords + "'s" : 'its taught value: it decides whether the ' + s.entryWords + "'s messages are flagged"}.
 * Replace this with what your agent learns.
 */
export class ${s.Rule} extends Learnable.of(${s.ruleLesson}) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly taught: ${Taught} = ${byEntry ? '[]' : 'null'},
  ) {
    super();
  }
${
  byEntry
    ? `
  /** Whether this ${s.entryWords} was taught this value. */
  holds(lesson: ${s.RuleLesson}): boolean {
    return this.taught.some((taught) => same(taught, lesson));
  }

  /** Whether a message's words meet one of its values. */
  claims(words: readonly string[]): boolean {
    return this.taught.some((taught) => meets(taught, words));
  }

  /**
   * \`others\` are the collection's other entries, as of the version the lesson amends: a value
   * another ${s.entryWords} holds is refused, or a message meeting it would be asked about for ever.
   */
  learn(lesson: ${s.RuleLesson}, others: readonly Learnable<${s.RuleLesson}>[] = []): Learned<${s.Rule}> {
    const holder = others.find((other) => other instanceof ${s.Rule} && other.holds(lesson));
    if (holder !== undefined) throw new UnlearnableValue(\`\${holder.key} already holds \${say(lesson)}; take it back there first.\`, { field: '${a.field}' });
    if (this.holds(lesson)) return { next: this, changed: false };
    return { next: new ${s.Rule}(this.key, this.label, [...this.taught, lesson]), changed: true };
  }

  describes(lesson: ${s.RuleLesson}): string {
    return \`a message with \${say(lesson)} is \${this.key}'s\`;
  }

  /** Takes a taught value back; one it does not hold changes nothing. */
  unlearn(lesson: ${s.RuleLesson}): Learned<${s.Rule}> {
    if (!this.holds(lesson)) return { next: this, changed: false };
    return { next: new ${s.Rule}(this.key, this.label, this.taught.filter((taught) => !same(taught, lesson))), changed: true };
  }
`
    : `
  learn(lesson: ${s.RuleLesson}): Learned<${s.Rule}> {
    if (this.taught !== null && same(this.taught, lesson)) return { next: this, changed: false };
    return { next: new ${s.Rule}(this.key, this.label, lesson), changed: true };
  }

  describes(lesson: ${s.RuleLesson}): string {
    return \`\${this.key} is taught \${say(lesson)}\`;
  }

  /** Takes the taught value back: the ${s.entryWords} is asked about again. A value it does not have changes nothing. */
  unlearn(lesson: ${s.RuleLesson}): Learned<${s.Rule}> {
    if (this.taught === null || !same(this.taught, lesson)) return { next: this, changed: false };
    return { next: new ${s.Rule}(this.key, this.label, null), changed: true };
  }
`
}
  describesRetraction(lesson: ${s.RuleLesson}): string {
    return \`\${this.key} no longer has \${say(lesson)}\`;
  }

  toState(): ${s.RuleState} {
    return { label: this.label, taught: this.taught${byEntry ? ' as ' + s.RuleLesson + '[]' : ''} };
  }
}

/** How the authority rebuilds ${s.entryWords}s from storage and from the seed, each read with its schema first. */
export const ${s.ruleKind} = defineKind({
  collection: COLLECTION,
  learnable: ${s.Rule},
  state: ruleState,
  fromState: (key, { label, taught }) => new ${s.Rule}(key, label, taught),
  // A ${s.entryWords} someone adds starts taught nothing: the agent asks until it is taught.
  create: (key, label) => new ${s.Rule}(key, label${byEntry ? '' : ', null'}),${
    byEntry
      ? `
  // A seed never passes through \`learn\`: hold it to the same rule, naming both ${s.entryWords}s.
  checkSeed(entries) {
    for (const [index, entry] of entries.entries()) {
      for (const lesson of entry.taught) {
        const twin = entries.slice(index + 1).find((other) => other.holds(lesson));
        if (twin) throw new Error(\`\${COLLECTION}: "\${entry.key}" and "\${twin.key}" both hold \${say(lesson)}; keep it in one of them.\`);
      }
    }
  },`
      : ''
  }
});
`;
}

/** The constants a shape's prelude exports (its choices), which the card's lesson fields name. */
const constantsOf = (shape: LessonShape) => ['CHOICES', 'MATCHES'].filter((name) => shape.prelude.includes(`const ${name} `));

function agentFile(a: AgentAnswers, shape: LessonShape, how: string, asking: string): string {
  const s = spellings(a);
  const byEntry = a.answer === 'entry';
  const finding = byEntry ? camel(a.entry) : 'flagged';
  const name = `${pascal(a.name).replace(/([a-z])([A-Z])/g, '$1 $2')} agent`;
  const common = `/** The card's promise; \`${a.name}-agent.test.ts\` holds the code to each clause. */
export const HOW = ${JSON.stringify(how)};
`;
  const parse = (
    withKey: boolean,
  ) => `const HOW_TO_SEND = 'Send data ${withKey ? '{"key": "first", "text": "…"}' : '{"text": "…"}'}, or text such as "${asking}".';
const MAX_WORDS = 200;

/** The first data part, else the text: ${withKey ? `\`<${s.entryWords}> <words…>\`` : 'its words'}, in lower case. */
export function ${s.parseInput}(parts: readonly InputPart[]): ${s.Input} {
  const data = parts.find((part) => part.kind === 'data');
  let text: string;
  if (data) {
    const fields = typeof data.data === 'object' && data.data !== null ? (data.data as Record<string, unknown>) : {};
    if (typeof fields.text !== 'string') throw new InputRefused(\`This message has no text. \${HOW_TO_SEND}\`);
    text = ${withKey ? "`${typeof fields.key === 'string' ? fields.key : ''} ${fields.text}`" : 'fields.text'};
  } else {
    text = parts.map((part) => (part.kind === 'text' ? part.text : '')).join(' ');
  }
  const words = text.trim().toLowerCase().split(/\\s+/).filter((word) => word !== '').slice(0, MAX_WORDS);
  if (words.length === 0) throw new InputRefused(\`There is nothing to read in this message. \${HOW_TO_SEND}\`);
${
  withKey
    ? `  const [key, ...rest] = words;
  if (rest.length === 0) throw new InputRefused(\`"\${text.trim().slice(0, 60)}" names a ${s.entryWords} and nothing else. \${HOW_TO_SEND}\`);
  return { key: key!, words: rest };`
    : '  return { words };'
}
}
`;
  if (byEntry) {
    return `import type { InputPart, LearnableAgent, PinnedDefinitions, Reading } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';
import type { ${s.Rule}, ${s.RuleLesson} } from './${a.name}-rule.ts';
import { ${['COLLECTION', ...constantsOf(shape), s.ruleKind, 'suggestionFor'].join(', ')} } from './${a.name}-rule.ts';

${common}
/** One message as the agent reads it: its words. Plain JSON: the runtime journals it. */
export interface ${s.Input} {
  readonly words: readonly string[];
}

export interface ${s.Result} {
  /** The ${s.entryWords} the message is, or null when the operator answered "none of these". */
  readonly ${camel(a.entry)}: string | null;
}

${parse(false)}
function settled(winner: string | null, reads: string): Reading<${s.Result}, ${s.RuleLesson}> {
  return {
    settled: true,
    findings: { ${finding}: { settled: true, ...(winner !== null && { winner }), reads, collection: COLLECTION } },
    result: { ${camel(a.entry)}: winner },
  };
}

const entriesOf = (pinned: PinnedDefinitions): readonly ${s.Rule}[] => pinned.of(${s.ruleKind}).entries;

export const ${s.agentConst}: LearnableAgent<${s.Input}, ${s.Result}, ${s.Rule}> = {
  name: '${name}',
  description: ${JSON.stringify(`Tells which ${s.entryWords} a message is, from what each was taught. When none or several fit it asks, and it learns from lessons.`)},
  version: '0.1.0',
  skill: {
    id: '${a.name}-check',
    name: 'Which ${s.entryWords} is this message?',
    description: ${JSON.stringify(`Reads a message's words and names the one ${s.entryWords} taught them.`)},
    // The first example asks (no ${s.entryWords} in the seed was taught it): the conformance kit sends it.
    examples: ['${asking}', '${shape.meetsSeed}'],
    inputModes: ['text/plain', 'application/json'],
  },
  declaration: {
    collection: COLLECTION,
    entry: '${s.entryWords}',
    teaches: ${JSON.stringify(`what tells a message of one ${s.entryWords} apart`)},
    how: HOW,
    decidedBy: 'rules',
    // The answer is an entry: a person may add a new ${s.entryWords}, and answer that a message is none of them.
    addsEntries: true,
    admitsNone: true,
    lessonFields: ${shape.declared},
  },
  kinds: [${s.ruleKind}],
  parse: ${s.parseInput},
  read({ words }, pinned) {
    const entries = entriesOf(pinned);
    const claimed = entries.filter((entry) => entry.claims(words));
    if (claimed.length === 1) return settled(claimed[0]!.key, \`taught to \${claimed[0]!.key}\`);
    const suggested = suggestionFor(words);
    return {
      settled: false,
      findings: { ${finding}: { settled: false, reads: claimed.length === 0 ? 'no ${s.entryWords} was taught this' : \`\${claimed.map((entry) => entry.key).join(' and ')} were all taught this\`, collection: COLLECTION } },
      // The answers are the ${s.entryWords}s themselves, so the question names no \`entry\`: the lesson goes
      // to the one answered. The suggestion is drawn from this message, and the runtime teaches it to
      // the first answer when it asks (SPEC §2.4): one the learnable refuses fails the task in tests.
      question: {
        collection: COLLECTION,
        question: \`Which ${s.entryWords} is "\${words.join(' ').slice(0, 80)}"?\`,
        entries: entries.map((entry) => ({ key: entry.key, label: entry.label })),
        ...(suggested !== undefined && { suggested }),
      },
    };
  },
  answer(_input, _pinned, _question, { entry }) {
    return settled(entry, \`\${entry}, as the operator answered\`);
  },
  answerNone() {
    return settled(null, 'none of these, as the operator answered');
  },
  summarize: ({ words }) => ({ text: words.join(' ').slice(0, 120) }),
};
`;
  }
  return `import type { EntryChoice } from '@learnables/protocol';
import type { InputPart, LearnableAgent, PinnedDefinitions, Reading } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';
import type { ${s.Rule}, ${s.RuleLesson} } from './${a.name}-rule.ts';
import { ${['COLLECTION', ...constantsOf(shape), s.ruleKind, 'meets', 'suggestionFor'].join(', ')} } from './${a.name}-rule.ts';

${common}
/** The question's two answers, and the winners of a settled reading. */
export const ANSWERS: readonly EntryChoice[] = [
  { key: 'through', label: 'Let it through' },
  { key: 'flag', label: 'Flag it' },
];

/** One message as the agent reads it: the ${s.entryWords} it names and its other words. Plain JSON: the runtime journals it. */
export interface ${s.Input} {
  readonly key: string;
  readonly words: readonly string[];
}

export interface ${s.Result} {
  readonly key: string;
  readonly flagged: boolean;
}

${parse(true)}
function ruleFor(input: ${s.Input}, pinned: PinnedDefinitions): ${s.Rule} {
  const { entries } = pinned.of(${s.ruleKind});
  const rule = entries.find((entry) => entry.key === input.key);
  if (rule === undefined) {
    throw new InputRefused(\`I keep nothing for "\${input.key}"; the ${s.entryWords}s I know are \${entries.map((e) => e.key).join(', ')}.\`);
  }
  return rule;
}

function decided(input: ${s.Input}, flagged: boolean, reads: string): Reading<${s.Result}, ${s.RuleLesson}> {
  return {
    settled: true,
    findings: { ${finding}: { settled: true, winner: flagged ? 'flag' : 'through', reads, collection: COLLECTION } },
    result: { key: input.key, flagged },
  };
}

export const ${s.agentConst}: LearnableAgent<${s.Input}, ${s.Result}, ${s.Rule}> = {
  name: '${name}',
  description: ${JSON.stringify(`Flags a message as its ${s.entryWords}'s taught ${a.field} says. When a ${s.entryWords} was taught nothing yet it asks, and it learns from lessons.`)},
  version: '0.1.0',
  skill: {
    id: '${a.name}-check',
    name: 'Is this message flagged?',
    description: ${JSON.stringify(`Holds a message to its ${s.entryWords}'s taught ${a.field}.`)},
    // The first two examples ask (their ${s.entryWords}s were taught nothing in the seed): the conformance kit
    // sends the first, teaches its suggestion, and a second lesson from the second to check retraction.
    examples: ['${asking}', 'third ${shape.meetsNothing}', 'first ${shape.meetsSeed}'],
    inputModes: ['text/plain', 'application/json'],
  },
  declaration: {
    collection: COLLECTION,
    entry: '${s.entryWords}',
    teaches: ${JSON.stringify(`the ${a.field} that decides whether a ${s.entryWords}'s messages are flagged`)},
    how: HOW,
    decidedBy: 'rules',
    // The answer is a field of the ${s.entryWords} the message names. A new ${s.entryWords} can be added, then
    // taught; every question is yes or no, so never "none of these".
    addsEntries: true,
    admitsNone: false,
    lessonFields: ${shape.declared},
  },
  kinds: [${s.ruleKind}],
  parse: ${s.parseInput},
  read(input, pinned) {
    const { taught } = ruleFor(input, pinned);
    const { key, words } = input;
    if (taught === null) {
      const suggested = suggestionFor(words);
      return {
        settled: false,
        findings: { ${finding}: { settled: false, reads: \`\${key} was taught nothing yet, so I ask\`, collection: COLLECTION } },
        // The suggestion is drawn from this message. It is typed by the learnable's value, and the
        // runtime teaches it to the question's entry when it asks (SPEC §2.4): one it refuses fails
        // the task in tests, and is left out in production. It must be right for either answer, or
        // left out: see docs/write-your-own-agent.md, "The suggestion".
        question: { collection: COLLECTION, question: \`Should "\${words.join(' ').slice(0, 80)}" for \${key} be flagged?\`, entries: ANSWERS, entry: key, ...(suggested !== undefined && { suggested }) },
      };
    }
    return meets(taught, words) ? decided(input, true, \`\${key}'s taught ${a.field} flags it\`) : decided(input, false, \`\${key}'s taught ${a.field} lets it through\`);
  },
  answer(input, _pinned, _question, { entry }) {
    const flagged = entry === 'flag';
    return decided(input, flagged, \`\${input.key}: \${flagged ? 'flagged' : 'through'}, as the operator answered\`);
  },
  summarize: (input) => ({ key: input.key, text: input.words.join(' ').slice(0, 120) }),
};
`;
}

function ruleTest(a: AgentAnswers, shape: LessonShape): string {
  const s = spellings(a);
  const byEntry = a.answer === 'entry';
  const held = (value: unknown) => (byEntry ? `[${ts(value)}]` : ts(value));
  const empty = byEntry ? '[]' : 'null';
  return `import { describe, expect, it } from 'vitest';
import { UnlearnableValue, defineCollection } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import type { ${s.RuleLesson} } from './${a.name}-rule.ts';
import { ${s.Rule}, ${s.ruleKind} } from './${a.name}-rule.ts';

const rule = (taught: ${byEntry ? `readonly ${s.RuleLesson}[]` : `${s.RuleLesson} | null`} = ${empty}) => new ${s.Rule}('first', 'First', taught);

/** A lesson's value as the control plane hands it over: read with the learnable's schema, then learned. */
const teach = (entry: ${s.Rule}, value: LessonValue, others: readonly ${s.Rule}[] = []) => entry.learn(entry.readValue(value)${byEntry ? ', others' : ''});

function refusalOf(value: LessonValue, others: readonly ${s.Rule}[] = []): UnlearnableValue {
  try {
    teach(rule(), value, others);
  } catch (error) {
    expect(error).toBeInstanceOf(UnlearnableValue);
    return error as UnlearnableValue;
  }
  throw new Error('expected a refusal, and the value was taken');
}

describe('${s.Rule}', () => {
  it('reads a value as a form sends it: ${JSON.stringify(shape.typed).replace(/'/g, "\\'")}', () => {
    expect(teach(rule(), ${ts(shape.typed)})).toEqual({ next: rule(${held(shape.read)}), changed: true });
  });

  it('knows a value it already has: nothing changes', () => {
    const before = rule(${held(shape.read)});
    expect(teach(before, ${ts(shape.typed)})).toEqual({ next: before, changed: false });
  });

  it.each([
${shape.refusals.map(([value, sentence, field]) => `    [${ts(value)}, ${JSON.stringify(sentence)}, '${field}'],`).join('\n')}
    [{ ...${ts(shape.read)}, note: 'x' }, ${JSON.stringify(`A ${s.entryWords} lesson takes ${shape.fields.join(', ')}; "note" is not one.`)}, 'note'],
  ])('refuses %j in its own words, naming the field', (value, sentence, field) => {
    const refusal = refusalOf(value);
    expect(refusal.message).toBe(sentence);
    expect(refusal.field).toBe(field);
  });

  it('takes back the value it has, and nothing else', () => {
    expect(rule(${held(shape.read)}).unlearn(${ts(shape.read)})).toEqual({ next: rule(), changed: true });
    const before = rule(${held(shape.read)});
    expect(before.unlearn(${ts(shape.another)})).toEqual({ next: before, changed: false });
    expect(rule(${held(shape.read)}).describesRetraction(${ts(shape.read)})).toMatch(/^first no longer has /);
  });
${
  byEntry
    ? `
  it('keeps every value it was taught, and refuses one another ${s.entryWords} holds (learn is given the others)', () => {
    expect(teach(rule(${held(shape.read)}), ${ts(shape.another)})).toEqual({ next: rule([${ts(shape.read)}, ${ts(shape.another)}]), changed: true });
    const second = new ${s.Rule}('second', 'Second', [${ts(shape.another)}]);
    expect(refusalOf(${ts(shape.another)}, [second]).message).toMatch(/^second already holds .*; take it back there first\\.$/);
  });

  it('refuses a seed where two ${s.entryWords}s hold one value (checkSeed), naming both', () => {
    const twins = [rule(${held(shape.read)}), new ${s.Rule}('second', 'Second', [${ts(shape.read)}])];
    expect(() => ${s.ruleKind}.checkSeed!(twins)).toThrow(/^${a.collection}: "first" and "second" both hold /);
    expect(() => ${s.ruleKind}.checkSeed!(defineCollection('${a.collection}', [rule(${held(shape.read)})]).entries)).not.toThrow();
  });
`
    : ''
}
  it('creates a new ${s.entryWords} taught nothing yet', () => {
    expect(${s.ruleKind}.create('third', 'Third')).toEqual(new ${s.Rule}('third', 'Third', ${empty}));
  });

  it('comes back from storage as it went in, and refuses a state it cannot use', () => {
    for (const before of [rule(), rule(${held(shape.read)})]) expect(${s.ruleKind}.fromState('first', JSON.parse(JSON.stringify(before.toState())))).toEqual(before);
    expect(() => ${s.ruleKind}.fromState('first', { label: 'First', taught: 'x' })).toThrow('${a.collection}: "first" cannot be rebuilt from its state: taught:');
  });
});
`;
}

function agentTest(a: AgentAnswers, shape: LessonShape, asking: string, settling: string): string {
  const s = spellings(a);
  const byEntry = a.answer === 'entry';
  const F = a.field;
  return `import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Definition } from '@learnables/learnable';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import { DeclarationSchema } from '@learnables/protocol';
import type { PinnedDefinitions, Reading } from '@learnables/runtime';
import { InputRefused, checkAgent, pinDefinitions } from '@learnables/runtime';
import { ${s.agentConst}, HOW, ${s.parseInput} } from './${a.name}-agent.ts';
import type { ${s.Result} } from './${a.name}-agent.ts';
import type { ${s.Rule}, ${s.RuleLesson}, ${s.RuleState} } from './${a.name}-rule.ts';
import { COLLECTION, ${s.ruleKind} } from './${a.name}-rule.ts';
import { seedsFolder } from './seeds-folder.ts';

/** Version 1, from the seed file, built and checked the way the authority does. */
function seed(): Definition<${s.Rule}> {
  const file = JSON.parse(readFileSync(join(seedsFolder, \`\${COLLECTION}.json\`), 'utf8')) as { entries: Record<string, ${s.RuleState}> };
  const entries = Object.entries(file.entries).map(([key, state]) => ${s.ruleKind}.fromState(key, state));
  ${s.ruleKind}.checkSeed?.(entries);
  return defineCollection(COLLECTION, entries);
}

const pinned = (definition: Definition<${s.Rule}>): PinnedDefinitions => pinDefinitions([{ ...definition, version: 1 }]);
const input = (text: string) => ${s.parseInput}([{ kind: 'text', text }]);
const read = (text: string, definition = seed()): Reading<${s.Result}, ${s.RuleLesson}> => ${s.agentConst}.read(input(text), pinned(definition));

function questionOf(reading: Reading<${s.Result}, ${s.RuleLesson}>) {
  if (reading.settled) throw new Error('expected a question');
  return reading.question;
}

describe('the card', () => {
  it('declares what it learns: ${shape.fields.join(', ')}', () => {
    const { declaration } = ${s.agentConst};
    expect(DeclarationSchema.omit({ methods: true }).parse(declaration)).toEqual(declaration);
    expect(declaration.how).toBe(HOW);
    expect(declaration.lessonFields.map((field) => field.name)).toEqual(${ts(shape.fields)});
    expect(declaration).toMatchObject({ addsEntries: true, admitsNone: ${byEntry} });
  });

  it('offers in its form only what its learnable takes, and keeps every promise it makes, as the runtime checks at start-up', () => {
    expect(() => checkAgent(${s.agentConst})).not.toThrow();
  });

  it('has a first example that asks, so the conformance kit can use it', () => {
    expect(${s.agentConst}.skill.examples![0]).toBe('${asking}');
    expect(read('${asking}').settled).toBe(false);
  });
});

describe(\`how: "\${HOW}"\`, () => {
${
  byEntry
    ? `  it('names the one ${s.entryWords} taught what the message has', () => {
    expect(read('${settling}')).toMatchObject({ settled: true, result: { ${camel(a.entry)}: 'first' } });
  });

  it('asks which ${s.entryWords} a message is when none was taught it, offering every ${s.entryWords} and a suggestion', () => {
    const question = questionOf(read('${asking}'));
    expect(question.entries.map((entry) => entry.key)).toEqual(['first', 'second']);
    expect(question.entry).toBeUndefined();
    expect(question.suggested).toBeDefined();
    const taught = absorbLesson(seed(), { collection: COLLECTION, entry: 'second', value: question.suggested!, taughtBy: 'dana', reason: 'test' });
    expect(read('${asking}', taught.definition)).toMatchObject({ settled: true, result: { ${camel(a.entry)}: 'second' } });
  });

  it('asks when two ${s.entryWords}s were taught what the message has', () => {
    const question = questionOf(read('${asking}'));
    let twice = absorbLesson(seed(), { collection: COLLECTION, entry: 'second', value: question.suggested!, taughtBy: 'dana', reason: 'test' }).definition;
    // Taught under another entry, as a seed typed by hand could hold it: the learnable itself refuses a second holder.
    twice = defineCollection(COLLECTION, twice.entries.map((entry) => (entry.key === 'first' ? ${s.ruleKind}.fromState('first', { ...entry.toState(), taught: [...entry.taught, ...twice.entries[1]!.taught] }) : entry)));
    expect(read('${asking}', twice).settled).toBe(false);
  });

  it('settles with the operator\\'s answer, or with none of these', () => {
    const question = questionOf(read('${asking}'));
    expect(${s.agentConst}.answer(input('${asking}'), pinned(seed()), question, { entry: 'second' })).toMatchObject({ settled: true, result: { ${camel(a.entry)}: 'second' } });
    const none = ${s.agentConst}.answerNone!(input('${asking}'), pinned(seed()), question, {});
    expect(none).toMatchObject({ settled: true, result: { ${camel(a.entry)}: null } });
    expect(Object.values(none.findings).every((finding) => finding.winner === undefined)).toBe(true);
  });

  it('refuses a message with nothing to read, in a sentence', () => {
    expect(() => input('   ')).toThrow(InputRefused);
  });
`
    : `  it('holds a message to its ${s.entryWords}\\'s taught ${F}', () => {
    expect(read('${settling}')).toMatchObject({ settled: true, result: { key: 'first', flagged: ${a.lesson === 'number' ? '12 > 10' : 'true'} } });
  });

  it('asks about a ${s.entryWords} taught nothing yet, and suggests a value its own rule accepts', () => {
    const question = questionOf(read('${asking}'));
    expect(question).toMatchObject({ collection: COLLECTION, entry: 'second' });
    expect(question.suggested).toBeDefined();
    const taught = absorbLesson(seed(), { collection: COLLECTION, entry: 'second', value: question.suggested!, taughtBy: 'dana', reason: 'test' });
    expect(read('${asking}', taught.definition).settled).toBe(true);
  });

  it('settles with the operator\\'s answer', () => {
    const question = questionOf(read('${asking}'));
    expect(${s.agentConst}.answer(input('${asking}'), pinned(seed()), question, { entry: 'flag' })).toMatchObject({ settled: true, result: { flagged: true } });
  });

  it('refuses a ${s.entryWords} it keeps nothing for, and a message it cannot read, in a sentence', () => {
    expect(() => read('fourth ${shape.meetsSeed}')).toThrow(InputRefused);
    expect(() => input('first')).toThrow('"first" names a ${s.entryWords} and nothing else.');
  });
`
}});
`;
}

function readme(a: AgentAnswers, shape: LessonShape, how: string, asking: string): string {
  const s = spellings(a);
  const byEntry = a.answer === 'entry';
  return `# ${s.pkg}

Written by \`pnpm new-agent ${a.name} --lesson ${a.lesson} --answer ${a.answer}\`: a small, complete
learnable agent. Replace the example logic with your own;
[docs/write-your-own-agent.md](../../docs/write-your-own-agent.md) walks through every file.

- **Learns** the \`${a.collection}\` collection: one entry per ${s.entryWords}, each holding ${byEntry ? 'every value it was taught (a list, empty until taught)' : 'one taught value (`null` until taught)'}.
  A lesson is ${shape.described}.
- **Answer**: ${
    byEntry
      ? `the ${s.entryWords} a message is. The question offers every ${s.entryWords} of the collection, and the
  lesson goes to the one answered (it names no \`entry\`). A value another ${s.entryWords} holds is refused
  (\`learn\` is given the other entries), and so is a seed where two hold one (\`checkSeed\`).`
      : `flag it, or let it through. The message names its ${s.entryWords}, and a lesson sets that ${s.entryWords}'s
  value (the question's \`entry\`).`
  }
- **How** (on its card): \`${how}\`
- **Declaration**: \`addsEntries: true\` (a person may add another ${s.entryWords}, which starts taught nothing),
  \`admitsNone: ${byEntry}\`${byEntry ? ' (a message may be none of them: `answerNone` settles it with no winner)' : ' (every question is yes or no)'}.
- **Input**: data \`${byEntry ? '{ "text": "…" }' : '{ "key": "first", "text": "…" }'}\` or the text \`${asking}\`${byEntry ? '' : ` (the first word names the ${s.entryWords})`}.
- **Seed**: \`seeds/${a.collection}.json\`, version 1 of the collection: the ${s.entryWords}s \`first\`${byEntry ? ' and' : ','}
  \`second\`${byEntry ? '' : ' and `third`'}, of which only \`first\` was taught something. A lesson changes an entry; a new entry is
  added by a NewEntry (SPEC §3.5).

Run it alone with \`pnpm agent ${a.name}\` (port ${a.port}, or \`${a.name.toUpperCase().replace(/-/g, '_')}_AGENT_PORT\`), or with
everything else: \`pnpm start\`. Its tests: \`npx vitest run agents/${a.name}\`.
`;
}
