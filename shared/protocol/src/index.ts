export { LEARNABLES_URI, EXTENSIONS_HEADER, LEARNABLES_METHODS } from './uri.ts';
export {
  LessonFieldSchema,
  MethodNamesSchema,
  DeclarationSchema,
  ExtensionEntrySchema,
  LessonValueSchema,
  LessonSchema,
  EntryChoiceSchema,
  TeachBlockSchema,
  ReadingSchema,
  RereadResultSchema,
  RefusalSchema,
  LessonOutcomeSchema,
  NewEntrySchema,
  AnswerSchema,
  RetractionSchema,
  RetractionOutcomeSchema,
  TeachingSchema,
  PreviewExampleSchema,
  PreviewResultSchema,
} from './schemas.ts';
export type {
  LessonField,
  Declaration,
  ExtensionEntry,
  LessonValue,
  Lesson,
  EntryChoice,
  TeachBlock,
  Reading,
  RereadResult,
  Refusal,
  LessonOutcome,
  NewEntry,
  AnswerData,
  Retraction,
  RetractionOutcome,
  Teaching,
  PreviewExample,
  PreviewResult,
} from './schemas.ts';
export { fieldsToRender, prefillFields } from './render-fields.ts';
export type { FieldToRender } from './render-fields.ts';
export { explainInvalid } from './explain.ts';
export { jsonSchemas } from './json-schemas.ts';
