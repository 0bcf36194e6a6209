// Manifests as forwarders send them: .xlsx written with exceljs (re-packed with a fixed zip
// timestamp so the bytes are deterministic) or .csv written by hand.
import ExcelJS from 'exceljs';
import type { Forwarder, ManifestField } from './cast.ts';
import type { Random } from '@learnables/testing';
import { between, digits, pick, repackZip } from '@learnables/testing';

const AIRPORTS = ['FRA', 'JFK', 'LHR', 'ORD', 'HKG', 'SIN', 'DXB', 'NRT', 'CDG', 'AMS', 'MAN', 'GRU', 'JNB', 'SYD', 'LAX', 'ZRH', 'PVG', 'ICN'];
const AIRLINE_PREFIXES = ['020', '057', '074', '125', '160', '176', '618', '006', '235', '157'];
const CONSIGNEES = [
  'Harbor Lights Trading',
  'Blue Fin Imports',
  'Kestrel Medical Supply',
  'Orchard Lane Foods',
  'Summit Auto Parts',
  'Greenway Pharma',
  'Cobalt Instruments',
  'Riverside Books',
  'Paloma Textiles',
  'Westfield Garden Centres',
];
const DESCRIPTIONS = [
  'Machine parts',
  'Consolidated cargo',
  'Pharmaceuticals',
  'Electronic components',
  'Spare parts',
  'Garments',
  'Printed matter',
  'Auto parts',
  'Medical devices',
  'Household goods',
];

/** An IATA air waybill: airline prefix, 7-digit serial and its check digit (serial mod 7). */
export function airWaybill(random: Random): string {
  const serial = Number(digits(random, 7));
  return `${pick(random, AIRLINE_PREFIXES)}-${serial}${serial % 7}`;
}

export interface ManifestFile {
  readonly bytes: Buffer;
  readonly rows: number;
}

type Row = Partial<Record<ManifestField, string | number>> & Record<string, string | number | undefined>;

function rowsFor(forwarder: Forwarder, random: Random): Row[] {
  const count = between(random, 4, 11);
  return Array.from({ length: count }, () => {
    const origin = pick(random, AIRPORTS);
    let destination = pick(random, AIRPORTS);
    if (destination === origin) destination = 'LHR';
    const kg = Math.round((20 + random() * 1800) * 10) / 10;
    const waybill = forwarder.id === 'nordic' ? `NFP${digits(random, 7)}` : forwarder.id === 'polar' ? `PLC-26${digits(random, 5)}` : airWaybill(random);
    return {
      waybill,
      consignee: pick(random, CONSIGNEES),
      origin,
      destination,
      pieces: between(random, 1, 48),
      weight: kg,
      description: pick(random, DESCRIPTIONS),
      'Booking Ref': `${forwarder.code}-${digits(random, 5)}`,
      Unit: 'kg',
      'Ship To': pick(random, CONSIGNEES),
      POL: origin,
      POD: destination,
      Ctns: between(random, 1, 60),
      Goods: pick(random, DESCRIPTIONS),
    };
  });
}

const cellOf = (row: Row, column: Forwarder['columns'][number]): string | number | undefined => ('field' in column ? row[column.field] : row[column.extra]);
const headingOf = (column: Forwarder['columns'][number]): string => ('field' in column ? column.heading : column.extra);

function csvField(value: string | number | undefined, separator: string): string {
  const text = value === undefined ? '' : typeof value === 'number' && separator === ';' ? String(value).replace('.', ',') : String(value);
  return /[",;\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table as a sender's desk writes it: who writes it, how, its headings and its rows (cells by heading order). */
export interface ManifestTable {
  /** The sender's name, in the workbook's properties and its title row. */
  readonly name: string;
  readonly format: 'xlsx' | 'csv';
  readonly separator?: ',' | ';';
  /** Title rows above the header (xlsx only). */
  readonly title?: boolean;
  readonly headings: readonly string[];
  readonly rows: readonly (readonly (string | number | undefined)[])[];
}

/** The bytes of `table`, dated `date`: CSV as written by hand, .xlsx by exceljs re-packed with a fixed zip time. */
export async function writeManifestTable(table: ManifestTable, date: Date): Promise<Buffer> {
  if (table.format === 'csv') {
    const separator = table.separator ?? ',';
    const lines = [table.headings.map((heading) => csvField(heading, separator)).join(separator)];
    for (const row of table.rows) lines.push(row.map((cell) => csvField(cell, separator)).join(separator));
    const eol = separator === ';' ? '\r\n' : '\n';
    return Buffer.from(`${lines.join(eol)}${eol}`, 'utf8');
  }
  const workbook = new ExcelJS.Workbook();
  workbook.creator = table.name;
  workbook.lastModifiedBy = table.name;
  workbook.created = date;
  workbook.modified = date;
  const sheet = workbook.addWorksheet('Manifest');
  if (table.title) {
    sheet.addRow([`${table.name} - export manifest`]);
    sheet.addRow([`Manifest date: ${date.toISOString().slice(0, 10)}`]);
    sheet.addRow([]);
  }
  sheet.addRow([...table.headings]);
  for (const row of table.rows) sheet.addRow(row.map((cell) => cell ?? null));
  const written = Buffer.from((await workbook.xlsx.writeBuffer()) as unknown as ArrayBuffer);
  return repackZip(written, date);
}

/** A manifest of `forwarder`'s layout, dated `date` (a title row says so in the .xlsx). */
export async function manifestFile(forwarder: Forwarder, random: Random, date: Date): Promise<ManifestFile> {
  const rows = rowsFor(forwarder, random);
  const table: ManifestTable = {
    name: forwarder.name,
    format: forwarder.format,
    ...(forwarder.separator && { separator: forwarder.separator }),
    ...(forwarder.title && { title: forwarder.title }),
    headings: forwarder.columns.map(headingOf),
    rows: rows.map((row) => forwarder.columns.map((column) => cellOf(row, column))),
  };
  return { bytes: await writeManifestTable(table, date), rows: rows.length };
}
