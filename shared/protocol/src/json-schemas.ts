import { z } from 'zod';
import {
  DeclarationSchema,
  ExtensionEntrySchema,
  LessonFieldSchema,
  LessonOutcomeSchema,
  LessonSchema,
  ReadingSchema,
  OutcomeSchema,
  RefusalSchema,
  RereadRequestSchema,
  RereadResultSchema,
  TeachBlockSchema,
  NewEntrySchema,
  AnswerSchema,
  RetractionSchema,
  RetractionOutcomeSchema,
  CorrectionSchema,
  CorrectionOutcomeSchema,
  StatsSchema,
  PreviewResultSchema,
} from './schemas.ts';

const published = {
  declaration: DeclarationSchema,
  'extension-entry': ExtensionEntrySchema,
  'lesson-field': LessonFieldSchema,
  'teach-block': TeachBlockSchema,
  lesson: LessonSchema,
  'lesson-outcome': LessonOutcomeSchema,
  reading: ReadingSchema,
  'reread-request': RereadRequestSchema,
  'reread-result': RereadResultSchema,
  outcome: OutcomeSchema,
  refusal: RefusalSchema,
  'new-entry': NewEntrySchema,
  answer: AnswerSchema,
  retraction: RetractionSchema,
  'retraction-outcome': RetractionOutcomeSchema,
  correction: CorrectionSchema,
  'correction-outcome': CorrectionOutcomeSchema,
  stats: StatsSchema,
  'preview-result': PreviewResultSchema,
} as const;

/**
 * The JSON Schemas published in `schemas/`, one per file name, generated from the zod schemas
 * so the two can never say different things. The opaque lesson value has no zod-level shape,
 * so it is published as what it is: any JSON object.
 */
export function jsonSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(published)) {
    out[name] = {
      $id: `https://rsaxb.com/a2a/learnables/v1/${name}.json`,
      ...z.toJSONSchema(schema, {
        target: 'draft-2020-12',
        io: 'input',
        unrepresentable: 'any',
        override: (ctx) => {
          const meta = z.globalRegistry.get(ctx.zodSchema);
          if (ctx.zodSchema._zod.def.type === 'custom') {
            ctx.jsonSchema.type = 'object';
            if (meta?.description) ctx.jsonSchema.description = meta.description;
          }
        },
      }),
    };
  }
  return out;
}
