export { LEARNABLES_URI, EXTENSIONS_HEADER, LEARNABLES_METHODS } from './uri.ts';
export {
  LessonFieldSchema,
  MethodNamesSchema,
  DeclarationSchema,
  ExtensionEntrySchema,
  LessonValueSchema,
  MAX_LESSON_DEPTH,
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
  InputPartSchema,
  InputMessageSchema,
  RereadRequestSchema,
  JsonRpcRequestSchema,
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
  RereadRequest,
  JsonRpcRequest,
} from './schemas.ts';
export { fieldsToRender, prefillFields } from './render-fields.ts';
export type { FieldToRender } from './render-fields.ts';
export { explainInvalid } from './explain.ts';
export { jsonSchemas } from './json-schemas.ts';
export { unreadableIn } from './readable-name.ts';
