import { readCsv } from './read-csv.ts';
import { readXlsx } from './read-xlsx.ts';
import type { ReadLimits, SheetInput } from './sheet-input.ts';
import { DEFAULT_LIMITS } from './sheet-input.ts';
import { sniffFormat } from './sniff-format.ts';

/**
 * A manifest file as the agent's input: the first sheet of an .xlsx workbook (streamed) or a
 * CSV file, its header row found, at most `limits.maxRows` data rows kept and all of them
 * counted. Anything it cannot read is refused with `InputRefused`, in a sentence for the sender.
 */
export async function readSheet(bytes: Uint8Array, filename?: string, mediaType?: string, limits: Partial<ReadLimits> = {}): Promise<SheetInput> {
  const within = { ...DEFAULT_LIMITS, ...limits };
  return sniffFormat(bytes, filename, mediaType) === 'xlsx' ? readXlsx(bytes, filename, within) : readCsv(bytes, filename, within);
}
