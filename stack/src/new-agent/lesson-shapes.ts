// The lesson shapes `pnpm new-agent` can write, and the two shapes of an answer. Each lesson shape is
// the code of one learnable's value (its fields, their refusals, how a taught value meets a message)
// and the sample values its generated tests use; agent-template.ts wraps it in a whole agent.

/** What a lesson carries: one number, one word, one choice, or two words and a choice. */
export const LESSON_KINDS = ['number', 'text', 'choice', 'fields'] as const;
export type LessonKind = (typeof LESSON_KINDS)[number];

/**
 * What the operator's answer is. `field`: the message names its entry and the question's answers
 * are fixed (flag it, let it through); a lesson sets the entry's value (the threshold agent).
 * `entry`: the answer is which entry the message belongs to; a lesson teaches that entry what
 * told it apart (the email agent).
 */
export const ANSWER_SHAPES = ['field', 'entry'] as const;
export type AnswerShape = (typeof ANSWER_SHAPES)[number];

/** The names of the second and third fields of a `fields` lesson. */
export const OTHER_FIELD = 'other';
export const MATCH_FIELD = 'match';

/** The lesson field's name when --field leaves it out. */
export function defaultField(kind: LessonKind, answer: AnswerShape): string {
  if (kind === 'number') return answer === 'field' ? 'limit' : 'code';
  if (kind === 'choice') return answer === 'field' ? 'verdict' : 'band';
  return 'word';
}

/** A lesson value as a test writes it: a JSON-able object, printed as TypeScript. */
type Value = Record<string, string | number>;

export interface LessonShape {
  /** The card's lesson fields, as TypeScript (an array literal). */
  readonly declared: string;
  /** Code before the lesson's schema (its choices). */
  readonly prelude: string;
  /** The fields of `lessonValue({ … })`, and its `check` when it has one. */
  readonly schema: string;
  readonly check?: string;
  /** The fields of the stored state of one taught value (a zod object's body). */
  readonly state: string;
  /** Whether two read values are the same lesson: an expression of `a` and `b`. */
  readonly same: string;
  /** A taught value in words, as an expression of `lesson` (for audit sentences). */
  readonly say: string;
  /** The body of `meets(lesson, words)`: whether a message's words meet a taught value. */
  readonly meets: string;
  /** The body of `suggestionFor(words)`: a value drawn from the message, or undefined. */
  readonly suggest: string;
  /** The lesson the seed's first entry holds (as read). */
  readonly seeded: Value;
  /** Words of a message that the seeded lesson meets, and words that nothing seeded meets. */
  readonly meetsSeed: string;
  readonly meetsNothing: string;
  /** A value as typed in a form, what the schema reads it as, and another value. */
  readonly typed: Value;
  readonly read: Value;
  readonly another: Value;
  /** Values the schema refuses: the value, its sentence, the field named. */
  readonly refusals: readonly (readonly [Value, string, string])[];
  /** The fields, for the unknown-key sentence. */
  readonly fields: readonly string[];
  /** What the README says a lesson is. */
  readonly described: string;
}

const label = (name: string) => {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced[0]!.toUpperCase() + spaced.slice(1);
};

/** A one-word text field: trimmed, lower case, refused when blank or more than one word. */
const wordField = (name: string) => `${name}: lessonField
      .text({ missing: 'A lesson needs ${name}, one word.' })
      .transform((word) => word.toLowerCase())
      .refine((word) => !/\\s/.test(word), { error: (issue) => \`"\${String(issue.input)}" is more than one word; give ${name} as one word.\` }),`;

/** The lesson shape of one kind, for one answer shape, with F the (first) field's name. */
export function lessonShape(kind: LessonKind, answer: AnswerShape, F: string): LessonShape {
  const bySentence = answer === 'field' ? 'flagged' : 'read as this one';
  switch (kind) {
    case 'number':
      return {
        declared: `[{ name: '${F}', label: '${label(F)}', kind: 'number', help: '${answer === 'field' ? 'Amounts above this are flagged; this amount and below go through.' : 'A message with this amount is read as this entry.'}' }]`,
        prelude: '',
        schema: `${F}: lessonField
      .number({ missing: 'A lesson needs ${F}, a number.', notANumber: (typed) => \`\${typed} is not a number; give it in figures, e.g. 10.\` })
      .refine((number) => number >= 0, { error: (issue) => \`A ${F} of \${String(issue.input)} is below 0; give 0 or more.\` }),`,
        state: `${F}: z.number().min(0)`,
        same: `a.${F} === b.${F}`,
        say: `\`${F} \${lesson.${F}}\``,
        meets:
          answer === 'field'
            ? `const amount = firstNumber(words);\n  return amount !== undefined && amount > lesson.${F};`
            : `return firstNumber(words) === lesson.${F};`,
        suggest: `const amount = firstNumber(words);\n  return amount === undefined || amount < 0 ? undefined : { ${F}: amount };`,
        seeded: { [F]: 10 },
        meetsSeed: answer === 'field' ? '12' : '10',
        meetsNothing: answer === 'field' ? '12' : '7',
        typed: { [F]: ' 30 ' },
        read: { [F]: 30 },
        another: { [F]: 40 },
        refusals: [
          [{ [F]: 'thirty' }, '"thirty" is not a number; give it in figures, e.g. 10.', F],
          [{}, `A lesson needs ${F}, a number.`, F],
          [{ [F]: -1 }, `A ${F} of -1 is below 0; give 0 or more.`, F],
        ],
        fields: [F],
        described: `\`{ "${F}": 12 }\`, a number (the text a person types, \`"12"\`, is read as the same number)`,
      };
    case 'text':
      return {
        declared: `[{ name: '${F}', label: '${label(F)}', kind: 'text', help: 'One word: a message with it is ${bySentence}.' }]`,
        prelude: '',
        schema: wordField(F),
        state: `${F}: z.string().regex(/^\\S+$/)`,
        same: `a.${F} === b.${F}`,
        say: `\`the word "\${lesson.${F}}"\``,
        meets: `return words.includes(lesson.${F});`,
        suggest: `const [word] = words;\n  return word === undefined ? undefined : { ${F}: word };`,
        seeded: { [F]: 'urgent' },
        meetsSeed: 'urgent order',
        meetsNothing: 'late parcel',
        typed: { [F]: ' Late ' },
        read: { [F]: 'late' },
        another: { [F]: 'early' },
        refusals: [
          [{ [F]: '  ' }, `A lesson needs ${F}, one word.`, F],
          [{ [F]: 'two words' }, `"two words" is more than one word; give ${F} as one word.`, F],
        ],
        fields: [F],
        described: `\`{ "${F}": "late" }\`, one word (read trimmed and in lower case)`,
      };
    case 'choice': {
      // For a fixed answer, the choice is the entry's standing answer: its choices are the answers' keys.
      const choices = answer === 'field' ? ['through', 'flag'] : ['low', 'middle', 'high'];
      return {
        declared: `[{ name: '${F}', label: '${label(F)}', kind: 'choice', choices: [...CHOICES], help: '${answer === 'field' ? "What this entry\\'s messages get from now on: let through, or flagged." : 'A message naming this band is read as this entry.'}' }]`,
        prelude: `/** The choices of the lesson field ${F}, as the card offers them. */\nexport const CHOICES = [${choices.map((c) => `'${c}'`).join(', ')}] as const;\n\n`,
        schema: `${F}: lessonField.choice(CHOICES, { notOne: (typed) => \`\${typed} is not one of ${choices.join(', ')}.\`, missing: 'A lesson needs ${F}, one of ${choices.join(', ')}.' }),`,
        state: `${F}: z.enum(CHOICES)`,
        same: `a.${F} === b.${F}`,
        say: `\`${F} \${lesson.${F}}\``,
        meets: answer === 'field' ? `return lesson.${F} === 'flag';` : `return words.includes(lesson.${F});`,
        suggest:
          answer === 'field'
            ? `return words.length === 0 ? undefined : { ${F}: 'through' };`
            : `const ${F} = CHOICES.find((choice) => words.includes(choice));\n  return ${F} === undefined ? undefined : { ${F} };`,
        seeded: { [F]: answer === 'field' ? 'flag' : 'low' },
        meetsSeed: answer === 'field' ? 'order 12' : 'low order',
        meetsNothing: answer === 'field' ? 'order 12' : 'middle order',
        typed: { [F]: answer === 'field' ? ' Flag ' : ' High ' },
        read: { [F]: answer === 'field' ? 'flag' : 'high' },
        another: { [F]: answer === 'field' ? 'through' : 'middle' },
        refusals: [
          [{ [F]: 'maybe' }, `"maybe" is not one of ${choices.join(', ')}.`, F],
          [{}, `A lesson needs ${F}, one of ${choices.join(', ')}.`, F],
        ],
        fields: [F],
        described: `\`{ "${F}": "${choices[0]}" }\`, one of ${choices.map((c) => `\`${c}\``).join(', ')}`,
      };
    }
    case 'fields':
      return {
        declared: `[
      { name: '${F}', label: '${label(F)}', kind: 'text', help: 'One word of the message.' },
      { name: '${OTHER_FIELD}', label: 'Other word', kind: 'text', help: 'Another word of the message.' },
      { name: '${MATCH_FIELD}', label: 'Match', kind: 'choice', choices: [...MATCHES], help: 'both: a message needs both words; either: one of them is enough.' },
    ]`,
        prelude: `/** How the two words must appear: the choices of the lesson field ${MATCH_FIELD}. */\nexport const MATCHES = ['both', 'either'] as const;\n\n`,
        schema: `${wordField(F)}
    ${wordField(OTHER_FIELD)}
    ${MATCH_FIELD}: lessonField.choice(MATCHES, { notOne: (typed) => \`\${typed} is not one of both, either.\`, missing: 'A lesson needs ${MATCH_FIELD}, both or either.' }),`,
        // A rule across fields: the schema's check runs once every field was read.
        check: `check: ({ ${F}, ${OTHER_FIELD} }) => {
      if (${F} === ${OTHER_FIELD}) throw new UnlearnableValue(\`Give two different words; "\${${F}}" twice is one word.\`, { field: '${OTHER_FIELD}' });
    },`,
        state: `${F}: z.string().regex(/^\\S+$/), ${OTHER_FIELD}: z.string().regex(/^\\S+$/), ${MATCH_FIELD}: z.enum(MATCHES)`,
        same: `a.${F} === b.${F} && a.${OTHER_FIELD} === b.${OTHER_FIELD} && a.${MATCH_FIELD} === b.${MATCH_FIELD}`,
        say: `\`"\${lesson.${F}}" \${lesson.${MATCH_FIELD} === 'both' ? 'and' : 'or'} "\${lesson.${OTHER_FIELD}}"\``,
        meets: `const has = (word: string) => words.includes(word);\n  return lesson.${MATCH_FIELD} === 'both' ? has(lesson.${F}) && has(lesson.${OTHER_FIELD}) : has(lesson.${F}) || has(lesson.${OTHER_FIELD});`,
        suggest: `const [first, second] = words;\n  return first === undefined || second === undefined || first === second ? undefined : { ${F}: first, ${OTHER_FIELD}: second, ${MATCH_FIELD}: 'both' };`,
        seeded: { [F]: 'urgent', [OTHER_FIELD]: 'order', [MATCH_FIELD]: 'both' },
        meetsSeed: 'urgent order',
        meetsNothing: 'late parcel',
        typed: { [F]: ' Late ', [OTHER_FIELD]: 'Parcel', [MATCH_FIELD]: ' Either ' },
        read: { [F]: 'late', [OTHER_FIELD]: 'parcel', [MATCH_FIELD]: 'either' },
        another: { [F]: 'late', [OTHER_FIELD]: 'box', [MATCH_FIELD]: 'both' },
        refusals: [
          [{ [F]: 'late', [OTHER_FIELD]: 'late', [MATCH_FIELD]: 'both' }, 'Give two different words; "late" twice is one word.', OTHER_FIELD],
          [{ [F]: 'late', [OTHER_FIELD]: 'box', [MATCH_FIELD]: 'maybe' }, '"maybe" is not one of both, either.', MATCH_FIELD],
          [{ [F]: 'late', [MATCH_FIELD]: 'both' }, `A lesson needs ${OTHER_FIELD}, one word.`, OTHER_FIELD],
        ],
        fields: [F, OTHER_FIELD, MATCH_FIELD],
        described: `\`{ "${F}": "late", "${OTHER_FIELD}": "parcel", "${MATCH_FIELD}": "both" }\`: two words (each read trimmed and in lower case, and not the same) and whether a message needs both or either`,
      };
  }
}
