// The trap scenario's manifest part: shippers whose manifest headings collide (a `Ref` that is a
// waybill for one and a purchase-order number for another). make-trap-scenario.ts asks this
// module for its files and merges them into the stream by date; it draws from its own seeded PRNG,
// so adding or changing manifests leaves every email byte as it was.
import type { Random } from '@learnables/testing';
import { between, digits, pick } from '@learnables/testing';
import type { ManifestField } from './cast.ts';
import { writeManifestTable } from './manifest-files.ts';
import type { ManifestTruth } from './stream.ts';
import { DAY_MS } from './stream.ts';
import type { TrapCast, TrapVariant } from './trap-cast.ts';

/** One manifest to add to the stream. */
export interface TrapManifestFile {
  readonly at: Date;
  /** 1-based week of the scenario. */
  readonly week: number;
  /** File name under manifests/ (the replay dates a manifest by the day its name starts with). */
  readonly name: string;
  readonly bytes: Buffer;
  /** Who sent it (stream.json's `source`). */
  readonly source: string;
  readonly truth: ManifestTruth;
  /** The trap it carries, in a few words. */
  readonly trap: string;
  /** A question a person answers but would not turn into a rule, and why. */
  readonly remember?: false;
  readonly why?: string;
}

/** What a manifest part gets to plan with. */
export interface TrapCalendar {
  readonly cast: TrapCast;
  readonly weeks: number;
  readonly firstMonday: number;
  readonly random: Random;
}

/** What a column holds; `field` columns are the manifest's fields, the rest are a desk's own. */
type Holds =
  | 'air-waybill'
  | 'air-waybill-digits'
  | 'air-waybill-spaced'
  | 'house-bill'
  | 'purchase-order'
  | 'order-number'
  | 'sales-order'
  | 'invoice'
  | 'booking'
  | 'house-ref'
  | 'consignee'
  | 'airport'
  | 'pieces'
  | 'weight'
  | 'weight-text'
  | 'unit'
  | 'goods';

interface Column {
  readonly heading: string;
  readonly holds: Holds;
  /** The manifest field this column truly is, when it is one. */
  readonly field?: ManifestField;
}

/** A shipper's desk: how its manifests look, when they come, and the trap they carry. */
interface Shipper {
  readonly id: string;
  readonly name: string;
  /** In file names (`2026-10-06-brl-manifest-201.xlsx`) and in its own numbers. */
  readonly code: string;
  readonly format: 'xlsx' | 'csv';
  readonly separator?: ',' | ';';
  readonly title?: boolean;
  readonly columns: readonly Column[];
  /** Manifests per week (index 0 = week 1), on these weekdays in turn (1 = Monday). */
  readonly perWeek: readonly number[];
  readonly weekdays: readonly number[];
  readonly trap: string;
}

const c = (heading: string, holds: Holds, field?: ManifestField): Column => (field === undefined ? { heading, holds } : { heading, holds, field });

/** The committed stream's desks. Bramble writes on Monday of week 1, before Aurora's Ref is ever taught. */
const MAIN_SHIPPERS: readonly Shipper[] = [
  {
    id: 'bramble',
    name: 'Bramble Logistics',
    code: 'BRL',
    format: 'xlsx',
    columns: [
      c('Ref', 'purchase-order'),
      c('AWB', 'air-waybill', 'waybill'),
      c('Consignee', 'consignee', 'consignee'),
      c('From', 'airport', 'origin'),
      c('To', 'airport', 'destination'),
      c('Packages', 'pieces', 'pieces'),
      c('Gross Weight', 'weight', 'weight'),
      c('Commodity', 'goods', 'description'),
    ],
    perWeek: [2, 1, 2, 1, 2, 1],
    weekdays: [1, 4],
    trap: 'Ref holds purchase orders (PO-4471, …); the air waybills are under AWB',
  },
  {
    id: 'aurora',
    name: 'Aurora Air Freight',
    code: 'AAF',
    format: 'xlsx',
    title: true,
    columns: [
      c('Ref', 'air-waybill', 'waybill'),
      c('Consignee', 'consignee', 'consignee'),
      c('Origin', 'airport', 'origin'),
      c('Destination', 'airport', 'destination'),
      c('Pcs', 'pieces', 'pieces'),
      c('Weight (kg)', 'weight', 'weight'),
      c('Description', 'goods', 'description'),
    ],
    perWeek: [1, 1, 1, 1, 1, 1],
    weekdays: [2],
    trap: 'its air waybills are under Ref, the heading Bramble uses for purchase orders',
  },
  {
    id: 'dover',
    name: 'Dover Direct',
    code: 'DDX',
    format: 'xlsx',
    columns: [
      c('Booking Ref', 'booking'),
      c('Shipment Ref', 'air-waybill-digits', 'waybill'),
      c('Consignee', 'consignee', 'consignee'),
      c('Origin', 'airport', 'origin'),
      c('Destination', 'airport', 'destination'),
      c('Pieces', 'pieces', 'pieces'),
      c('Weight', 'weight-text', 'weight'),
      c('Description', 'goods', 'description'),
    ],
    perWeek: [0, 1, 1, 0, 1, 1],
    weekdays: [5],
    trap: 'two references side by side; the waybill is the one with a check digit, written without a dash',
  },
  {
    id: 'eastgate',
    name: 'Eastgate Forwarding',
    code: 'EGF',
    format: 'csv',
    separator: ';',
    columns: [
      c('Waybill No', 'house-ref'),
      c('Consignee Name', 'consignee', 'consignee'),
      c('Origin Airport', 'airport', 'origin'),
      c('Destination Airport', 'airport', 'destination'),
      c('Packages', 'pieces', 'pieces'),
      c('Gross Wt', 'weight', 'weight'),
      c('Goods Description', 'goods', 'description'),
      c('MAWB', 'air-waybill-spaced', 'waybill'),
    ],
    perWeek: [0, 0, 1, 1, 1, 1],
    weekdays: [3],
    trap: 'Waybill No, a heading the seed knows, holds the desk’s own numbers (EGF/26/0412); the air waybills are under MAWB, further right',
  },
  {
    id: 'gull',
    name: 'Gull Wing Forwarding',
    code: 'GWF',
    format: 'csv',
    separator: ',',
    columns: [
      c('HAWB', 'house-bill', 'waybill'),
      c('Consignee', 'consignee', 'consignee'),
      c('Origin', 'airport', 'origin'),
      c('Destination', 'airport', 'destination'),
      c('Pieces', 'pieces', 'pieces'),
      c('Weight (kg)', 'weight', 'weight'),
      c('Description', 'goods', 'description'),
    ],
    perWeek: [1, 0, 1, 0, 1, 0],
    weekdays: [4],
    trap: 'house waybills (GWF2610001) under HAWB: not air waybills, as the heading says',
  },
  {
    id: 'cinder',
    name: 'Cinder Cargo',
    code: 'CIC',
    format: 'csv',
    separator: ',',
    columns: [
      c('Ref', 'order-number'),
      c('Air Waybill Number', 'air-waybill', 'waybill'),
      c('Receiver', 'consignee', 'consignee'),
      c('Origin', 'airport', 'origin'),
      c('Destination', 'airport', 'destination'),
      c('Qty', 'pieces', 'pieces'),
      c('Weight', 'weight', 'weight'),
      c('Unit', 'unit'),
      c('Description', 'goods', 'description'),
    ],
    perWeek: [0, 0, 0, 1, 1, 1],
    weekdays: [3],
    trap: 'new in week 4: Ref again, holding 10-digit order numbers; the waybills under a heading nobody taught',
  },
];

/** The holdout stream's desks: the same kinds of collision, other names, headings and numbers. */
const HOLDOUT_SHIPPERS: readonly Shipper[] = [
  {
    id: 'quayside',
    name: 'Quayside Shipping',
    code: 'QSS',
    format: 'xlsx',
    title: true,
    columns: [
      c('Reference', 'sales-order'),
      c('Consignee', 'consignee', 'consignee'),
      c('Origin', 'airport', 'origin'),
      c('Destination', 'airport', 'destination'),
      c('Waybill', 'air-waybill', 'waybill'),
      c('Pcs', 'pieces', 'pieces'),
      c('Gross Weight (kg)', 'weight', 'weight'),
      c('Description', 'goods', 'description'),
    ],
    perWeek: [1, 2, 1, 2, 1, 2],
    weekdays: [1, 3],
    trap: 'Reference holds sales orders (SO-88213, …); the air waybills are under Waybill',
  },
  {
    id: 'northwind',
    name: 'Northwind Air Cargo',
    code: 'NWA',
    format: 'csv',
    separator: ',',
    columns: [
      c('Reference', 'air-waybill-spaced', 'waybill'),
      c('Consignee', 'consignee', 'consignee'),
      c('From', 'airport', 'origin'),
      c('To', 'airport', 'destination'),
      c('Qty', 'pieces', 'pieces'),
      c('Weight', 'weight', 'weight'),
      c('Unit', 'unit'),
      c('Commodity', 'goods', 'description'),
    ],
    perWeek: [1, 1, 1, 1, 1, 1],
    weekdays: [2],
    trap: 'its air waybills, spaced as printed, are under Reference, the heading Quayside uses for sales orders',
  },
  {
    id: 'tern',
    name: 'Tern Express',
    code: 'TEX',
    format: 'csv',
    separator: ';',
    columns: [
      c('Customer Ref', 'booking'),
      c('Job No', 'air-waybill-digits', 'waybill'),
      c('Consignee Name', 'consignee', 'consignee'),
      c('Origin Airport', 'airport', 'origin'),
      c('Destination Airport', 'airport', 'destination'),
      c('Packages', 'pieces', 'pieces'),
      c('Gross Wt', 'weight', 'weight'),
      c('Goods Description', 'goods', 'description'),
    ],
    perWeek: [1, 0, 1, 1, 0, 1],
    weekdays: [4],
    trap: 'two references side by side; the waybill is the one with a check digit',
  },
  {
    id: 'osprey',
    name: 'Osprey Freight',
    code: 'OSF',
    format: 'xlsx',
    columns: [
      c('AWB', 'house-ref'),
      c('Consignee', 'consignee', 'consignee'),
      c('Origin', 'airport', 'origin'),
      c('Destination', 'airport', 'destination'),
      c('Pieces', 'pieces', 'pieces'),
      c('Weight', 'weight-text', 'weight'),
      c('Master AWB', 'air-waybill', 'waybill'),
      c('Description', 'goods', 'description'),
    ],
    perWeek: [0, 1, 1, 1, 1, 0],
    weekdays: [5],
    trap: 'AWB, a heading the seed knows, holds the desk’s own numbers; the air waybills are under Master AWB',
  },
  {
    id: 'heron',
    name: 'Heron House Forwarding',
    code: 'HHF',
    format: 'xlsx',
    columns: [
      c('House Bill No', 'house-bill', 'waybill'),
      c('Consignee', 'consignee', 'consignee'),
      c('Origin', 'airport', 'origin'),
      c('Destination', 'airport', 'destination'),
      c('Pieces', 'pieces', 'pieces'),
      c('Weight (kg)', 'weight', 'weight'),
      c('Description', 'goods', 'description'),
    ],
    perWeek: [0, 1, 0, 1, 0, 1],
    weekdays: [2],
    trap: 'house bills under House Bill No, a heading nobody taught',
  },
  {
    id: 'larch',
    name: 'Larch Logistics',
    code: 'LLX',
    format: 'xlsx',
    columns: [
      c('Reference', 'invoice'),
      c('AWB No.', 'air-waybill', 'waybill'),
      c('Receiver', 'consignee', 'consignee'),
      c('Origin', 'airport', 'origin'),
      c('Destination', 'airport', 'destination'),
      c('Pcs', 'pieces', 'pieces'),
      c('Gross Weight', 'weight', 'weight'),
      c('Commodity', 'goods', 'description'),
    ],
    perWeek: [0, 0, 0, 0, 1, 1],
    weekdays: [3],
    trap: 'new in week 5: Reference again, holding invoice numbers; the waybills under AWB No.',
  },
];

const SHIPPERS: Readonly<Record<TrapVariant, readonly Shipper[]>> = { main: MAIN_SHIPPERS, holdout: HOLDOUT_SHIPPERS };

const AIRLINE_PREFIXES = ['020', '057', '074', '125', '160', '176', '618', '006', '235', '157'];

/**
 * An IATA air waybill: airline prefix, 7-digit serial (leading zeros kept: manifest-files.ts's
 * generator drops them, writing a tenth of its waybills one digit short) and the serial mod 7.
 */
function airWaybill(random: Random): string {
  const serial = digits(random, 7);
  return `${pick(random, AIRLINE_PREFIXES)}-${serial}${Number(serial) % 7}`;
}

const AIRPORTS = ['FRA', 'JFK', 'LHR', 'ORD', 'HKG', 'SIN', 'DXB', 'NRT', 'CDG', 'AMS', 'MAN', 'GRU', 'JNB', 'SYD', 'LAX', 'ZRH', 'PVG', 'ICN', 'BOM', 'MEX'];
const CONSIGNEES = [
  'Harbor Lights Trading',
  'Blue Fin Imports',
  'Kestrel Medical Supply',
  'Orchard Lane Foods',
  'Summit Auto Parts',
  'Cobalt Instruments',
  'Riverside Books',
  'Paloma Textiles',
  'Westfield Garden Centres',
  'Ashgrove Dental',
];
const GOODS = [
  'Machine parts',
  'Consolidated cargo',
  'Pharmaceuticals',
  'Electronic components',
  'Spare parts',
  'Garments',
  'Printed matter',
  'Medical devices',
  'Household goods',
  'Sports equipment',
];

/** Numbers a desk counts up, so that one file's purchase orders follow the last file's. */
class Counters {
  private readonly next = new Map<string, number>();
  take(name: string, start: number): number {
    const value = this.next.get(name) ?? start;
    this.next.set(name, value + 1);
    return value;
  }
}

function cell(
  column: Column,
  shipper: Shipper,
  random: Random,
  counters: Counters,
  row: { origin: string; destination: string },
  airportTurn: { n: number },
): string | number {
  switch (column.holds) {
    case 'air-waybill':
      return airWaybill(random);
    case 'air-waybill-digits':
      return airWaybill(random).replace('-', '');
    case 'air-waybill-spaced': {
      const awb = airWaybill(random).replace('-', '');
      return `${awb.slice(0, 3)} ${awb.slice(3, 7)} ${awb.slice(7)}`;
    }
    case 'house-bill':
      return `${shipper.code}26${String(counters.take(`${shipper.id}-house`, 10_001)).padStart(5, '0')}`;
    case 'purchase-order':
      return `PO-${counters.take(`${shipper.id}-po`, 4471)}`;
    case 'order-number':
      return `45000${String(counters.take(`${shipper.id}-order`, 12_345)).padStart(5, '0')}`;
    case 'sales-order':
      return `SO-${counters.take(`${shipper.id}-so`, 88_213)}`;
    case 'invoice':
      return `INV-2026-${String(counters.take(`${shipper.id}-inv`, 42)).padStart(4, '0')}`;
    case 'booking':
      return `${shipper.code}-${digits(random, 5)}`;
    case 'house-ref':
      return `${shipper.code}/26/${String(counters.take(`${shipper.id}-ref`, 412)).padStart(4, '0')}`;
    case 'consignee':
      return pick(random, CONSIGNEES);
    case 'airport':
      airportTurn.n += 1;
      return airportTurn.n === 1 ? row.origin : row.destination;
    case 'pieces':
      return between(random, 1, 48);
    case 'weight':
      return Math.round((20 + random() * 1800) * 10) / 10;
    case 'weight-text':
      return `${(Math.round((20 + random() * 1800) * 10) / 10).toFixed(1)} kg`;
    case 'unit':
      return 'kg';
    case 'goods':
      return pick(random, GOODS);
  }
}

/** The rows of one manifest, each cell drawn as its column holds. */
function rowsOf(shipper: Shipper, random: Random, counters: Counters): (string | number)[][] {
  const count = between(random, 4, 11);
  return Array.from({ length: count }, () => {
    const origin = pick(random, AIRPORTS);
    let destination = pick(random, AIRPORTS);
    if (destination === origin) destination = 'LHR';
    const turn = { n: 0 };
    return shipper.columns.map((column) => cell(column, shipper, random, counters, { origin, destination }, turn));
  });
}

/** The truth a replay checks: the waybill's heading, and every field's (null where the sheet has none). */
function truthOf(shipper: Shipper): ManifestTruth {
  const fields: ManifestField[] = ['waybill', 'consignee', 'origin', 'destination', 'pieces', 'weight', 'description'];
  const columns = Object.fromEntries(fields.map((field) => [field, shipper.columns.find((column) => column.field === field)?.heading ?? null]));
  const waybill = columns.waybill;
  if (typeof waybill !== 'string') throw new Error(`${shipper.name} has no waybill column`);
  return { entry: 'waybill', column: waybill, columns };
}

/**
 * The manifests of the trap stream: each shipper's files in each week, dated on its weekdays in
 * turn (the replay counts a manifest on the day its name starts with), in the shipper's layout.
 */
export async function trapManifests(calendar: TrapCalendar): Promise<readonly TrapManifestFile[]> {
  const { cast, weeks, firstMonday, random } = calendar;
  const counters = new Counters();
  const serials = new Map<string, number>();
  const files: TrapManifestFile[] = [];
  for (let week = 1; week <= weeks; week += 1) {
    for (const shipper of SHIPPERS[cast.variant]) {
      const count = shipper.perWeek[week - 1] ?? 0;
      for (let n = 0; n < count; n += 1) {
        const weekday = shipper.weekdays[n % shipper.weekdays.length] ?? 1;
        const minutes = between(random, 7 * 60, 16 * 60);
        const at = new Date(firstMonday + ((week - 1) * 7 + (weekday - 1)) * DAY_MS + minutes * 60_000 + between(random, 0, 59) * 1000);
        const serial = (serials.get(shipper.id) ?? 200 + between(random, 0, 600)) + 1;
        serials.set(shipper.id, serial);
        const rows = rowsOf(shipper, random, counters);
        const bytes = await writeManifestTable(
          {
            name: shipper.name,
            format: shipper.format,
            ...(shipper.separator && { separator: shipper.separator }),
            ...(shipper.title && { title: shipper.title }),
            headings: shipper.columns.map((column) => column.heading),
            rows,
          },
          at,
        );
        const name = `${at.toISOString().slice(0, 10)}-${shipper.code.toLowerCase()}-manifest-${serial}.${shipper.format}`;
        files.push({ at, week, name, bytes, source: shipper.name, truth: truthOf(shipper), trap: shipper.trap });
      }
    }
  }
  return files.sort((a, b) => a.at.getTime() - b.at.getTime() || a.name.localeCompare(b.name));
}

/** Rows for the README's manifest table, when the part has any. */
export function trapManifestReadme(files: readonly TrapManifestFile[]): string {
  if (files.length === 0) return '';
  const bySource = new Map<string, TrapManifestFile[]>();
  for (const file of files) bySource.set(file.source, [...(bySource.get(file.source) ?? []), file]);
  const rows = [...bySource].map(([source, mine]) => {
    const first = mine[0];
    const weeks = [...new Set(mine.map((file) => file.week))].join(', ');
    return `| ${source} | ${first?.name.split('.').at(-1) ?? ''} | ${first?.truth.column ?? ''} | ${first?.trap ?? ''} | ${weeks} | ${mine.length} |`;
  });
  return `## Manifests: headings that collide

Shippers head their columns their own way, and the same heading means different things on
different desks' sheets. The truth of each manifest gives the heading of every field's column; a
replay counts a manifest as decided wrongly when any field was read from another column.

| shipper | format | waybill under | the trap | weeks | files |
|---|---|---|---|---|---|
${rows.join('\n')}`;
}
