import { absorbLesson } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import { describe, expect, it } from 'vitest';
import { ColumnMapping, columnMappingKind } from './column-mapping.ts';
import { fileMatches, patternOf } from './file-pattern.ts';
import { questionOf, resultOf, seedDefinition, teach } from './fixtures.test-support.ts';
import { readManifest } from './read-manifest.ts';
import { readSheet } from './read-sheet.ts';
import type { SheetInput } from './sheet-input.ts';

// Issue 19: where a heading means different things for different senders, a lesson may hold for
// the file names one sender's sheets come with only (SPEC §2.3.1).

const waybills = (count: number, from: number): string[] => Array.from({ length: count }, (_, i) => `176-${from + i * 31}${(from + i * 31) % 7}`);
const purchaseOrders = (count: number): string[] => Array.from({ length: count }, (_, i) => `PO-${4471 + i}`);

function csv(filename: string, columns: Record<string, readonly string[]>): Promise<SheetInput> {
  const headings = Object.keys(columns);
  const rows = Math.max(...Object.values(columns).map((values) => values.length));
  const lines = [headings.join(',')];
  for (let row = 0; row < rows; row += 1) lines.push(headings.map((heading) => columns[heading]?.[row] ?? '').join(','));
  return readSheet(new TextEncoder().encode(`${lines.join('\n')}\n`), filename);
}

const lesson = (definition: Definition<ColumnMapping>, value: LessonValue) =>
  absorbLesson(definition, { collection: 'mappings', entry: 'waybill', value, taughtBy: 'dana', reason: 'confirmed the suggestion' });

const shipperA = (date: string) => csv(`${date}-sha-manifest-101.csv`, { Ref: waybills(5, 4_417_000), Consignee: Array(5).fill('Paloma') });
const shipperB = (date: string, serial = 201) =>
  csv(`${date}-shb-manifest-${serial}.csv`, { Ref: purchaseOrders(5), AWB: waybills(5, 5_100_000), Consignee: Array(5).fill('Blue Fin') });

describe('file-name patterns', () => {
  it('write each number of a file name as #, and match the same sender’s other files only', () => {
    const pattern = patternOf('2026-10-06-shb-manifest-201.csv');
    expect(pattern).toBe('#-#-#-shb-manifest-#.csv');
    if (pattern === undefined) return;
    expect(fileMatches(pattern, '2026-11-30-SHB-manifest-1024.csv')).toBe(true);
    expect(fileMatches(pattern, '2026-10-06-sha-manifest-201.csv')).toBe(false);
    expect(fileMatches(pattern, '2026-10-06-shb-manifest-201.xlsx')).toBe(false);
    expect(fileMatches(pattern, 'x2026-10-06-shb-manifest-201.csv')).toBe(false);
    expect(fileMatches(pattern, '2026-10-06-shb-manifest-.csv')).toBe(false);
  });

  it('are not made from a name that holds # itself, which the pattern could not match', () => {
    expect(patternOf('manifest #4.xlsx')).toBeUndefined();
    expect(patternOf('manifest.xlsx')).toBe('manifest.xlsx');
  });
});

describe('ColumnMapping with a scope', () => {
  const waybill = () => new ColumnMapping('waybill', 'Waybill number', ['AWB'], true);
  const learn = (mapping: ColumnMapping, value: LessonValue) => mapping.learn(mapping.readValue(value));

  it('keeps a scoped heading apart from the headings it reads everywhere, and says so', () => {
    const { next, changed } = learn(waybill(), { column: 'AWB', files: '#-#-#-shb-manifest-#.csv' });
    expect(changed).toBe(true);
    expect((next as ColumnMapping).columns).toEqual(['AWB']);
    expect((next as ColumnMapping).scoped).toEqual([{ column: 'AWB', files: '#-#-#-shb-manifest-#.csv' }]);
    expect(learn(next as ColumnMapping, { column: 'awb', files: '#-#-#-SHB-manifest-#.csv' }).changed).toBe(false);
    expect(waybill().describes(waybill().readValue({ column: 'AWB', files: '#-#-#-shb-manifest-#.csv' }))).toBe(
      "reads waybill from the 'AWB' column in files named like #-#-#-shb-manifest-#.csv",
    );
    const back = (next as ColumnMapping).unlearn((next as ColumnMapping).readValue({ column: 'AWB', files: '#-#-#-shb-manifest-#.csv' }));
    expect(back.next).toEqual(waybill());
  });

  it('takes a blank scope, as a form sends it, as none', () => {
    const { next, changed } = learn(waybill(), { column: 'Ref', files: '  ' });
    expect(changed).toBe(true);
    expect((next as ColumnMapping).columns).toEqual(['AWB', 'Ref']);
    expect((next as ColumnMapping).scoped).toEqual([]);
  });

  it('stores as it did before scopes until it has one, and comes back from storage as it went in', () => {
    expect(waybill().toState()).toEqual({ label: 'Waybill number', required: true, columns: ['AWB'] });
    const { next } = learn(waybill(), { column: 'AWB', files: '#-#-#-shb-manifest-#.csv' });
    expect(columnMappingKind.fromState('waybill', JSON.parse(JSON.stringify(next.toState())))).toEqual(next);
  });
});

describe('which suggestions are scoped', () => {
  const seed = seedDefinition();

  it('a heading that names the field, with values that fit, is offered for every sheet; a word any desk uses for anything only for this desk’s files', async () => {
    const named = await csv('2026-10-05-sky-manifest-1.csv', { 'Air Waybill No': waybills(3, 3_000_000), Notes: ['a', 'b', 'c'] });
    expect(questionOf(readManifest(named, seed.entries)).suggested).toEqual({ column: 'Air Waybill No' });
    const generic = await csv('2026-10-05-sha-manifest-1.csv', { Ref: waybills(3, 3_000_000), Notes: ['a', 'b', 'c'] });
    const question = questionOf(readManifest(generic, seed.entries));
    expect(question.suggested).toEqual({ column: 'Ref', files: '#-#-#-sha-manifest-#.csv' });
    expect(question.question).toContain(
      "I suggest 'Ref' for files named like #-#-#-sha-manifest-#.csv only (# stands for any number), because a heading such as 'Ref' may mean something else on other senders’ sheets.",
    );
  });

  it('a sheet whose name gives no pattern (it holds #, or is too long) gets no suggestion where one would need a scope, never the same heading for every sheet', async () => {
    // A sender chooses its file names: one that cannot be made a pattern must not widen the suggestion.
    for (const filename of ['sha manifest #4.csv', `${'x'.repeat(240)}-1.csv`]) {
      const generic = await csv(filename, { Ref: waybills(3, 3_000_000), Notes: ['a', 'b', 'c'] });
      const question = questionOf(readManifest(generic, seed.entries));
      expect(question.suggested, filename).toBeUndefined();
      expect(question.question, filename).not.toContain('I suggest');
    }
    // One that needs no scope is offered as before, whatever the name.
    const named = await csv('sky manifest #1.csv', { 'Air Waybill No': waybills(3, 3_000_000), Notes: ['a', 'b', 'c'] });
    expect(questionOf(readManifest(named, seed.entries)).suggested).toEqual({ column: 'Air Waybill No' });
  });

  it('so confirming Shipper A’s Ref never reaches Shipper B’s sheets, which go on reading AWB without asking', async () => {
    const first = questionOf(readManifest(await shipperA('2026-10-05'), seed.entries));
    const taught = lesson(seed, first.suggested ?? {}).definition;
    expect(resultOf(readManifest(await shipperA('2026-10-12'), taught.entries)).columns.waybill).toBe('Ref');
    expect(resultOf(readManifest(await shipperB('2026-10-13'), taught.entries)).columns.waybill).toBe('AWB');
  });
});

describe('a scoped lesson applies only to its scope', () => {
  const seed = seedDefinition();
  const taughtRef = teach(seed, 'waybill', 'Ref').definition;

  it('settles Shipper B once the clerk confirms the scoped suggestion; Shipper A still reads Ref; a new sender is still asked', async () => {
    const first = questionOf(readManifest(await shipperB('2026-10-06'), taughtRef.entries));
    expect(first.suggested).toEqual({ column: 'AWB', files: '#-#-#-shb-manifest-#.csv' });
    expect(first.question).toContain(
      "I suggest 'AWB' for files named like #-#-#-shb-manifest-#.csv only (# stands for any number), because 'Ref' means something else on these sheets than on others.",
    );
    const taught = lesson(taughtRef, first.suggested ?? {});
    expect(taught).toMatchObject({ changed: true, audit: "reads waybill from the 'AWB' column in files named like #-#-#-shb-manifest-#.csv" });

    const next = readManifest(await shipperB('2026-11-02', 214), taught.definition.entries);
    expect(resultOf(next).columns.waybill).toBe('AWB');
    expect(resultOf(next).rows.map((row) => row.waybill)).toEqual(waybills(5, 5_100_000));
    expect(next.findings.waybill?.reads).toBe(
      "reads waybill from the 'AWB' column, as taught for files named like #-#-#-shb-manifest-#.csv; 5 of 5 values in 'AWB' are air waybill numbers with a valid check digit",
    );
    expect(resultOf(readManifest(await shipperA('2026-11-03'), taught.definition.entries)).columns.waybill).toBe('Ref');
    const stranger = await csv('2026-11-04-shc-manifest-7.csv', { Ref: purchaseOrders(5), AWB: waybills(5, 6_000_000) });
    expect(readManifest(stranger, taught.definition.entries).settled).toBe(false);
  });

  it('is what an unscoped lesson could not be: confirming AWB alone teaches nothing, and the sheet would ask for ever', () => {
    expect(lesson(taughtRef, { column: 'AWB' }).changed).toBe(false);
  });

  it('comes first: a scoped heading wins over a heading learned for every sheet, even one further left', async () => {
    const scoped = lesson(seed, { column: 'Booking', files: '#-#-#-shb-manifest-#.csv' }).definition;
    const sheet = await csv('2026-10-06-shb-manifest-201.csv', { AWB: waybills(3, 1_000_000), Booking: waybills(3, 2_000_000) });
    expect(resultOf(readManifest(sheet, scoped.entries)).columns.waybill).toBe('Booking');
    const elsewhere = await csv('2026-10-06-shx-manifest-201.csv', { AWB: waybills(3, 1_000_000), Booking: waybills(3, 2_000_000) });
    expect(resultOf(readManifest(elsewhere, scoped.entries)).columns.waybill).toBe('AWB');
  });

  it('is the operator’s word for those files: a scoped column of house numbers under a plain heading is read, and the reading says how it measured', async () => {
    const sheet = await csv('2026-10-08-nfp-manifest-618.csv', { 'Shipment No': ['NFP1234567', 'NFP1234568'], Consignee: ['A', 'B'] });
    const question = questionOf(readManifest(sheet, seed.entries));
    expect(question.suggested).toEqual({ column: 'Shipment No', files: '#-#-#-nfp-manifest-#.csv' });
    const taught = lesson(seed, question.suggested ?? {}).definition;
    const later = readManifest(await csv('2026-10-15-nfp-manifest-619.csv', { 'Shipment No': ['NFP1234569'], Consignee: ['C'] }), taught.entries);
    expect(later.findings.waybill?.reads).toBe(
      "reads waybill from the 'Shipment No' column, as taught for files named like #-#-#-nfp-manifest-#.csv; 0 of 1 values in 'Shipment No' are air waybill numbers with a valid check digit",
    );
  });
});
