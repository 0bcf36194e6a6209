// Manifests as forwarders send them: .xlsx written with exceljs (re-packed with a fixed zip
// timestamp so the bytes are deterministic) or .csv written by hand.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { Forwarder, ManifestField } from './cast.ts';
import type { Random } from './prng.ts';
import { between, digits, pick } from './prng.ts';

const AIRPORTS = ['FRA', 'JFK', 'LHR', 'ORD', 'HKG', 'SIN', 'DXB', 'NRT', 'CDG', 'AMS', 'MAN', 'GRU', 'JNB', 'SYD', 'LAX', 'ZRH', 'PVG', 'ICN'];
const AIRLINE_PREFIXES = ['020', '057', '074', '125', '160', '176', '618', '006', '235', '157'];
const CONSIGNEES = ['Harbor Lights Trading', 'Blue Fin Imports', 'Kestrel Medical Supply', 'Orchard Lane Foods', 'Summit Auto Parts', 'Greenway Pharma', 'Cobalt Instruments', 'Riverside Books', 'Paloma Textiles', 'Westfield Garden Centres'];
const DESCRIPTIONS = ['Machine parts', 'Consolidated cargo', 'Pharmaceuticals', 'Electronic components', 'Spare parts', 'Garments', 'Printed matter', 'Auto parts', 'Medical devices', 'Household goods'];

/** An IATA air waybill: airline prefix, 7-digit serial and its check digit (serial mod 7). */
function airWaybill(random: Random): string {
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
    const waybill =
      forwarder.id === 'nordic' ? `NFP${digits(random, 7)}` : forwarder.id === 'polar' ? `PLC-26${digits(random, 5)}` : airWaybill(random);
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

/** A manifest of `forwarder`'s layout, dated `date` (a title row says so in the .xlsx). */
export async function manifestFile(forwarder: Forwarder, random: Random, date: Date): Promise<ManifestFile> {
  const rows = rowsFor(forwarder, random);
  if (forwarder.format === 'csv') {
    const separator = forwarder.separator ?? ',';
    const lines = [forwarder.columns.map((column) => csvField(headingOf(column), separator)).join(separator)];
    for (const row of rows) lines.push(forwarder.columns.map((column) => csvField(cellOf(row, column), separator)).join(separator));
    const eol = separator === ';' ? '\r\n' : '\n';
    return { bytes: Buffer.from(`${lines.join(eol)}${eol}`, 'utf8'), rows: rows.length };
  }
  const workbook = new ExcelJS.Workbook();
  workbook.creator = forwarder.name;
  workbook.lastModifiedBy = forwarder.name;
  workbook.created = date;
  workbook.modified = date;
  const sheet = workbook.addWorksheet('Manifest');
  if (forwarder.title) {
    sheet.addRow([`${forwarder.name} - export manifest`]);
    sheet.addRow([`Manifest date: ${date.toISOString().slice(0, 10)}`]);
    sheet.addRow([]);
  }
  sheet.addRow(forwarder.columns.map(headingOf));
  for (const row of rows) sheet.addRow(forwarder.columns.map((column) => cellOf(row, column) ?? null));
  const written = Buffer.from((await workbook.xlsx.writeBuffer()) as unknown as ArrayBuffer);
  return { bytes: writeZip(readZip(written), date), rows: rows.length };
}

// ---------------------------------------------------------------------------------------------
// Zip re-packing (exceljs stamps the current time into its zip entries).

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = (CRC_TABLE[(c ^ (data[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

function readZip(zip: Buffer): ZipEntry[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= 0; i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('exceljs wrote a zip without an end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(p + 10);
    const compressedSize = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressedSize);
    entries.push({ name, data: method === 0 ? Buffer.from(raw) : inflateRawSync(raw) });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function writeZip(entries: readonly ZipEntry[], at: Date): Buffer {
  const time = (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1);
  const date = ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const stored = entry.data.length === 0;
    const body = stored ? entry.data : deflateRawSync(entry.data, { level: 9 });
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
