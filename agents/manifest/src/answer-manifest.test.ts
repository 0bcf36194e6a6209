import { describe, expect, it } from 'vitest';
import { answerManifest } from './answer-manifest.ts';
import { expected, fixture, questionOf, resultOf, seedDefinition } from './fixtures.test-support.ts';
import { readManifest } from './read-manifest.ts';
import { readSheet } from './read-sheet.ts';

const seed = seedDefinition();

async function answerOn(file: string, entry: string) {
  const sheet = await readSheet(fixture(file), file);
  return answerManifest(sheet, seed.entries, questionOf(readManifest(sheet, seed.entries)), { entry });
}

describe('answerManifest', () => {
  it("reads the named column for this sheet: reads waybill from the 'Air Waybill No' column, as the operator answered", async () => {
    const reading = await answerOn('08-air-waybill-no.xlsx', 'Air Waybill No');
    expect(reading.findings.waybill).toEqual({
      settled: true,
      reads:
        "reads waybill from the 'Air Waybill No' column, as the operator answered; 6 of 6 values in 'Air Waybill No' are air waybill numbers with a valid check digit",
      collection: 'mappings',
    });
    const result = resultOf(reading);
    expect(result.columns.waybill).toBe('Air Waybill No');
    expect(result.rows.map((row) => row.waybill)).toEqual(expected['08-air-waybill-no.xlsx']?.waybills);
  });

  it('leaves every other field as the definition reads it', async () => {
    const reading = await answerOn('09-air-waybill-no-second.xlsx', 'Air Waybill No');
    expect(resultOf(reading).columns).toEqual({ ...expected['09-air-waybill-no-second.xlsx']?.columns, waybill: 'Air Waybill No' });
    expect(reading.findings.consignee?.reads).toBe("reads consignee from the 'Receiver' column");
  });

  it('takes the heading however the operator cased or spaced it', async () => {
    expect(resultOf(await answerOn('09-air-waybill-no-second.xlsx', ' air waybill NO')).columns.waybill).toBe('Air Waybill No');
  });

  it('teaches nothing: the definition is as it was, and the next manifest with the same heading still asks', async () => {
    await answerOn('08-air-waybill-no.xlsx', 'Air Waybill No');
    expect(seed.entries.find((field) => field.key === 'waybill')?.columns).not.toContain('Air Waybill No');
    const next = await readSheet(fixture('09-air-waybill-no-second.xlsx'), '09.xlsx');
    expect(questionOf(readManifest(next, seed.entries)).entry).toBe('waybill');
  });

  it('asks again, saying so, when the named heading is not in the sheet', async () => {
    const question = questionOf(await answerOn('08-air-waybill-no.xlsx', 'Tracking'));
    expect(question.question).toMatch(/^There is no column headed 'Tracking' in this sheet\. Which column holds the waybill number\?/);
    expect(question.entry).toBe('waybill');
  });
});
