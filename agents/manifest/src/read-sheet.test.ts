import { describe, expect, it } from 'vitest';
import { FIELDS, badFiles, expected, fixture, goodFiles, refusalOf } from './fixtures.test-support.ts';
import { readSheet } from './read-sheet.ts';
import type { SheetInput } from './sheet-input.ts';

const read = (file: string): Promise<SheetInput> => readSheet(fixture(file), file);

describe('readSheet on the good fixtures', () => {
  it.each(goodFiles)('%s: finds the header row and counts the data rows the answer key says', async (file) => {
    const sheet = await read(file);
    expect(sheet.headerRow).toBe(expected[file]?.headerRow);
    expect(sheet.rowCount).toBe(expected[file]?.rows);
    expect(sheet.rows).toHaveLength(sheet.rowCount);
    expect(sheet.truncated).toBe(false);
    expect(sheet.format).toBe(expected[file]?.format);
  });

  it.each(goodFiles)('%s: keeps each heading exactly as the sheet shows it, in its column', async (file) => {
    const sheet = await read(file);
    const key = expected[file];
    for (const field of FIELDS) {
      const at = key?.columnIndexes[field];
      if (at !== null && at !== undefined) expect(sheet.headings[at - 1]).toBe(key?.columns[field]);
    }
    for (const heading of Object.values(key?.unmapped ?? {})) expect(sheet.headings).toContain(heading);
  });

  it.each(goodFiles)("%s: the first data row holds the answer key's values, as stored", async (file) => {
    const sheet = await read(file);
    const key = expected[file];
    const first = sheet.rows[0] ?? [];
    for (const [field, value] of Object.entries(key?.firstRow ?? {})) {
      const heading = key?.columns[field as keyof typeof key.columns] ?? key?.unmapped[field as keyof typeof key.unmapped];
      expect(first[sheet.headings.indexOf(heading ?? '')], field).toEqual(value);
    }
  });

  it('gives every row exactly as many cells as there are headings', async () => {
    for (const file of goodFiles) {
      const sheet = await read(file);
      for (const row of sheet.rows) expect(row).toHaveLength(sheet.headings.length);
    }
  });

  it('is plain JSON, so the journal gives back exactly what was read', async () => {
    const sheet = await read('04-excel-types.xlsx');
    expect(JSON.parse(JSON.stringify(sheet))).toEqual(sheet);
  });
});

describe('readSheet refuses what it cannot read, in a sentence', () => {
  const sentences: Record<string, RegExp> = {
    '13-empty-sheet.xlsx': /^The first sheet of '13-empty-sheet\.xlsx' is empty; there is no manifest on it to read\.$/,
    '14-truncated.xlsx': /^'14-truncated\.xlsx' is incomplete: .*cut short\. Send the whole file again\.$/,
    '15-not-a-spreadsheet.xlsx':
      /^'15-not-a-spreadsheet\.xlsx' is not a spreadsheet: it is a PNG image\. Please send the manifest as an Excel workbook \(\.xlsx\) or a CSV file\.$/,
    '16-plain-text.xlsx': /^'16-plain-text\.xlsx' is not a spreadsheet: it is plain text, not an Excel workbook\./,
    '17-zip-bomb.xlsx': /^'17-zip-bomb\.xlsx' unpacks to 269 MB, more than the 100 MB limit for one manifest; /,
    '18-encrypted.xlsx': /^This workbook is password-protected; save it without a password and send it again\.$/,
  };

  it('has a sentence for every bad fixture', () => {
    expect(Object.keys(sentences).sort()).toEqual([...badFiles].sort());
  });

  it.each(Object.entries(sentences))('%s', async (file, sentence) => {
    expect(await refusalOf(read(file))).toMatch(sentence);
  });
});
