import { z } from 'zod';

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
export const MethodNamesSchema = z.object({ jsonrpc: words('a JSON-RPC method name'), rest: words('a REST path') });

/** The declaration an agent publishes in its card, as the `params` of the extension entry. */
export const DeclarationSchema = z.object({
  collection: words('collection'),
  entry: words('entry'),
  teaches: words('teaches'),
  how: words('how').meta({ description: 'A true sentence saying how the agent decides today.' }),
  decidedBy: z.enum(['rules', 'model', 'hybrid']),
  lessonFields: z.array(LessonFieldSchema).min(1, 'a declaration needs at least one lesson field'),
  methods: z
    .object({ reread: MethodNamesSchema, teach: MethodNamesSchema.optional() })
    .meta({ description: 'Where the extension methods are served: reread always, teach when the agent offers it.' }),
});

/** The card entry itself: `required` is always false, so clients that ignore it lose nothing. */
export const ExtensionEntrySchema = z.object({
  uri: z.string(),
  description: z.string().optional(),
  required: z.literal(false),
  params: DeclarationSchema,
});

/**
 * A lesson's value: an open object that only the learnable owning the entry reads.
 * Validation here checks the shape and passes the very same object on, untouched and uncopied,
 * so no layer between the client and the learnable can come to depend on a named key.
 */
export const LessonValueSchema = z
  .custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'value must be an object',
  )
  .meta({ description: 'Opaque to every layer but the learnable that owns the entry.' });

export const LessonSchema = z.object({
  collection: words('collection'),
  entry: words('entry'),
  value: LessonValueSchema,
  taughtBy: words('taughtBy'),
  reason: words('reason'),
});

export const EntryChoiceSchema = z.object({ key: words('an entry key'), label: z.string() });

/** The profile block an agent puts in `metadata[URI]` of an input-required status message. */
export const TeachBlockSchema = z.object({
  collection: words('collection'),
  question: words('question'),
  entries: z.array(EntryChoiceSchema),
  entry: z
    .string()
    .optional()
    .meta({ description: 'The entry a lesson would extend, when the agent already knows which (e.g. the field it could not map).' }),
  suggested: LessonValueSchema.optional().meta({
    description: 'A prefilled lesson value drawn from this input; never wider than the evidence it came from.',
  }),
  version: z.number().int().positive(),
});

/** What an agent reads for one thing it decides, under one version. */
export const ReadingSchema = z.object({
  settled: z.boolean(),
  winner: z.string().optional(),
  reads: words('reads'),
  version: z.number().int().positive(),
});

/** A reread answers with one reading per thing decided, keyed by its name (e.g. `customer`). */
export const RereadResultSchema = z.record(z.string(), ReadingSchema);

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
    'internal',
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
});

export type LessonField = z.infer<typeof LessonFieldSchema>;
export type Declaration = z.infer<typeof DeclarationSchema>;
export type ExtensionEntry = z.infer<typeof ExtensionEntrySchema>;
export type LessonValue = z.infer<typeof LessonValueSchema>;
export type Lesson = z.infer<typeof LessonSchema>;
export type EntryChoice = z.infer<typeof EntryChoiceSchema>;
export type TeachBlock = z.infer<typeof TeachBlockSchema>;
export type Reading = z.infer<typeof ReadingSchema>;
export type RereadResult = z.infer<typeof RereadResultSchema>;
export type Refusal = z.infer<typeof RefusalSchema>;
export type LessonOutcome = z.infer<typeof LessonOutcomeSchema>;
