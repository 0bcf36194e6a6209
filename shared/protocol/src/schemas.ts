import { z } from 'zod';
import { readableName } from './readable-name.ts';

const words = (what: string) => z.string().regex(/\S/, `${what} must not be empty`).trim();

/** One field of the form a client renders, blind, to take a lesson. `kind` is open on purpose. */
export const LessonFieldSchema = z
  .object({
    name: words('a lesson field name'),
    label: words('a lesson field label'),
    kind: words('a lesson field kind').meta({
      description: "'text' and 'choice' are known; a client MUST render any other kind as a text input.",
    }),
    help: z.string().optional(),
    choices: z.array(z.string()).optional(),
    default: z.string().optional(),
  })
  .refine((field) => field.kind !== 'choice' || (field.choices?.length ?? 0) > 0, {
    message: "a field of kind 'choice' needs at least one choice",
    path: ['choices'],
  });

/** Where an agent serves one extension method, per transport. */
export const MethodNamesSchema = z.object({
  jsonrpc: words('a JSON-RPC method name'),
  rest: words('a REST path'),
  security: z.array(words('a security scheme name')).min(1).optional().meta({
    description:
      "Names in the card's securitySchemes, any one of which a call of this method must satisfy, even where the card lets core methods be called without; absent means as core methods.",
  }),
});

/** The declaration an agent publishes in its card, as the `params` of the extension entry. */
export const DeclarationSchema = z.object({
  collection: words('collection'),
  entry: words('entry'),
  teaches: words('teaches'),
  how: words('how').meta({ description: 'A true sentence saying how the agent decides today.' }),
  decidedBy: z.enum(['rules', 'model', 'hybrid']),
  lessonFields: z.array(LessonFieldSchema).min(1, 'a declaration needs at least one lesson field'),
  methods: z
    .object({
      reread: MethodNamesSchema,
      teach: MethodNamesSchema.optional(),
      retract: MethodNamesSchema.optional(),
      preview: MethodNamesSchema.optional(),
      correct: MethodNamesSchema.optional(),
      corrections: MethodNamesSchema.optional(),
    })
    .meta({
      description: 'Where the extension methods are served: reread always; teach, retract, preview, correct and corrections when the agent offers them.',
    }),
  addsEntries: z.boolean().optional().meta({ description: 'Entries may be added to the collection by teaching (a NewEntry); absent means false.' }),
  admitsNone: z.boolean().optional().meta({ description: 'A question may be answered "none of these" (no entry applies); absent means false.' }),
});

/** The card entry itself: `required` is always false, so clients that ignore it lose nothing. */
export const ExtensionEntrySchema = z.object({
  uri: z.string(),
  description: z.string().optional(),
  required: z.literal(false),
  params: DeclarationSchema,
});

/**
 * How deep a lesson's value may nest (the value itself is level 1). Lessons are form fields, a
 * level or two; a value nested thousands deep only exhausts the stack of whatever walks it
 * (JSON.stringify, a deep freeze, the learnable's own message) and turns a refusal into a 500.
 * It is enforced on the request's text before it is parsed (`jsonNestsDeeperThan`), not by walking
 * the parsed value: a walk would read every key of a value that only its learnable may read.
 */
export const MAX_LESSON_DEPTH = 16;

/**
 * How deep a request body carrying a lesson may nest: the value's levels plus the envelope around
 * it (a JSON-RPC request's params, the teach params' lesson, the lesson's value).
 */
export const MAX_BODY_DEPTH = MAX_LESSON_DEPTH + 4;

/**
 * Whether JSON text nests deeper than `limit` objects and arrays, counted on the text itself (one
 * pass, no recursion, strings skipped), so a hostile body is refused before anything parses it.
 */
export function jsonNestsDeeperThan(text: string | Uint8Array, limit: number): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      // Jump to the next quote (a 37 MB base64 string is one jump, not 49 million steps); it ends
      // the string unless an odd number of backslashes escapes it.
      const quote = bytes.indexOf(0x22, i);
      if (quote < 0) return false;
      let backslashes = 0;
      while (bytes[quote - 1 - backslashes] === 0x5c) backslashes += 1;
      i = quote;
      if (backslashes % 2 === 0) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth -= 1;
  }
  return false;
}

/**
 * A body-parser `verify` hook (express.json({ verify })): refuses a body nested deeper than
 * MAX_BODY_DEPTH before it is parsed. The error carries `type: 'entity.too.deep'` and status 400
 * so each service answers it in its own shape, as it does body-parser's own errors.
 */
export function refuseDeepJson(_req: unknown, _res: unknown, body: Uint8Array): void {
  if (jsonNestsDeeperThan(body, MAX_BODY_DEPTH)) {
    const error = new Error(
      `The request nests deeper than ${MAX_BODY_DEPTH} levels; a lesson's value may nest at most ${MAX_LESSON_DEPTH} (a lesson is a few fields a person filled in). Nothing was written.`,
    ) as Error & { type: string; status: number };
    error.type = 'entity.too.deep';
    error.status = 400;
    throw error;
  }
}

/**
 * A lesson's value: an open object that only the learnable owning the entry reads.
 * Validation here checks the shape and passes the very same object on, untouched and uncopied,
 * so no layer between the client and the learnable can come to depend on a named key.
 */
export const LessonValueSchema = z
  .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'value must be an object')
  .meta({ description: `Opaque to every layer but the learnable that owns the entry; nests at most ${MAX_LESSON_DEPTH} levels deep.` });

export const LessonSchema = z.object({
  collection: words('collection'),
  entry: words('entry'),
  value: LessonValueSchema,
  // Names go into the permanent audit trail and every screen that shows it: one rule for all (readable-name.ts).
  taughtBy: readableName('taughtBy'),
  reason: words('reason'),
});

/** A new entry for a collection, taught like a lesson: the learnable kind creates it empty. */
export const NewEntrySchema = z.object({
  collection: words('collection'),
  newEntry: z
    .object({
      label: readableName("the new entry's label"),
      key: z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "the new entry's key must be lower-case letters, digits and dashes (at most 64)")
        .optional()
        .meta({ description: 'Made from the label when not given, the same way every time.' }),
    })
    .meta({ description: 'The entry to add. Adding one that exists with the same label changes nothing.' }),
  taughtBy: readableName('taughtBy'),
  reason: words('reason'),
});

/** Take one lesson (or an added entry) back: the version its activation published names it. */
export const RetractionSchema = z.object({
  collection: words('collection'),
  version: z.number().int().positive().meta({ description: 'The version published by the lesson (or added entry) to retract.' }),
  author: readableName('author'),
  reason: words('reason'),
});

/**
 * A completed task's decision marked wrong by a person, with what it should have been (SPEC §6.7).
 * It is recorded beside the task; the task's pinned reading and outcome are never rewritten.
 */
export const CorrectionSchema = z
  .object({
    taskId: words('taskId'),
    finding: words('finding').optional().meta({ description: 'The name of the finding corrected; may be left out when the task decided one thing only.' }),
    entry: z.string().regex(/\S/, 'entry must not be empty').max(200, 'entry must be at most 200 characters').trim().optional().meta({
      description:
        "What the finding should have decided: an entry of the finding's collection by key or label, or, for a finding that names no entry, the right value in words.",
    }),
    none: z.literal(true).optional().meta({ description: 'No entry applies: the task should have been decided for nobody.' }),
    correctedBy: readableName('correctedBy'),
    reason: words('reason').pipe(z.string().max(2000, 'reason must be at most 2,000 characters')),
    tenant: z.string().optional(),
  })
  .refine((correction) => (correction.entry === undefined) !== (correction.none === undefined), {
    message: 'a correction names exactly one of entry (what it should have been) or none (no entry applies)',
  });

/**
 * A lesson value in words, as its learnable phrases it for a person who has never seen a pattern
 * (§3.6): optional beside every value it describes, a client may ignore it, and no layer but the
 * learnable writes it. One line, no control or direction-changing character, at most 300 characters.
 */
export const SaysSchema = z
  .string()
  .min(1)
  .max(300)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what these words may not hold.
  .regex(/^[^\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*$/, 'one line, without control or direction characters')
  .regex(/\S/, 'not blank');

export const EntryChoiceSchema = z.object({ key: words('an entry key'), label: z.string() });

/** The profile block an agent puts in `metadata[URI]` of an input-required status message. */
export const TeachBlockSchema = z.object({
  collection: words('collection'),
  question: words('question'),
  entries: z.array(EntryChoiceSchema),
  entry: z.string().optional().meta({ description: 'The entry a lesson would extend, when the agent already knows which (e.g. the field it could not map).' }),
  suggested: LessonValueSchema.optional().meta({
    description: 'A prefilled lesson value drawn from this input; never wider than the evidence it came from.',
  }),
  says: SaysSchema.optional().meta({
    description: '`suggested` in words, as the learnable phrases it for a person (§3.6); present only with `suggested`.',
  }),
  version: z.number().int().positive(),
});

/**
 * The data part an extension-aware client answers a question with: the entry it names (one of the
 * question's, or one added to the collection since), or `none: true` when no entry applies.
 */
export const AnswerSchema = z.union([
  z.object({ entry: words('entry'), answeredBy: readableName('answeredBy').optional() }),
  z.object({ none: z.literal(true), answeredBy: readableName('answeredBy').optional() }),
]);

/**
 * One part of an input given to reread, as A2A writes it in JSON: text, raw bytes (base64), a URL
 * or data (v1.0), or a v0.3 file part. Checked before the SDK reads it, so a `null` part or bytes
 * that are not text are refused in a sentence instead of failing inside the SDK.
 */
export const InputPartSchema = z
  .object({
    text: z.string().optional(),
    raw: z.string().optional().meta({ description: 'Bytes, base64-encoded.' }),
    url: z.string().optional(),
    data: z.unknown().optional(),
    file: z.record(z.string(), z.unknown()).optional().meta({ description: 'A v0.3 file part: { bytes | uri, mimeType?, name? }.' }),
    mediaType: z.string().optional(),
    filename: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .loose()
  .refine((part) => ['text', 'raw', 'url', 'data', 'file'].filter((key) => part[key as keyof typeof part] !== undefined).length === 1, {
    message: 'a part carries exactly one of text, raw, url or data',
  });

/** The input reread is given instead of a task id: an A2A Message, of which reread reads the parts. */
export const InputMessageSchema = z.object({ parts: z.array(InputPartSchema).min(1, 'a message needs at least one part') }).loose();

/** Reread's params: a task id (that task's original input) or a message; on JSON-RPC, optionally a tenant. */
export const RereadRequestSchema = z
  .object({ taskId: words('taskId').optional(), message: InputMessageSchema.optional(), tenant: z.string().optional() })
  .refine((request) => (request.taskId === undefined) !== (request.message === undefined), {
    message: 'reread needs exactly one of taskId (the task whose input to read again) or message (the input itself)',
  });

/** A JSON-RPC 2.0 request, as the extension methods take it on the JSON-RPC binding. */
export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0', { error: 'jsonrpc must be "2.0"' }),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: words('method'),
  params: z.object({}).loose().optional(),
});

/** What an agent reads for one thing it decides, under one version. */
export const ReadingSchema = z.object({
  settled: z.boolean(),
  winner: z.string().optional(),
  reads: words('reads'),
  version: z.number().int().positive(),
  contested: z
    .literal(true)
    .optional()
    .meta({ description: "Unsettled because the evidence that would decide it is another entry's too (SPEC §6.5); a client may ignore it." }),
});

/** One thing a completed task decided, in the agent's words, and the collection that decided it. */
export const FindingSchema = z.object({
  settled: z.boolean(),
  winner: z.string().optional().meta({ description: 'The entry that decided it, when one did.' }),
  reads: words('reads'),
  collection: words('collection'),
});

/**
 * `metadata[URI]` of a completed task's status message (SPEC §4.4): which version of each collection
 * decided it, what was decided, and by whom. While the task asks, the same key holds a TeachBlock.
 */
export const OutcomeSchema = z.object({
  versions: z
    .record(z.string(), z.number().int().positive())
    .meta({ description: 'The version of each collection the task was pinned to, and decided with, keyed by collection.' }),
  findings: z.record(z.string(), FindingSchema).meta({ description: 'One finding per thing decided, keyed by the name the agent gives it.' }),
  decidedBy: z
    .enum(['rules', 'operator'])
    .meta({ description: '`rules` when the pinned definitions settled it, `operator` when a person answered the question.' }),
  answeredBy: z.string().optional().meta({ description: 'Who answered, when the answer named them.' }),
  addedIn: z
    .object({ entry: z.string(), version: z.number().int().positive() })
    .optional()
    .meta({ description: 'The answer named an entry added after the pin: that entry and the version it was added in (§2.7).' }),
  none: z.literal(true).optional().meta({ description: 'The operator answered that no entry applies (§2.8).' }),
});

/** A reread answers with one reading per thing decided, keyed by its name (e.g. `customer`). */
export const RereadResultSchema = z.record(z.string(), ReadingSchema);

/** The answer to a retraction: a new version when something was taken back, else the active one. */
export const RetractionOutcomeSchema = z.object({
  collection: z.string(),
  entry: z.string(),
  retracted: z.number().int().positive().meta({ description: 'The version whose lesson was retracted.' }),
  changed: z.boolean(),
  version: z.number().int().positive(),
  audit: z.string().meta({ description: "The learnable's sentence for what was taken back, or why nothing changed." }),
  says: SaysSchema.optional().meta({ description: "The value taken back, in the learnable's words for a person (§3.6)." }),
});

/** The answer to a correction: what the task decided, what it should have been, and whether that is new. */
export const CorrectionOutcomeSchema = z.object({
  taskId: z.string(),
  finding: z.string(),
  decided: z
    .object({ winner: z.string().optional(), none: z.literal(true).optional(), reads: z.string() })
    .meta({ description: 'What the task decided, as its outcome says (never rewritten).' }),
  entry: z.string().optional().meta({ description: 'What it should have been (an entry key when it names one).' }),
  none: z.literal(true).optional(),
  changed: z.boolean().meta({ description: 'false when the task already stood corrected to this, or decided it so: nothing was recorded.' }),
  correctedBy: z.string(),
  reason: z.string(),
  at: z.string().meta({ description: 'When the correction standing now was recorded (ISO 8601).' }),
  corrections: z.number().int().nonnegative().meta({ description: 'How many corrections this finding has had, this one included.' }),
});

/** One day or week of an agent's numbers (SPEC §6.8), by the messages' own dates. */
export const StatsPeriodSchema = z.object({
  period: z.string().meta({ description: 'The first day of the period, YYYY-MM-DD (a week starts on Monday).' }),
  messages: z.number().int().nonnegative(),
  questions: z.number().int().nonnegative().meta({ description: 'Messages on which the agent asked a person.' }),
  questionsPer100: z.number().nonnegative(),
  corrected: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: "Decisions on this period's messages that stand corrected now (§6.7), counted once per task." }),
  correctedUnasked: z.number().int().nonnegative().meta({ description: 'Of those, decisions the agent made without asking.' }),
});

/** What `GET /learnables/stats?by=week|day` answers (SPEC §6.8). */
export const StatsSchema = z.object({
  agent: z.string(),
  by: z.enum(['week', 'day']),
  periods: z.array(StatsPeriodSchema),
  messages: z.number().int().nonnegative(),
  questions: z.number().int().nonnegative(),
  corrected: z.number().int().nonnegative(),
  correctedUnasked: z.number().int().nonnegative(),
});

/** What teach, preview and the authority accept: a lesson, or a new entry. */
export const TeachingSchema = z.union([LessonSchema, NewEntrySchema]);

const PreviewEffectSchema = z.enum(['settles', 'changes', 'unsettles', 'still-open']);

/** One recent task a previewed lesson would affect, with its reading now and with the lesson. */
export const PreviewExampleSchema = z.object({
  taskId: z.string(),
  finding: z.string().meta({ description: 'The name of the thing decided, as in a RereadResult.' }),
  effect: PreviewEffectSchema,
  now: ReadingSchema,
  after: ReadingSchema,
  said: z
    .object({
      by: z.enum(['answer', 'correction']),
      entry: z.string().optional(),
      none: z.literal(true).optional(),
    })
    .optional()
    .meta({ description: 'What a person said this finding is, when one answered its question or corrected it (§6.5): the truth the effect is judged by.' }),
});

/** What preview answers: what a lesson would do to the inputs of recent tasks, nothing written. */
export const PreviewResultSchema = z.object({
  collection: z.string(),
  entry: z.string(),
  changed: z.boolean().meta({ description: 'Whether the lesson would publish a new version at all.' }),
  audit: z.string(),
  says: SaysSchema.optional().meta({ description: "The lesson's value in the learnable's words for a person (§3.6)." }),
  version: z.number().int().positive().meta({ description: 'The live version the candidate was built on.' }),
  examined: z.number().int().nonnegative().meta({ description: 'How many recent tasks were read twice.' }),
  counts: z.object({
    settles: z.number().int().nonnegative(),
    changes: z.number().int().nonnegative(),
    unsettles: z.number().int().nonnegative(),
    stillOpen: z.number().int().nonnegative(),
    against: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .meta({ description: 'Of `changes`, the findings the candidate would settle otherwise than a person answered or corrected them.' }),
    contested: z.number().int().nonnegative().optional().meta({
      description:
        "Of `unsettles`, the findings the candidate leaves open because the lesson shows the evidence that decided them is another entry's too (a reference shape two entries issue), not because the lesson competes for them.",
    }),
  }),
  examples: z.array(PreviewExampleSchema).meta({ description: 'At most 20 per effect.' }),
  recent: z.number().int().nonnegative().optional().meta({ description: "How many recent tasks the preview's window holds (§6.5)." }),
  tried: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .meta({ description: 'How many of them, newest first, were tried before the budget ended; `recent` when every one was.' }),
  tooLarge: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .meta({ description: 'Of those tried, the tasks whose recorded input is larger than one preview reads: not read (and not in `examined`).' }),
  budget: z
    .enum(['time', 'bytes'])
    .optional()
    .meta({ description: "Which of the preview's budgets ended before every recent task was tried; absent when none did." }),
});

/** Why a lesson or request was not taken. `message` is a sentence meant for the person. */
export const RefusalSchema = z.object({
  error: z.enum([
    'unlearnable',
    'malformed',
    'unknown-collection',
    'unknown-entry',
    'unknown-version',
    'unknown-task',
    'not-found',
    'unauthorized',
    'forbidden',
    'too-large',
    'conflict',
    'entry-exists',
    'not-retractable',
    'not-correctable',
    'internal',
    'busy',
  ]),
  message: words('message'),
  field: z.string().optional(),
  known: z.array(z.string()).optional(),
});

/** The authority's answer to an accepted lesson. */
export const LessonOutcomeSchema = z.object({
  collection: z.string(),
  entry: z.string(),
  changed: z.boolean(),
  version: z.number().int().positive(),
  audit: z.string(),
  says: SaysSchema.optional().meta({ description: "The lesson's value in the learnable's words for a person (§3.6)." }),
});

export type LessonField = z.infer<typeof LessonFieldSchema>;
export type Declaration = z.infer<typeof DeclarationSchema>;
export type ExtensionEntry = z.infer<typeof ExtensionEntrySchema>;
export type LessonValue = z.infer<typeof LessonValueSchema>;
export type Lesson = z.infer<typeof LessonSchema>;
export type EntryChoice = z.infer<typeof EntryChoiceSchema>;
export type TeachBlock = z.infer<typeof TeachBlockSchema>;
export type Reading = z.infer<typeof ReadingSchema>;
export type FindingData = z.infer<typeof FindingSchema>;
export type OutcomeData = z.infer<typeof OutcomeSchema>;
export type RereadResult = z.infer<typeof RereadResultSchema>;
export type Refusal = z.infer<typeof RefusalSchema>;
export type LessonOutcome = z.infer<typeof LessonOutcomeSchema>;
export type AnswerData = z.infer<typeof AnswerSchema>;
export type NewEntry = z.infer<typeof NewEntrySchema>;
export type Retraction = z.infer<typeof RetractionSchema>;
export type RetractionOutcome = z.infer<typeof RetractionOutcomeSchema>;
export type Correction = z.infer<typeof CorrectionSchema>;
export type CorrectionOutcome = z.infer<typeof CorrectionOutcomeSchema>;
export type StatsPeriod = z.infer<typeof StatsPeriodSchema>;
export type Stats = z.infer<typeof StatsSchema>;
export type Teaching = z.infer<typeof TeachingSchema>;
export type PreviewExample = z.infer<typeof PreviewExampleSchema>;
export type PreviewResult = z.infer<typeof PreviewResultSchema>;
export type RereadRequest = z.infer<typeof RereadRequestSchema>;
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;
