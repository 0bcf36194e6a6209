/**
 * The manifests the benchmarks read: the same deterministic rows as an .xlsx workbook (shared
 * strings and a date format, the way Excel saves one) or as CSV text.
 */
import { writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';

export interface ManifestRow {
  readonly waybill: string;
  readonly consignee: string;
  readonly origin: string;
  readonly destination: string;
  readonly pieces: number;
  readonly weight: number;
  readonly description: string;
  readonly shipped: Date;
}

const HEADINGS = ['Waybill', 'Consignee', 'Origin', 'Destination', 'Pieces', 'Gross Weight (kg)', 'Description', 'Shipped'];

/** `count` rows, the same every time for the same count. */
export function* manifestRows(count: number): Generator<ManifestRow> {
  let seed = count;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const airports = ['FRA', 'JFK', 'LHR', 'ORD', 'HKG', 'SIN', 'DXB', 'NRT', 'CDG', 'AMS'];
  const consignees = ['Harbor Lights Trading', 'Blue Fin Imports', 'Kestrel Medical Supply', 'Orchard Lane Foods', 'Paloma Textiles'];
  const goods = ['Machine parts', 'Pharmaceuticals', 'Fresh flowers', 'Textiles', 'Spare parts', 'Documents'];
  for (let i = 0; i < count; i++) {
    yield {
      waybill: `176-${String(10_000_000 + i).padStart(8, '0')}`,
      consignee: pick(consignees),
      origin: pick(airports),
      destination: pick(airports),
      pieces: 1 + Math.floor(random() * 40),
      weight: Math.round(random() * 9_000) / 10,
      description: pick(goods),
      shipped: new Date(Date.UTC(2025, 2, 10 + Math.floor(random() * 5))),
    };
  }
}

/** The rows as an .xlsx workbook at `path`, written by exceljs's streaming writer. */
export async function writeManifest(path: string, rows: number): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Manifest');
  const keys = ['waybill', 'consignee', 'origin', 'destination', 'pieces', 'weight', 'description', 'shipped'];
  sheet.columns = HEADINGS.map((header, at) => ({ header, key: keys[at]!, ...(at === 7 && { style: { numFmt: 'yyyy-mm-dd' } }) }));
  for (const row of manifestRows(rows)) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
}

/** The same rows as a CSV file at `path` (comma-separated, the consignee quoted as a spreadsheet would when it may hold one). */
export function writeManifestCsv(path: string, rows: number): void {
  const lines = [HEADINGS.join(',')];
  for (const row of manifestRows(rows)) {
    lines.push(
      [row.waybill, `"${row.consignee}"`, row.origin, row.destination, row.pieces, row.weight, row.description, row.shipped.toISOString().slice(0, 10)].join(
        ',',
      ),
    );
  }
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
}
