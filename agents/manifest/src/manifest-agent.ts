import type { LearnableAgent } from '@learnables/runtime';
import { answerManifest } from './answer-manifest.ts';
import type { ColumnMapping } from './column-mapping.ts';
import { columnMappingKind } from './column-mapping.ts';
import type { ManifestResult } from './manifest-result.ts';
import { parseManifest } from './parse-parts.ts';
import { COLLECTION, manifestFindings, readManifest } from './read-manifest.ts';
import type { ReadLimits, SheetInput } from './sheet-input.ts';
import { XLSX_MEDIA_TYPE } from './sniff-format.ts';
import { dateInFileName } from './file-date.ts';

/** The card's promise. `manifest-agent.test.ts` holds the code to every clause of it. */
export const HOW =
  'Each field carries the column headings it has been seen under, some only for files named like a pattern (those come first); headings match case-insensitively after trimming, the first matching column wins, a column where most values do not have the field’s form (an air waybill number with a valid check digit, a weight, a whole number of pieces) is not read for it unless taught for files named like this one, and a field whose headings match no column comes back empty — if that field is required, I ask which column holds it.';

export interface ManifestAgentOptions {
  /** How many rows to keep and how far a workbook may unpack; see `DEFAULT_LIMITS`. */
  readonly limits?: Partial<ReadLimits>;
}

export function createManifestAgent(options: ManifestAgentOptions = {}): LearnableAgent<SheetInput, ManifestResult, ColumnMapping> {
  return {
    name: 'Manifest agent',
    description:
      'Reads shipping manifests (.xlsx or .csv) and hands back their shipments field by field. When it cannot tell which column holds a required field it asks, and it learns column headings from lessons.',
    version: '0.1.0',
    skill: {
      id: 'read-manifest',
      name: 'Read a shipping manifest',
      description:
        'Finds the header row of the first sheet and reads waybill, consignee, origin, destination, pieces, weight (with its unit) and description from the columns whose headings it knows.',
      examples: ["Here is tonight's export manifest.", 'Read the attached consolidation manifest (CSV).'],
      inputModes: [XLSX_MEDIA_TYPE, 'text/csv'],
    },
    declaration: {
      collection: COLLECTION,
      entry: 'field',
      teaches: 'which column of a manifest holds which field',
      how: HOW,
      decidedBy: 'rules',
      // A fork may add a field to read; every question names a column, and a required field needs one.
      addsEntries: true,
      admitsNone: false,
      lessonFields: [
        { name: 'column', label: 'Column heading', kind: 'text', help: "Exactly as it appears in the sheet's header row." },
        {
          name: 'files',
          label: 'Only for files named like',
          kind: 'text',
          help: 'Leave blank for every sheet. To teach this heading for one sender’s sheets only, give their file name with # for each number, e.g. #-#-#-shb-manifest-#.xlsx.',
        },
      ],
    },
    kinds: [columnMappingKind],
    // An .xlsx travels base64-encoded in JSON, a third larger than on disk.
    bodyLimit: '40mb',
    parse: (parts) => parseManifest(parts, options.limits),
    // The same, in the runtime's parse threads: a wide workbook takes exceljs seconds.
    parseModule: { url: new URL('./parse-parts.ts', import.meta.url), name: 'parseManifest', options: options.limits },
    read: (input, pinned) => readManifest(input, pinned.of(columnMappingKind).entries),
    // Preview decides recent sheets by their findings alone: the sheet itself is the evidence (its
    // headings, and the rows the form check reads), and no result or question is built for it.
    decider: {
      evidence: (input: SheetInput) => input,
      sizeOf: (input: SheetInput) => sizeOfSheet(input),
      findings: (input: SheetInput, pinned) => manifestFindings(input, pinned.of(columnMappingKind).entries),
    },
    answer: (input, pinned, question, answer) => answerManifest(input, pinned.of(columnMappingKind).entries, question, answer),
    dateOf: (input) => dateInFileName(input.filename),
    summarize: (input) => ({ filename: input.filename, headings: input.headings, firstRows: input.rows.slice(0, 3) }),
  };
}

export const manifestAgent = createManifestAgent();

/** About how many bytes a sheet holds in memory: its cells' characters twice (UTF-16), and a slot each. */
function sizeOfSheet(input: SheetInput): number {
  let bytes = input.filename.length * 2;
  for (const heading of input.headings) bytes += heading.length * 2 + 16;
  for (const row of input.rows) for (const cell of row) bytes += (typeof cell === 'string' ? cell.length * 2 : 8) + 16;
  return bytes;
}
