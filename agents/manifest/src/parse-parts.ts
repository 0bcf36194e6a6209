// From @learnables/learnable, not the runtime: the runtime's parse threads load this module and
// what it imports, and nothing more (see LearnableAgent.parseModule).
import type { InputPart } from '@learnables/learnable';
import { readSheet } from './read-sheet.ts';
import { refuse } from './refusals.ts';
import type { ReadLimits, SheetInput } from './sheet-input.ts';
import { isSheetFile } from './sniff-format.ts';

type FilePart = Extract<InputPart, { kind: 'file' }>;

/** No extension and no telling media type: only the bytes can say what the file is. */
const isUntold = (part: FilePart): boolean =>
  !/\.[a-z0-9]+$/i.test(part.filename ?? '') && (part.mediaType === undefined || part.mediaType === 'application/octet-stream');

/**
 * The manifest in a message: the first file part named or typed as a spreadsheet (.xlsx, .csv),
 * else the first file that gives no name or type to go by. Text and data parts are passed over.
 */
export async function parseManifest(parts: readonly InputPart[], limits: Partial<ReadLimits> = {}): Promise<SheetInput> {
  const files = parts.filter((part): part is FilePart => part.kind === 'file');
  const first = files[0];
  if (first === undefined) throw refuse.noFile();
  const file = files.find((part) => isSheetFile(part.filename, part.mediaType)) ?? files.find(isUntold);
  if (file === undefined) throw refuse.notASheetFile(first.filename, first.mediaType);
  return readSheet(file.bytes, file.filename, file.mediaType, limits);
}
