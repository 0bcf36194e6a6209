import type { Answer, Question, Reading } from '@learnables/runtime';
import type { ColumnMapping, MappingLesson } from './column-mapping.ts';
import { sameHeading } from './column-mapping.ts';
import type { ManifestResult } from './manifest-result.ts';
import { readManifest } from './read-manifest.ts';
import { sentences } from './reading-sentences.ts';
import type { SheetInput } from './sheet-input.ts';

/**
 * Finish a question with the heading the operator named: that column is read for the field the
 * question was about, for this sheet only. Nothing is learned; only a lesson changes the
 * definition. A heading the sheet does not have (the runtime should not let one through) gets
 * the question again, saying so. Pure.
 */
export function answerManifest(
  input: SheetInput,
  mappings: readonly ColumnMapping[],
  question: Question<MappingLesson>,
  answer: Answer,
): Reading<ManifestResult, MappingLesson> {
  const field = mappings.find((mapping) => mapping.key === question.entry);
  const index = input.headings.findIndex((heading) => heading.trim() !== '' && sameHeading(heading, answer.entry));
  const heading = input.headings[index];
  if (field === undefined || heading === undefined) {
    const again = readManifest(input, mappings);
    if (again.settled) return again;
    return { ...again, question: { ...again.question, question: `${sentences.noSuchColumn(answer.entry)} ${again.question.question}` } };
  }
  return readManifest(input, mappings, new Map([[field.key, { index, heading }]]));
}
