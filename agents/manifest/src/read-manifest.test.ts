import { describe, expect, it } from 'vitest';
import { ColumnMapping } from './column-mapping.ts';
import { FIELDS, expected, fixture, goodFiles, questionOf, resultOf, seedDefinition, teach } from './fixtures.test-support.ts';
import { mapColumns } from './map-columns.ts';
import { manifestFindings, readManifest } from './read-manifest.ts';
import { readSheet } from './read-sheet.ts';
import type { SheetInput } from './sheet-input.ts';

const seed = seedDefinition();
const read = (file: string): Promise<SheetInput> => readSheet(fixture(file), file);

describe('readManifest on every good fixture, under the seed', () => {
  it.each(goodFiles)('%s maps the columns the answer key gives, and asks only when it says so', async (file) => {
    const key = expected[file];
    const reading = readManifest(await read(file), seed.entries);
    if (key?.asks) {
      expect(questionOf(reading).entry).toBe(key.asks);
      for (const field of FIELDS) expect(reading.findings[field]?.settled).toBe(field !== key.asks);
      return;
    }
    const result = resultOf(reading);
    expect(result.columns).toEqual(key?.columns);
    expect(result.rowCount).toBe(key?.rows);
    expect(result.rows.map((row) => row.waybill)).toEqual(key?.waybills);
  });

  it.each(goodFiles)('%s: each finding says which column it reads, or that there is none', async (file) => {
    const reading = readManifest(await read(file), seed.entries);
    for (const field of FIELDS) {
      const heading = expected[file]?.columns[field];
      const reads = reading.findings[field]?.reads;
      expect(reads?.startsWith(heading ? `reads ${field} from the '${heading.trim()}' column` : `no column for ${field}`), reads).toBe(true);
      expect(reading.findings[field]?.collection).toBe('mappings');
    }
  });
});

describe('readManifest and duplicate headings', () => {
  it('reads the first of the columns headed alike, and says so in the finding and in the notes', async () => {
    const reading = readManifest(await read('12-duplicate-headings.xlsx'), seed.entries);
    expect(reading.findings.weight?.reads).toBe(
      "reads weight from the 'Weight' column, the first of 2 columns so headed; 5 of 5 values in 'Weight' are weights (a number, with or without kg or lb)",
    );
    expect(resultOf(reading).notes).toEqual([
      "Columns B and I have the same heading, 'Consignee' (ignoring case and spaces); consignee is read from B, the first.",
      "Columns F and G have the same heading, 'Weight' (ignoring case and spaces); weight is read from F, the first.",
    ]);
  });
});

describe('readManifest on a sheet it keeps only part of', () => {
  it('notes that only the first rows are listed, and counts them all', async () => {
    const sheet = await readSheet(fixture('01-basic.xlsx'), '01-basic.xlsx', undefined, { maxRows: 4 });
    const result = resultOf(readManifest(sheet, seed.entries));
    expect([result.rows.length, result.rowCount, result.truncated]).toEqual([4, 10, true]);
    expect(result.notes).toEqual(['The sheet has 10 rows; the first 4 are listed here.']);
  });
});

describe('the question', () => {
  it('asks for the field by its label, offers the unplaced headings and suggests the one that is the waybill', async () => {
    expect(questionOf(readManifest(await read('08-air-waybill-no.xlsx'), seed.entries))).toEqual({
      collection: 'mappings',
      question:
        "Which column holds the waybill number? None of the headings in '08-air-waybill-no.xlsx' is one I know for it; the column I could not place is 'Air Waybill No'.",
      entries: [{ key: 'Air Waybill No', label: 'Air Waybill No' }],
      entry: 'waybill',
      suggested: { column: 'Air Waybill No' },
    });
  });

  it('names every unplaced heading in the question, and suggests the waybill among them', async () => {
    const question = questionOf(readManifest(await read('09-air-waybill-no-second.xlsx'), seed.entries));
    expect(question.question).toContain("the columns I could not place are 'Air Waybill No' and 'Remarks'.");
    expect(question.entries).toEqual([
      { key: 'Air Waybill No', label: 'Air Waybill No' },
      { key: 'Remarks', label: 'Remarks' },
    ]);
    expect(question.suggested).toEqual({ column: 'Air Waybill No' });
  });

  it('suggests a value the learnable takes, no wider than this sheet: it maps one column, the one suggested', async () => {
    for (const file of ['08-air-waybill-no.xlsx', '09-air-waybill-no-second.xlsx']) {
      const sheet = await read(file);
      const { suggested } = questionOf(readManifest(sheet, seed.entries));
      expect(Object.keys(suggested ?? {})).toEqual(['column']);
      const field = seed.entries.find((mapping) => mapping.key === 'waybill');
      const learned = field?.learn(field.readValue(suggested ?? {}));
      expect(learned?.changed).toBe(true);
      const taughtOnly = new ColumnMapping('waybill', 'Waybill number', (learned!.next as ColumnMapping).columns.slice(-1), true);
      expect(mapColumns(sheet.headings, [taughtOnly]).waybill).toEqual({ index: 0, heading: 'Air Waybill No' });
      expect(sheet.headings.filter((heading) => heading.trim().toLowerCase() === 'air waybill no')).toHaveLength(1);
    }
  });

  it('offers every heading when every column is already read by some field', () => {
    const sheet: SheetInput = {
      filename: 'm.csv',
      format: 'csv',
      sheet: null,
      headings: ['Consignee', 'Weight'],
      headerRow: 1,
      rows: [['Acme', '12']],
      rowCount: 1,
      truncated: false,
    };
    const question = questionOf(readManifest(sheet, seed.entries));
    expect(question.question).toBe("Which column holds the waybill number? None of the headings in 'm.csv' is one I know for it.");
    // Both headings belong to other fields: a lesson of either would be refused (SPEC §2.3.1), so none is suggested.
    expect(question.suggested).toBeUndefined();
    expect(question.entries.map((entry) => entry.key)).toEqual(['Consignee', 'Weight']);
  });
});

describe('a lesson, through absorbLesson', () => {
  it("lets 09 settle without asking: reads waybill from the 'Air Waybill No' column", async () => {
    const { definition, audit } = teach(seed, 'waybill', 'Air Waybill No');
    expect(audit).toBe("reads waybill from the 'Air Waybill No' column");
    const reading = readManifest(await read('09-air-waybill-no-second.xlsx'), definition.entries);
    expect(reading.findings.waybill?.reads).toBe(
      "reads waybill from the 'Air Waybill No' column; 7 of 7 values in 'Air Waybill No' are air waybill numbers with a valid check digit",
    );
    const result = resultOf(reading);
    const afterLesson = expected['09-air-waybill-no-second.xlsx']?.afterLesson as { readonly asks: null; readonly waybill: string };
    expect(result.columns.waybill).toBe(afterLesson.waybill);
    expect(result.rows.map((row) => row.waybill)).toEqual(expected['09-air-waybill-no-second.xlsx']?.waybills);
  });
});

describe('manifestFindings, what preview decides recent sheets by', () => {
  it.each(goodFiles)('%s: exactly the findings readManifest gives, under the seed and after a lesson', async (file) => {
    const input = await read(file);
    expect(manifestFindings(input, seed.entries)).toEqual(readManifest(input, seed.entries).findings);
    // Each heading taught as the weight's, where the learnable takes it: a column moves, or a form check fails.
    for (const heading of input.headings.slice(0, 4)) {
      let taught: ReturnType<typeof teach>['definition'];
      try {
        taught = teach(seed, 'weight', heading).definition;
      } catch {
        continue;
      }
      expect(manifestFindings(input, taught.entries), heading).toEqual(readManifest(input, taught.entries).findings);
    }
  });
});
