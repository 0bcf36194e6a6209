// The files `pnpm new-agent` writes: a small, complete learnable agent whose lesson value is a number.
// CI scaffolds one into a scratch copy, typechecks it, runs its tests and the conformance kit
// against it (test/new-agent.test.ts), so what these strings say is held to the real runtime.

/** What the scaffolder was told, checked and with every spelling derived. */
export interface AgentAnswers {
  /** Kebab case: `carrier`, `cold-store`. */
  readonly name: string;
  /** The collection the agent learns: kebab case, plural, e.g. `carrier-limits`. */
  readonly collection: string;
  /** What one entry of the collection is, a singular noun: `carrier`. */
  readonly entry: string;
  /** The lesson field, a camelCase identifier: `limit`. */
  readonly field: string;
  readonly port: number;
}

const words = (kebab: string) => kebab.split('-');
export const pascal = (kebab: string) => words(kebab).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
export const camel = (kebab: string) => pascal(kebab)[0]!.toLowerCase() + pascal(kebab).slice(1);
const spaced = (kebab: string) => words(kebab).join(' ');

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

/** Every file of the new package, by its path under agents/<name>/. */
export function agentFiles(a: AgentAnswers): Map<string, string> {
  const s = spellings(a);
  const F = a.field;
  const files = new Map<string, string>();

  files.set(
    'package.json',
    `${JSON.stringify(
      {
        name: s.pkg,
        version: '0.1.0',
        description: `The ${s.title} agent: flags an amount above its ${s.entryWords}'s ${F}, asks when there is none, and learns ${F}s from lessons.`,
        license: 'Apache-2.0',
        type: 'module',
        exports: { '.': './src/index.ts' },
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
          first: { label: 'First', [F]: 10 },
          second: { label: 'Second', [F]: null },
        },
      },
      null,
      2,
    )}\n`,
  );

  files.set(
    'src/index.ts',
    `export { ${s.Rule}, ${s.ruleKind}, ${s.ruleLesson}, COLLECTION } from './${a.name}-rule.ts';
export type { ${s.RuleLesson}, ${s.RuleState} } from './${a.name}-rule.ts';
export { ${s.agentConst}, HOW, ANSWERS, ${s.parseInput} } from './${a.name}-agent.ts';
export type { ${s.Input}, ${s.Result} } from './${a.name}-agent.ts';
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

  files.set(
    `src/${a.name}-rule.ts`,
    `import { z } from 'zod';
import type { Learned, LessonValueOf } from '@learnables/learnable';
import { Learnable, defineKind, lessonField, lessonValue } from '@learnables/learnable';

export const COLLECTION = '${a.collection}';

/**
 * A lesson's value: \`{ ${F} }\`, a number. It arrives as the text a person typed (no client knows the
 * kind \`number\`, so each shows a text box): "12" and " 12 " are read as 12, like the number 12.
 * Every refusal is in this learnable's words. Replace this with the value your agent learns.
 */
export const ${s.ruleLesson} = lessonValue(
  {
    ${F}: lessonField
      .number({ missing: 'A ${s.entryWords} rule needs ${F}, a number.', notANumber: (typed) => \`\${typed} is not a number; give it in figures, e.g. 10.\` })
      .refine((number) => number >= 0, { error: (issue) => \`A ${F} of \${issue.input} would flag everything; give 0 or more.\` }),
  },
  { unknownKey: (key) => \`A ${s.entryWords} rule takes ${F}; "\${key}" is not one.\` },
);
export type ${s.RuleLesson} = LessonValueOf<typeof ${s.ruleLesson}>;

/** One ${s.entryWords} as stored, and as the seed writes it: null until someone teaches a ${F}. */
const ruleState = z.object({ label: z.string(), ${F}: z.number().min(0).nullable() });
export type ${s.RuleState} = z.infer<typeof ruleState>;

/**
 * One ${s.entryWords} and its ${F}: an amount above it is flagged. A lesson sets it; until then every
 * amount for this ${s.entryWords} is asked about. Replace this with what your agent learns.
 */
export class ${s.Rule} extends Learnable.of(${s.ruleLesson}) {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly ${F}: number | null = null,
  ) {
    super();
  }

  learn({ ${F} }: ${s.RuleLesson}): Learned<${s.Rule}> {
    if (${F} === this.${F}) return { next: this, changed: false };
    return { next: new ${s.Rule}(this.key, this.label, ${F}), changed: true };
  }

  describes({ ${F} }: ${s.RuleLesson}): string {
    return \`\${this.key}: an amount above \${${F}} is flagged\`;
  }

  /** Takes a taught ${F} back: the ${s.entryWords} is asked about again. A ${F} it does not have changes nothing. */
  unlearn({ ${F} }: ${s.RuleLesson}): Learned<${s.Rule}> {
    if (${F} !== this.${F}) return { next: this, changed: false };
    return { next: new ${s.Rule}(this.key, this.label, null), changed: true };
  }

  describesRetraction({ ${F} }: ${s.RuleLesson}): string {
    return \`\${this.key}: the ${F} of \${${F}} is taken back\`;
  }

  toState(): ${s.RuleState} {
    return { label: this.label, ${F}: this.${F} };
  }
}

/** How the authority rebuilds rules from storage and from the seed, each read with its schema first. */
export const ${s.ruleKind} = defineKind({
  collection: COLLECTION,
  learnable: ${s.Rule},
  state: ruleState,
  fromState: (key, { label, ${F} }) => new ${s.Rule}(key, label, ${F}),
  // A ${s.entryWords} someone adds starts with no ${F}: the agent asks until one is taught.
  create: (key, label) => new ${s.Rule}(key, label, null),
});
`,
  );

  files.set(
    `src/${a.name}-agent.ts`,
    `import { readNumber } from '@learnables/learnable';
import type { EntryChoice } from '@learnables/protocol';
import type { InputPart, LearnableAgent, PinnedDefinitions, Reading } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';
import type { ${s.Rule}, ${s.RuleLesson} } from './${a.name}-rule.ts';
import { COLLECTION, ${s.ruleKind} } from './${a.name}-rule.ts';

/** The card's promise; \`${a.name}-agent.test.ts\` holds the code to each clause. */
export const HOW = "An amount above its ${s.entryWords}'s ${F} is flagged; a ${s.entryWords} with no ${F} yet, I ask about.";

/** The question's two answers, and the winners of a settled reading. */
export const ANSWERS: readonly EntryChoice[] = [
  { key: 'within', label: 'Let it through' },
  { key: 'over', label: 'Flag it' },
];

/** One message as the agent reads it. Plain JSON: the runtime journals it. */
export interface ${s.Input} {
  readonly key: string;
  readonly amount: number;
}

export interface ${s.Result} {
  readonly key: string;
  readonly amount: number;
  /** The ${F} the amount was held to, at the pinned version; null when the operator decided. */
  readonly ${F}: number | null;
  readonly flagged: boolean;
}

const HOW_TO_SEND = 'Send data {"key": "first", "amount": 12}, or text such as "first 12".';

/** The first data part, else the text \`<${s.entryWords}> <amount>\`. */
export function ${s.parseInput}(parts: readonly InputPart[]): ${s.Input} {
  const data = parts.find((part) => part.kind === 'data');
  let key: unknown;
  let amount: unknown;
  if (data) {
    const fields = typeof data.data === 'object' && data.data !== null ? (data.data as Record<string, unknown>) : {};
    ({ key, amount } = fields);
  } else {
    const text = parts.map((part) => (part.kind === 'text' ? part.text : '')).join(' ').trim();
    if (text === '') throw new InputRefused(\`There is nothing to read in this message. \${HOW_TO_SEND}\`);
    const match = /^(\\S+)\\s+(\\S+)$/.exec(text);
    if (!match) throw new InputRefused(\`"\${text.slice(0, 60)}" is not something I can read. \${HOW_TO_SEND}\`);
    [, key, amount] = match;
  }
  if (typeof key !== 'string' || key.trim() === '') throw new InputRefused(\`This message names no ${s.entryWords}. \${HOW_TO_SEND}\`);
  const number = readNumber(amount);
  if (number === undefined) throw new InputRefused(\`This message has no amount in figures. \${HOW_TO_SEND}\`);
  return { key: key.trim().toLowerCase(), amount: number };
}

function ruleFor(input: ${s.Input}, pinned: PinnedDefinitions): ${s.Rule} {
  const { entries } = pinned.of(${s.ruleKind});
  const rule = entries.find((entry) => entry.key === input.key);
  if (rule === undefined) {
    throw new InputRefused(\`I keep no ${F} for "\${input.key}"; the ${s.entryWords}s I know are \${entries.map((e) => e.key).join(', ')}.\`);
  }
  return rule;
}

function decided(input: ${s.Input}, ${F}: number | null, flagged: boolean, reads: string): Reading<${s.Result}, ${s.RuleLesson}> {
  return {
    settled: true,
    findings: { flagged: { settled: true, winner: flagged ? 'over' : 'within', reads, collection: COLLECTION } },
    result: { key: input.key, amount: input.amount, ${F}, flagged },
  };
}

export const ${s.agentConst}: LearnableAgent<${s.Input}, ${s.Result}, ${s.Rule}> = {
  name: '${pascal(a.name).replace(/([a-z])([A-Z])/g, '$1 $2')} agent',
  description: "Flags an amount above its ${s.entryWords}'s ${F}. When a ${s.entryWords} has no ${F} yet it asks, and it learns ${F}s from lessons.",
  version: '0.1.0',
  skill: {
    id: '${a.name}-check',
    name: 'Is this amount above its ${F}?',
    description: "Compares an amount with its ${s.entryWords}'s ${F}: above it, the amount is flagged.",
    // The first example asks (its ${s.entryWords} has no ${F} in the seed): the conformance kit sends it.
    examples: ['second 12', 'first 4'],
    inputModes: ['text/plain', 'application/json'],
  },
  declaration: {
    collection: COLLECTION,
    entry: '${s.entryWords}',
    teaches: "the ${F} above which a ${s.entryWords}'s amounts are flagged",
    how: HOW,
    decidedBy: 'rules',
    // A new ${s.entryWords} can be added, then taught its ${F}. Every question is yes or no, so never "none of these".
    addsEntries: true,
    admitsNone: false,
    lessonFields: [{ name: '${F}', label: '${pascal(F).replace(/([a-z])([A-Z])/g, '$1 $2')}', kind: 'number', help: 'Amounts above this are flagged; this amount and below go through.' }],
  },
  kinds: [${s.ruleKind}],
  parse: ${s.parseInput},
  read(input, pinned) {
    const { ${F} } = ruleFor(input, pinned);
    const { key, amount } = input;
    if (${F} === null) {
      return {
        settled: false,
        findings: { flagged: { settled: false, reads: \`no ${F} for \${key} yet, so I ask about \${amount}\`, collection: COLLECTION } },
        // The suggestion is the ${F} that lets this amount through, as the first answer does. It is
        // typed by the learnable's value, and the runtime teaches it to the learnable when it asks
        // (SPEC §2.4): one it refuses fails the task in tests, and is left out in production.
        question: { collection: COLLECTION, question: \`Should \${amount} for \${key} go through?\`, entries: ANSWERS, entry: key, suggested: { ${F}: amount } },
      };
    }
    return amount > ${F}
      ? decided(input, ${F}, true, \`\${amount} is above the ${F} of \${${F}} for \${key}: flagged\`)
      : decided(input, ${F}, false, \`\${amount} is within the ${F} of \${${F}} for \${key}\`);
  },
  answer(input, pinned, _question, { entry }) {
    const flagged = entry === 'over';
    return decided(input, ruleFor(input, pinned).${F}, flagged, \`\${input.amount} for \${input.key}: \${flagged ? 'flagged' : 'through'}, as the operator answered\`);
  },
  summarize: (input) => ({ key: input.key, amount: input.amount }),
};
`,
  );

  files.set(
    `src/${a.name}-rule.test.ts`,
    `import { describe, expect, it } from 'vitest';
import { UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import { ${s.Rule}, ${s.ruleKind} } from './${a.name}-rule.ts';

const rule = (${F}: number | null = null) => new ${s.Rule}('first', 'First', ${F});

/** A lesson's value as the control plane hands it over: read with the learnable's schema, then learned. */
const teach = (entry: ${s.Rule}, value: LessonValue) => entry.learn(entry.readValue(value));

function refusalOf(value: LessonValue): UnlearnableValue {
  try {
    teach(rule(), value);
  } catch (error) {
    expect(error).toBeInstanceOf(UnlearnableValue);
    return error as UnlearnableValue;
  }
  throw new Error('expected a refusal, and the value was taken');
}

describe('${s.Rule}', () => {
  it.each([30, '30', ' 30 ', '30.0'])('takes %j, as a text box sends it, for 30', (typed) => {
    expect(teach(rule(), { ${F}: typed })).toEqual({ next: rule(30), changed: true });
  });

  it('knows a ${F} it already has: nothing changes', () => {
    const before = rule(30);
    expect(teach(before, { ${F}: '30' })).toEqual({ next: before, changed: false });
  });

  it.each([
    [{ ${F}: 'thirty' }, '"thirty" is not a number; give it in figures, e.g. 10.', '${F}'],
    [{}, 'A ${s.entryWords} rule needs ${F}, a number.', '${F}'],
    [{ ${F}: -1 }, 'A ${F} of -1 would flag everything; give 0 or more.', '${F}'],
    [{ ${F}: 3, note: 'x' }, 'A ${s.entryWords} rule takes ${F}; "note" is not one.', 'note'],
  ])('refuses %j in its own words, naming the field', (value, sentence, field) => {
    const refusal = refusalOf(value);
    expect(refusal.message).toBe(sentence);
    expect(refusal.field).toBe(field);
  });

  it('takes back the ${F} it has, and nothing else', () => {
    expect(rule(30).unlearn(rule().readValue({ ${F}: '30' }))).toEqual({ next: rule(), changed: true });
    const before = rule(30);
    expect(before.unlearn({ ${F}: 12 })).toEqual({ next: before, changed: false });
    expect(rule(30).describesRetraction({ ${F}: 30 })).toBe('first: the ${F} of 30 is taken back');
  });

  it('creates a new ${s.entryWords} with no ${F} yet', () => {
    expect(${s.ruleKind}.create('third', 'Third')).toEqual(new ${s.Rule}('third', 'Third', null));
  });

  it('comes back from storage as it went in, and refuses a state it cannot use', () => {
    for (const before of [rule(), rule(30)]) expect(${s.ruleKind}.fromState('first', JSON.parse(JSON.stringify(before.toState())))).toEqual(before);
    expect(() => ${s.ruleKind}.fromState('first', { label: 'First', ${F}: '30' })).toThrow(
      '${a.collection}: "first" cannot be rebuilt from its state: ${F}: Invalid input: expected number, received string.',
    );
  });
});
`,
  );

  files.set(
    `src/${a.name}-agent.test.ts`,
    `import { readFileSync } from 'node:fs';
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

/** Version 1, from the seed file, built the way the authority builds it. */
function seed(): Definition<${s.Rule}> {
  const file = JSON.parse(readFileSync(join(seedsFolder, \`\${COLLECTION}.json\`), 'utf8')) as { entries: Record<string, ${s.RuleState}> };
  return defineCollection(COLLECTION, Object.entries(file.entries).map(([key, state]) => ${s.ruleKind}.fromState(key, state)));
}

const pinned = (definition: Definition<${s.Rule}>): PinnedDefinitions => pinDefinitions([{ ...definition, version: 1 }]);
const read = (text: string, definition = seed()): Reading<${s.Result}, ${s.RuleLesson}> => ${s.agentConst}.read(${s.parseInput}([{ kind: 'text', text }]), pinned(definition));

describe('the card', () => {
  it('declares what it learns, and its one lesson field is a number', () => {
    const { declaration } = ${s.agentConst};
    expect(DeclarationSchema.omit({ methods: true }).parse(declaration)).toEqual(declaration);
    expect(declaration.how).toBe(HOW);
    expect(declaration.lessonFields).toEqual([expect.objectContaining({ name: '${F}', kind: 'number' })]);
  });

  it('offers in its form only what its learnable takes, as the runtime checks at start-up', () => {
    expect(() => checkAgent(${s.agentConst})).not.toThrow();
  });

  it('has a first example that asks, so the conformance kit can use it', () => {
    expect(read(${s.agentConst}.skill.examples![0]!).settled).toBe(false);
  });
});

describe(\`how: "\${HOW}"\`, () => {
  it('flags an amount above the ${F}, not one at or below it', () => {
    expect(read('first 10.5')).toMatchObject({ settled: true, result: { flagged: true, ${F}: 10 } });
    expect(read('first 10')).toMatchObject({ settled: true, result: { flagged: false } });
  });

  it('asks about a ${s.entryWords} with no ${F}, and suggests one its own rule accepts', () => {
    const reading = read('second 12');
    if (reading.settled) throw new Error('expected a question');
    expect(reading.question).toMatchObject({ collection: COLLECTION, entry: 'second', suggested: { ${F}: 12 } });
    const taught = absorbLesson(seed(), { collection: COLLECTION, entry: 'second', value: reading.question.suggested!, taughtBy: 'dana', reason: 'test' });
    expect(read('second 12', taught.definition).settled).toBe(true);
  });

  it('settles with the operator\\'s answer', () => {
    const input = ${s.parseInput}([{ kind: 'text', text: 'second 12' }]);
    const reading = read('second 12');
    if (reading.settled) throw new Error('expected a question');
    expect(${s.agentConst}.answer(input, pinned(seed()), reading.question, { entry: 'over' })).toMatchObject({ settled: true, result: { flagged: true, ${F}: null } });
  });

  it('refuses a ${s.entryWords} it keeps nothing for, and a message it cannot read, in a sentence', () => {
    expect(() => read('third 3')).toThrow(InputRefused);
    expect(() => ${s.parseInput}([{ kind: 'text', text: 'hello' }])).toThrow('"hello" is not something I can read.');
  });
});
`,
  );

  files.set(
    'README.md',
    `# ${s.pkg}

Written by \`pnpm new-agent ${a.name}\`: a small, complete learnable agent. Replace the example
logic with your own; [docs/write-your-own-agent.md](../../docs/write-your-own-agent.md) walks
through every file.

- **Learns** the \`${a.collection}\` collection: one entry per ${s.entryWords}, each with a \`${F}\`
  (a number, or \`null\` until taught). A lesson is \`{ "${F}": 12 }\`; the text a person types
  (\`"12"\`) is read as the same number.
- **How** (on its card): ${'`'}An amount above its ${s.entryWords}'s ${F} is flagged; a ${s.entryWords} with no ${F} yet, I ask about.${'`'}
- **Input**: data \`{ "key": "first", "amount": 12 }\` or the text \`first 12\`.
- **Seed**: \`seeds/${a.collection}.json\`, version 1 of the collection. Its entries are the only
  ${s.entryWords}s the agent knows; a lesson changes an entry, it does not add one.

Run it alone with \`pnpm agent ${a.name}\` (port ${a.port}, or \`${a.name.toUpperCase().replace(/-/g, '_')}_AGENT_PORT\`), or with
everything else: \`pnpm start\`.
`,
  );
  return files;
}
