import type { Definition } from '@learnables/learnable';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import { DeclarationSchema } from '@learnables/protocol';
import type { Reading } from '@learnables/runtime';
import { pinDefinitions } from '@learnables/runtime';
import { describe, expect, it } from 'vitest';
import { ColumnMapping, columnMappingKind } from './column-mapping.ts';
import type { MappingLesson } from './column-mapping.ts';
import { expected, fixture, pinned, questionOf, resultOf, seedDefinition, teach } from './fixtures.test-support.ts';
import { HOW, createManifestAgent, manifestAgent } from './manifest-agent.ts';
import type { ManifestResult } from './manifest-result.ts';
import { readSheet } from './read-sheet.ts';
import type { SheetInput } from './sheet-input.ts';
import { XLSX_MEDIA_TYPE } from './sniff-format.ts';

const seed = seedDefinition();
const read = (file: string): Promise<SheetInput> => readSheet(fixture(file), file);

async function readUnder(file: string, definition: Definition<ColumnMapping> = seed, version = 1): Promise<Reading<ManifestResult, MappingLesson>> {
  return manifestAgent.read(await read(file), pinned(definition, version));
}

describe('the card', () => {
  it('declares the mappings collection, one field per entry, decided by rules, taught by a column heading', () => {
    const { declaration } = manifestAgent;
    expect(DeclarationSchema.omit({ methods: true }).parse(declaration)).toEqual(declaration);
    expect(declaration).toEqual({
      collection: 'mappings',
      entry: 'field',
      teaches: 'which column of a manifest holds which field',
      how: HOW,
      decidedBy: 'rules',
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
    });
    expect(manifestAgent.kinds).toEqual([columnMappingKind]);
  });

  it('says it takes .xlsx and CSV', () => {
    expect(manifestAgent.skill.inputModes).toEqual([XLSX_MEDIA_TYPE, 'text/csv']);
  });
});

describe(`how: "${HOW}"`, () => {
  it('is one sentence', () => {
    expect(HOW.match(/[.!?](\s|$)/g)).toHaveLength(1);
  });

  it('"Each field carries the column headings it has been seen under": a heading it has learned maps, one it has not does not', async () => {
    expect(HOW).toContain('Each field carries the column headings it has been seen under, some only for files named like a pattern (those come first)');
    expect(questionOf(await readUnder('08-air-waybill-no.xlsx')).entry).toBe('waybill');
    const taught = teach(seed, 'waybill', 'Air Waybill No').definition;
    expect(resultOf(await readUnder('08-air-waybill-no.xlsx', taught, 2)).columns.waybill).toBe('Air Waybill No');
  });

  it('"headings match case-insensitively after trimming": "  AWB ", "CONSIGNEE" and "origin" all map', async () => {
    expect(HOW).toContain('headings match case-insensitively after trimming');
    const { columns } = resultOf(await readUnder('05-weight-in-cell.xlsx'));
    expect(columns).toMatchObject({ waybill: '  AWB ', consignee: 'CONSIGNEE', origin: 'origin' });
  });

  it('"the first matching column wins": of Weight (F) and WEIGHT (G), F is read', async () => {
    expect(HOW).toContain('the first matching column wins');
    const sheet = await read('12-duplicate-headings.xlsx');
    const result = resultOf(manifestAgent.read(sheet, pinned(seed)));
    const f = sheet.headings.indexOf('Weight');
    const g = sheet.headings.indexOf('WEIGHT');
    expect([f, g]).toEqual([5, 6]);
    expect(result.rows.map((row) => row.weight?.value)).toEqual(sheet.rows.map((row) => row[f]));
    expect(result.rows.map((row) => row.weight?.value)).not.toEqual(sheet.rows.map((row) => row[g]));
  });

  it('"a column where most values do not have the field’s form … is not read for it": a learned Ref of purchase orders is passed over', async () => {
    expect(HOW).toContain(
      'a column where most values do not have the field’s form (an air waybill number with a valid check digit, a weight, a whole number of pieces) is not read for it',
    );
    const taught = teach(seed, 'waybill', 'Ref').definition;
    const sheet = await readSheet(new TextEncoder().encode('Ref,AWB,Weight\nPO-4471,176-12345675,fragile\nPO-4472,176-22345676,keep dry\n'), 'b.csv');
    const reading = manifestAgent.read(sheet, pinned(taught, 2));
    expect(questionOf(reading)).toMatchObject({ entry: 'waybill', suggested: { column: 'AWB' } });
    expect(reading.findings.weight?.reads).toMatch(/^does not read weight from the 'Weight' column/);
  });

  it('"some only for files named like a pattern (those come first)" and "unless taught for files named like this one"', async () => {
    expect(HOW).toContain('some only for files named like a pattern (those come first)');
    expect(HOW).toContain('is not read for it unless taught for files named like this one');
    const csv = (name: string, text: string) => readSheet(new TextEncoder().encode(text), name);
    const scoped = absorbLesson(seed, {
      collection: 'mappings',
      entry: 'waybill',
      value: { column: 'Job', files: '#-nfp-#.csv' },
      taughtBy: 'dana',
      reason: 'their job numbers',
    }).definition;
    // Scoped first: left of AWB, and its values (the desk's own numbers) are no air waybills, yet it is read in its files.
    const theirs = manifestAgent.read(await csv('7-nfp-8.csv', 'Job,AWB\nNFP1234567,176-12345675\n'), pinned(scoped, 2));
    expect(resultOf(theirs).columns.waybill).toBe('Job');
    const others = manifestAgent.read(await csv('7-sky-8.csv', 'Job,AWB\nNFP1234567,176-12345675\n'), pinned(scoped, 2));
    expect(resultOf(others).columns.waybill).toBe('AWB');
  });

  it('"a field whose headings match no column comes back empty": in every row, and it says so', async () => {
    expect(HOW).toContain('a field whose headings match no column comes back empty');
    const reading = await readUnder('11-other-vocabulary.xlsx');
    const result = resultOf(reading);
    expect(result.columns.consignee).toBeNull();
    expect(result.rows.every((row) => row.consignee === null && row.weight === null)).toBe(true);
    expect(reading.findings.consignee).toEqual({ settled: true, reads: 'no column for consignee; it comes back empty', collection: 'mappings' });
  });

  it('"if that field is required, I ask which column holds it": whichever field is required', async () => {
    expect(HOW).toContain('if that field is required, I ask which column holds it');
    const reading = await readUnder('08-air-waybill-no.xlsx');
    expect(questionOf(reading).question).toMatch(/^Which column holds the waybill number\?/);
    expect(reading.findings.waybill?.settled).toBe(false);
    const weightRequired = defineCollection(
      'mappings',
      seed.entries.map((field) => (field.key === 'weight' ? new ColumnMapping('weight', 'Weight', field.columns, true) : field)),
    );
    const question = questionOf(await readUnder('11-other-vocabulary.xlsx', weightRequired));
    expect(question.entry).toBe('weight');
    expect(question.question).toMatch(/^Which column holds the weight\?/);
  });
});

describe('the teach loop, as the runtime drives it', () => {
  it('asks on 08; the answer completes 08 only; a lesson settles 09 for tasks pinned to the new version', async () => {
    const first = await read('08-air-waybill-no.xlsx');
    const question = questionOf(manifestAgent.read(first, pinned(seed, 1)));
    expect(question).toMatchObject({ entry: 'waybill', suggested: { column: 'Air Waybill No' } });
    const answered = manifestAgent.answer(first, pinned(seed, 1), question, { entry: 'Air Waybill No', answeredBy: 'dana' });
    expect(resultOf(answered).rows.map((row) => row.waybill)).toEqual(expected['08-air-waybill-no.xlsx']?.waybills);
    expect((await readUnder('09-air-waybill-no-second.xlsx', seed, 1)).settled).toBe(false);

    const lesson = teach(seed, 'waybill', 'Air Waybill No');
    expect(lesson.audit).toBe("reads waybill from the 'Air Waybill No' column");
    const next = await readUnder('09-air-waybill-no-second.xlsx', lesson.definition, 2);
    expect(next.findings.waybill?.reads).toBe(
      "reads waybill from the 'Air Waybill No' column; 7 of 7 values in 'Air Waybill No' are air waybill numbers with a valid check digit",
    );
    expect(resultOf(next).rows.map((row) => row.waybill)).toEqual(expected['09-air-waybill-no-second.xlsx']?.waybills);
    expect((await readUnder('09-air-waybill-no-second.xlsx', seed, 1)).settled).toBe(false);
  });
});

describe('read and answer are pure, so the journal can replay them', () => {
  it('reads the journaled (JSON) input exactly as the original, and the same twice', async () => {
    for (const file of ['04-excel-types.xlsx', '06-semicolon-latin1.csv', '08-air-waybill-no.xlsx']) {
      const sheet = await read(file);
      const journaled = JSON.parse(JSON.stringify(sheet)) as SheetInput;
      expect(manifestAgent.read(journaled, pinned(seed))).toEqual(manifestAgent.read(sheet, pinned(seed)));
    }
  });

  it('never writes to its input', async () => {
    const frozen = structuredClone(await read('12-duplicate-headings.xlsx'));
    for (const row of frozen.rows) Object.freeze(row);
    Object.freeze(frozen.rows);
    Object.freeze(frozen.headings);
    Object.freeze(frozen);
    expect(() => manifestAgent.read(frozen, pinned(seed))).not.toThrow();
    const asking = structuredClone(await read('08-air-waybill-no.xlsx'));
    for (const row of asking.rows) Object.freeze(row);
    Object.freeze(asking.rows);
    Object.freeze(asking.headings);
    Object.freeze(asking);
    const question = questionOf(manifestAgent.read(asking, pinned(seed)));
    expect(() => manifestAgent.answer(asking, pinned(seed), question, { entry: 'Air Waybill No' })).not.toThrow();
  });

  it('says plainly when the task is not pinned to the mappings', async () => {
    const sheet = await read('01-basic.xlsx');
    expect(() => manifestAgent.read(sheet, pinDefinitions([]))).toThrow(
      'This task is not pinned to "mappings" (it reads nothing); list its kind in the agent\'s kinds.',
    );
  });
});

describe('parse and summarize', () => {
  it('parses with the limits the agent was made with', async () => {
    const small = createManifestAgent({ limits: { maxRows: 2 } });
    const sheet = await small.parse([{ kind: 'file', bytes: fixture('01-basic.xlsx'), filename: '01-basic.xlsx' }]);
    expect([sheet.rows.length, sheet.rowCount]).toEqual([2, 10]);
  });

  it('summarizes a sheet by its filename, its headings and its first three rows', async () => {
    const sheet = await read('01-basic.xlsx');
    expect(manifestAgent.summarize?.(sheet)).toEqual({ filename: '01-basic.xlsx', headings: sheet.headings, firstRows: sheet.rows.slice(0, 3) });
  });
});
