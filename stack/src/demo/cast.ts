// Who writes to the warehouse's intake mailbox during the six weeks, and which forwarders send
// manifests. Customers are the keys of fixtures/seeds/customers.json; every domain is `.example`.
import type { Random } from '@learnables/testing';
import { between, digits, pick } from '@learnables/testing';

/** Where a sender sits, for the offset in its Date header (summer time ends on 25 October 2026). */
export type Zone = 'uk' | 'cet' | 'us-east';

const SUMMER_ENDS_EU = Date.UTC(2026, 9, 25, 1);
const SUMMER_ENDS_US = Date.UTC(2026, 10, 1, 6);

export function offsetMinutes(zone: Zone, at: Date): number {
  const t = at.getTime();
  if (zone === 'uk') return t < SUMMER_ENDS_EU ? 60 : 0;
  if (zone === 'cet') return t < SUMMER_ENDS_EU ? 120 : 60;
  return t < SUMMER_ENDS_US ? -240 : -300;
}

export interface Customer {
  readonly key: string;
  readonly name: string;
  /** A fresh reference in this customer's own format. */
  readonly ref: (random: Random) => string;
  readonly goods: readonly string[];
}

const c = (key: string, name: string, ref: (random: Random) => string, goods: string[]): Customer => ({ key, name, ref, goods });

export const CUSTOMERS: Readonly<Record<string, Customer>> = Object.fromEntries(
  [
    c('northgate', 'Northgate Motors Ltd', (r) => `NGM/2026/${between(r, 1200, 1899)}`, [
      'gearbox housings',
      'brake assemblies',
      'engine blocks',
      'body panels',
    ]),
    c('brightwell-foods', 'Brightwell Foods plc', (r) => `BW-${between(r, 88300, 89999)}`, [
      'chilled ready meals',
      'ambient groceries',
      'yoghurt',
      'frozen peas',
    ]),
    c('kestrel-pharma', 'Kestrel Pharma GmbH', (r) => `KP/2026/${between(r, 4100, 4999)}`, [
      'vaccines (2-8 C)',
      'tablets in blister packs',
      'sterile dressings',
    ]),
    c('harbor-lane', 'Harbor Lane Textiles', (r) => `HLT-${digits(r, 5)}`, ['cotton rolls', 'linen bales', 'upholstery fabric']),
    c('alder-chemicals', 'Alder Chemicals BV', (r) => `ALC-2026-${between(r, 3000, 3999)}`, ['solvent drums', 'resin IBCs', 'adhesive pails']),
    c('corvid-electronics', 'Corvid Electronics Inc.', (r) => `CVE-${between(r, 204600, 209999)}`, ['circuit boards', 'display modules', 'cable reels']),
    c('fjord-seafood', 'Fjord Seafood AS', (r) => `FJS-${between(r, 5000, 5999)}`, ['frozen salmon', 'cod loins', 'smoked trout']),
    c('marigold-cosmetics', 'Marigold Cosmetics', (r) => `MGC-${between(r, 7000, 7999)}`, ['lipstick cartons', 'shampoo', 'gift sets']),
    c('palmera-apparel', 'Palmera Apparel S.L.', (r) => `PA-2026-04${between(r, 20, 99)}`, ['knitwear', 'denim cartons', 'hanging garments']),
    c('quarry-stone', 'Quarry Stone Supplies', (r) => `QS/2026/${between(r, 120, 399)}`, ['granite slabs', 'paving setts', 'slate tiles']),
    c('lumen-lighting', 'Lumen Lighting Ltd', (r) => `LL-${digits(r, 5)}`, ['LED panels', 'lamp fittings', 'track lights']),
    c('tidewater-paper', 'Tidewater Paper Mills', (r) => `TWP2026${between(r, 120, 899)}`, ['paper reels', 'board pallets']),
    c('pinnacle-audio', 'Pinnacle Audio Ltd', (r) => `PA-2026-09${between(r, 10, 99)}`, ['speaker cabinets', 'amplifiers', 'headphone cartons']),
    c('oakridge-furniture', 'Oakridge Furniture Co.', (r) => `OFC-${digits(r, 5)}`, ['oak dining tables', 'flat-pack wardrobes', 'sofa frames']),
    c('saltmarsh-wines', 'Saltmarsh Wines Ltd', (r) => `SWB-${digits(r, 4)}`, ['claret', 'sparkling wine', 'port (in bond)']),
    c('berard-vins', 'Société Bérard Vins SARL', (r) => `BV-2026-${digits(r, 3)}`, ['Bordeaux', 'champagne', 'Sauternes']),
    c('vireo-bikes', 'Vireo Bikes Ltd', (r) => `VB-${digits(r, 5)}`, ['bike frames', 'wheelsets', 'e-bike batteries']),
    c('greystone-tools', 'Greystone Tools plc', (r) => `GT-${digits(r, 6)}`, ['power drills', 'hand tools', 'saw blades']),
    c('meridian-medical', 'Meridian Medical Supplies', (r) => `MMS-${digits(r, 5)}`, ['syringes', 'nitrile gloves', 'wound dressings']),
    c('hollis-toys', 'Hollis Toys Ltd', (r) => `HT-${digits(r, 4)}`, ['board games', 'plush toys', 'wooden trains']),
    c('sable-coffee', 'Sable Coffee Roasters', (r) => `SCR-${digits(r, 4)}`, ['green coffee sacks', 'roasted coffee cartons']),
    c('dunmore-ceramics', 'Dunmore Ceramics', (r) => `DC-${digits(r, 4)}`, ['tableware', 'vases', 'glazed tiles']),
    c('zurich-prazision', 'Zürich Präzisionsteile AG', (r) => `ZP-2026-${digits(r, 4)}`, ['precision bearings', 'machined shafts']),
    c('ironbark-outdoor', 'Ironbark Outdoor Gear', (r) => `IOG-${digits(r, 5)}`, ['tents', 'rucksacks', 'sleeping bags']),
    c('copperfield-books', 'Copperfield Books Ltd', (r) => `CB-${digits(r, 5)}`, ['book cartons', 'stationery']),
  ].map((customer) => [customer.key, customer]),
);

/** What a message is about; `mail-topics.ts` writes each. */
export type Topic =
  | 'booking'
  | 'prealert'
  | 'slot-reply'
  | 'collection'
  | 'storage'
  | 'damage'
  | 'stock-report'
  | 'forecast'
  | 'remittance'
  | 'invoice'
  | 'customs'
  | 'haulage';

/** Where a sender's message puts the customer's reference. */
export type RefWhere = 'subject' | 'body' | 'attachment';

export interface Sender {
  readonly id: string;
  readonly name: string;
  readonly address: string;
  /** The company that signs, when it is not the customer (a forwarder, a broker, a haulier). */
  readonly company?: string;
  readonly zone: Zone;
  /** The week (1–6) of its first message: it writes in that week for certain, and not before. */
  readonly arrives: number;
  /** How often it writes among the unscheduled messages. */
  readonly weight: number;
  /** Whose messages it sends, and where their reference goes. */
  readonly serves: readonly { readonly customer: string; readonly ref: RefWhere }[];
  readonly topics: readonly Topic[];
  /** How it formats mail: plain text, text + HTML, or with attachments as the topic needs. */
  readonly html?: boolean;
  readonly crlf?: boolean;
  /** Forwarded to intake by a colleague: the original sender appears only in the body. */
  readonly forwardedBy?: { readonly name: string; readonly address: string };
  /** Writes every week on this weekday (1 = Monday), on top of the random draws. */
  readonly weekly?: number;
  /** The operator answers its questions but keeps no rule: its address says nothing of the customer. */
  readonly remember?: false;
  readonly why?: string;
  /** For the README: what the seed makes of it. */
  readonly seed: 'settles' | 'asks';
}

const OPS = { name: 'Kev Marsh', address: 'ops@warehouse.example' };
const DIRECT: Topic[] = ['booking', 'prealert', 'slot-reply', 'collection', 'storage'];

export const SENDERS: readonly Sender[] = [
  // Customers the seed already knows by their domain: they settle, whoever writes.
  {
    id: 'ngm-parry',
    name: 'Amy Parry',
    address: 'a.parry@northgate-motors.example',
    zone: 'uk',
    arrives: 1,
    weight: 3,
    serves: [{ customer: 'northgate', ref: 'subject' }],
    topics: DIRECT,
    seed: 'settles',
  },
  {
    id: 'ngm-logistics',
    name: 'Northgate Logistics',
    address: 'logistics@northgate-motors.example',
    zone: 'uk',
    arrives: 1,
    weight: 2,
    serves: [{ customer: 'northgate', ref: 'body' }],
    topics: ['booking', 'collection'],
    html: true,
    seed: 'settles',
  },
  {
    id: 'ngm-kerr',
    name: 'Jon Kerr',
    address: 'j.kerr@northgate-motors.example',
    zone: 'uk',
    arrives: 3,
    weight: 1,
    serves: [{ customer: 'northgate', ref: 'subject' }],
    topics: DIRECT,
    seed: 'settles',
  },
  {
    id: 'bw-ashby',
    name: 'Tom Ashby',
    address: 't.ashby@brightwell-foods.example',
    zone: 'uk',
    arrives: 1,
    weight: 3,
    serves: [{ customer: 'brightwell-foods', ref: 'subject' }],
    topics: DIRECT,
    seed: 'settles',
  },
  {
    id: 'bw-planning',
    name: 'Brightwell Planning',
    address: 'planning@brightwell-foods.example',
    zone: 'uk',
    arrives: 1,
    weight: 0,
    weekly: 1,
    serves: [{ customer: 'brightwell-foods', ref: 'attachment' }],
    topics: ['forecast'],
    crlf: true,
    seed: 'settles',
  },
  {
    id: 'bw-chilled',
    name: 'Brightwell Chilled Desk',
    address: 'chilled@brightwell-foods.example',
    zone: 'uk',
    arrives: 4,
    weight: 1,
    serves: [{ customer: 'brightwell-foods', ref: 'subject' }],
    topics: ['prealert', 'slot-reply'],
    seed: 'settles',
  },
  {
    id: 'kp-weiss',
    name: 'Anja Weiß',
    address: 'a.weiss@kestrel-pharma.example',
    zone: 'cet',
    arrives: 1,
    weight: 2,
    serves: [{ customer: 'kestrel-pharma', ref: 'subject' }],
    topics: DIRECT,
    seed: 'settles',
  },
  {
    id: 'kp-qa',
    name: 'Kestrel QA',
    address: 'qa@kestrel-pharma.example',
    zone: 'cet',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'kestrel-pharma', ref: 'body' }],
    topics: ['damage', 'storage'],
    seed: 'settles',
  },
  {
    id: 'kp-supply',
    name: 'Kestrel Supply Chain',
    address: 'supply@kestrel-pharma.example',
    zone: 'cet',
    arrives: 5,
    weight: 1,
    serves: [{ customer: 'kestrel-pharma', ref: 'subject' }],
    topics: ['booking', 'prealert'],
    seed: 'settles',
  },
  {
    id: 'hl-chen',
    name: 'Lin Chen',
    address: 'l.chen@harborlane.example',
    zone: 'uk',
    arrives: 1,
    weight: 2,
    serves: [{ customer: 'harbor-lane', ref: 'subject' }],
    topics: DIRECT,
    html: true,
    seed: 'settles',
  },
  {
    id: 'hl-accounts',
    name: 'Harbor Lane Accounts',
    address: 'accounts@harborlane.example',
    zone: 'uk',
    arrives: 6,
    weight: 1,
    serves: [{ customer: 'harbor-lane', ref: 'subject' }],
    topics: ['remittance'],
    seed: 'settles',
  },
  {
    id: 'alc-devries',
    name: 'Pieter de Vries',
    address: 'p.devries@alder-chem.example',
    zone: 'cet',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'alder-chemicals', ref: 'attachment' }],
    topics: ['booking', 'storage'],
    seed: 'settles',
  },
  {
    id: 'alc-dispatch',
    name: 'Alder Chemicals Logistics',
    address: 'dispatch@alderchem-logistics.example',
    zone: 'cet',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'alder-chemicals', ref: 'attachment' }],
    topics: ['prealert'],
    seed: 'settles',
  },
  {
    id: 'cve-returns',
    name: 'Corvid Returns',
    address: 'returns@corvid.example',
    zone: 'us-east',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'corvid-electronics', ref: 'subject' }],
    topics: ['collection', 'damage'],
    html: true,
    seed: 'settles',
  },
  {
    id: 'fjs-solberg',
    name: 'Ingrid Solberg',
    address: 'ingrid.solberg@fjordseafood.example',
    zone: 'cet',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'fjord-seafood', ref: 'subject' }],
    topics: ['booking', 'prealert'],
    seed: 'settles',
  },
  {
    id: 'mgc-supply',
    name: 'Marigold Supply',
    address: 'supply@marigold.example',
    zone: 'uk',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'marigold-cosmetics', ref: 'subject' }],
    topics: ['booking', 'collection'],
    html: true,
    seed: 'settles',
  },
  {
    id: 'pa-ferrer',
    name: 'Lucía Ferrer',
    address: 'l.ferrer@palmera-apparel.example',
    zone: 'cet',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'palmera-apparel', ref: 'subject' }],
    topics: ['booking', 'prealert'],
    seed: 'settles',
  },
  {
    id: 'qs-orders',
    name: 'Quarry Stone Orders',
    address: 'orders@quarrystone.example',
    zone: 'uk',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'quarry-stone', ref: 'body' }],
    topics: ['booking', 'collection'],
    seed: 'settles',
  },
  {
    id: 'll-dispatch',
    name: 'Lumen Lighting Dispatch',
    address: 'dispatch@lumen-lighting.example',
    zone: 'uk',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'lumen-lighting', ref: 'subject' }],
    topics: ['collection', 'prealert'],
    html: true,
    seed: 'settles',
  },

  // Brokers and hauliers who write for several customers: only the reference tells whose it is.
  {
    id: 'clearpath',
    name: 'Clearpath Customs Entries',
    address: 'entries@clearpath-customs.example',
    company: 'Clearpath Customs Brokers',
    zone: 'uk',
    arrives: 1,
    weight: 2,
    serves: [
      { customer: 'corvid-electronics', ref: 'subject' },
      { customer: 'brightwell-foods', ref: 'subject' },
      { customer: 'kestrel-pharma', ref: 'body' },
    ],
    topics: ['customs'],
    seed: 'settles',
  },
  {
    id: 'roadline',
    name: 'Roadline Planning',
    address: 'planning@roadline-haulage.example',
    company: 'Roadline Haulage',
    zone: 'uk',
    arrives: 1,
    weight: 2,
    serves: [
      { customer: 'tidewater-paper', ref: 'body' },
      { customer: 'northgate', ref: 'subject' },
      { customer: 'quarry-stone', ref: 'body' },
    ],
    topics: ['haulage'],
    seed: 'settles',
  },
  {
    id: 'roadline-unknown-ref',
    name: 'Roadline Planning',
    address: 'planning@roadline-haulage.example',
    company: 'Roadline Haulage',
    zone: 'uk',
    arrives: 1,
    weight: 0,
    weekly: 4,
    serves: [
      { customer: 'pinnacle-audio', ref: 'subject' },
      { customer: 'oakridge-furniture', ref: 'subject' },
    ],
    topics: ['haulage'],
    seed: 'asks',
    remember: false,
    why: 'Roadline hauls for several customers: its address cannot say whose a message is, and the reference format is one the operator would have to write a pattern for',
  },

  // A forwarder that bills on Northgate's behalf: the seed does not know it.
  {
    id: 'ob-billing',
    name: 'Origin Billing',
    address: 'billing@origin.example',
    company: 'Origin Forwarding Services',
    zone: 'uk',
    arrives: 1,
    weight: 3,
    serves: [{ customer: 'northgate', ref: 'body' }],
    topics: ['invoice'],
    crlf: true,
    seed: 'asks',
  },

  // Customers the seed has no marks for: each new sender is asked about once, then taught.
  {
    id: 'pin-morgan',
    name: 'Rhys Morgan',
    address: 'r.morgan@pinnacle-audio.example',
    zone: 'uk',
    arrives: 1,
    weight: 2,
    serves: [{ customer: 'pinnacle-audio', ref: 'subject' }],
    topics: DIRECT,
    seed: 'asks',
  },
  {
    id: 'pin-goodsin',
    name: 'Pinnacle Audio Goods-In',
    address: 'goodsin@pinnacle-audio.example',
    zone: 'uk',
    arrives: 3,
    weight: 1,
    serves: [{ customer: 'pinnacle-audio', ref: 'subject' }],
    topics: ['prealert', 'damage'],
    seed: 'asks',
  },
  {
    id: 'oak-whitlock',
    name: 'Helen Whitlock',
    address: 'h.whitlock@oakridge-furniture.example',
    zone: 'uk',
    arrives: 1,
    weight: 2,
    serves: [{ customer: 'oakridge-furniture', ref: 'subject' }],
    topics: DIRECT,
    html: true,
    seed: 'asks',
  },
  {
    id: 'oak-accounts',
    name: 'Oakridge Accounts',
    address: 'accounts@oakridge-furniture.example',
    zone: 'uk',
    arrives: 1,
    weight: 0,
    weekly: 5,
    serves: [{ customer: 'oakridge-furniture', ref: 'subject' }],
    topics: ['remittance'],
    seed: 'asks',
  },
  {
    id: 'oak-barnes',
    name: 'James Barnes',
    address: 'j.barnes@oakridge-furniture.example',
    zone: 'uk',
    arrives: 2,
    weight: 1,
    serves: [{ customer: 'oakridge-furniture', ref: 'subject' }],
    topics: ['booking', 'collection'],
    seed: 'asks',
  },
  {
    id: 'sw-bond',
    name: 'Saltmarsh Bonded Stores',
    address: 'bond@saltmarsh-wines.example',
    zone: 'uk',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'saltmarsh-wines', ref: 'subject' }],
    topics: ['storage', 'collection'],
    crlf: true,
    seed: 'asks',
  },
  {
    id: 'sw-shipping',
    name: 'Saltmarsh Wines Shipping',
    address: 'shipping@saltmarsh-wines.example',
    zone: 'uk',
    arrives: 6,
    weight: 1,
    serves: [{ customer: 'saltmarsh-wines', ref: 'subject' }],
    topics: ['booking'],
    seed: 'asks',
  },
  {
    id: 'bv-berard',
    name: 'Élodie Bérard',
    address: 'e.berard@berard-vins.example',
    zone: 'cet',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'berard-vins', ref: 'subject' }],
    topics: ['booking', 'prealert'],
    seed: 'asks',
  },
  {
    id: 'vb-ops',
    name: 'Vireo Bikes Ops',
    address: 'ops@vireo-bikes.example',
    zone: 'uk',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'vireo-bikes', ref: 'subject' }],
    topics: ['booking', 'damage'],
    seed: 'asks',
  },
  {
    id: 'vb-okafor',
    name: 'Sam Okafor',
    address: 's.okafor@vireo-bikes.example',
    zone: 'uk',
    arrives: 4,
    weight: 1,
    serves: [{ customer: 'vireo-bikes', ref: 'subject' }],
    topics: ['collection', 'slot-reply'],
    seed: 'asks',
  },
  {
    id: 'gt-mehta',
    name: 'Priya Mehta',
    address: 'p.mehta@greystone-tools.example',
    zone: 'uk',
    arrives: 1,
    weight: 2,
    serves: [{ customer: 'greystone-tools', ref: 'subject' }],
    topics: DIRECT,
    seed: 'asks',
  },
  {
    id: 'mm-urgent',
    name: 'Meridian Urgent Desk',
    address: 'urgent@meridian-medical.example',
    zone: 'uk',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'meridian-medical', ref: 'subject' }],
    topics: ['booking', 'collection'],
    html: true,
    seed: 'asks',
  },
  {
    id: 'ht-billing',
    name: 'Hollis Toys Billing',
    address: 'billing@origin-example.example',
    zone: 'uk',
    arrives: 1,
    weight: 1,
    serves: [{ customer: 'hollis-toys', ref: 'subject' }],
    topics: ['remittance', 'booking'],
    seed: 'asks',
  },
  {
    id: 'scr-stock',
    name: 'Sable Coffee Stock',
    address: 'stock@sablecoffee.example',
    zone: 'uk',
    arrives: 1,
    weight: 0,
    weekly: 3,
    serves: [{ customer: 'sable-coffee', ref: 'attachment' }],
    topics: ['stock-report'],
    seed: 'asks',
  },
  {
    id: 'scr-roastery',
    name: 'Sable Roastery',
    address: 'roastery@sablecoffee.example',
    zone: 'uk',
    arrives: 2,
    weight: 1,
    serves: [{ customer: 'sable-coffee', ref: 'subject' }],
    topics: ['booking', 'collection'],
    seed: 'asks',
  },
  {
    id: 'dc-claims',
    name: 'Dunmore Ceramics Claims',
    address: 'claims@dunmore-ceramics.example',
    zone: 'uk',
    arrives: 2,
    weight: 1,
    serves: [{ customer: 'dunmore-ceramics', ref: 'subject' }],
    topics: ['damage', 'collection'],
    seed: 'asks',
  },
  {
    id: 'zp-braendli',
    name: 'Urs Brändli',
    address: 'u.braendli@zurich-praezision.example',
    zone: 'cet',
    arrives: 3,
    weight: 1,
    serves: [{ customer: 'zurich-prazision', ref: 'subject' }],
    topics: ['storage', 'booking'],
    seed: 'asks',
  },
  {
    id: 'iog-orders',
    name: 'Ironbark Outdoor Orders',
    address: 'orders@ironbark-outdoor.example',
    zone: 'uk',
    arrives: 3,
    weight: 1,
    serves: [{ customer: 'ironbark-outdoor', ref: 'subject' }],
    topics: ['booking', 'prealert'],
    seed: 'asks',
  },
  {
    id: 'cb-dispatch',
    name: 'Copperfield Books Dispatch',
    address: 'dispatch@copperfield-books.example',
    zone: 'uk',
    arrives: 5,
    weight: 1,
    serves: [{ customer: 'copperfield-books', ref: 'subject' }],
    topics: ['booking', 'collection'],
    seed: 'asks',
  },

  // Mail that reached a colleague first and was forwarded to intake: the forwarder is not the customer.
  {
    id: 'fwd-gt-purchasing',
    name: 'Greystone Purchasing',
    address: 'purchasing@greystone-tools.example',
    zone: 'uk',
    arrives: 1,
    weight: 1,
    forwardedBy: OPS,
    serves: [{ customer: 'greystone-tools', ref: 'body' }],
    topics: ['booking', 'collection'],
    seed: 'asks',
  },
  {
    id: 'fwd-ngm-yard',
    name: 'Northgate Yard',
    address: 'yard@northgate-motors.example',
    zone: 'uk',
    arrives: 2,
    weight: 1,
    forwardedBy: OPS,
    serves: [{ customer: 'northgate', ref: 'body' }],
    topics: ['collection', 'slot-reply'],
    seed: 'asks',
  },
  {
    id: 'fwd-mm-purchasing',
    name: 'Meridian Purchasing',
    address: 'purchasing@meridian-medical.example',
    zone: 'uk',
    arrives: 4,
    weight: 1,
    forwardedBy: OPS,
    serves: [{ customer: 'meridian-medical', ref: 'body' }],
    topics: ['booking'],
    seed: 'asks',
  },
];

// ---------------------------------------------------------------------------------------------
// Manifests

export type ManifestField = 'waybill' | 'consignee' | 'origin' | 'destination' | 'pieces' | 'weight' | 'description';

export interface Forwarder {
  readonly id: string;
  readonly name: string;
  /** Short code used in file names and house references. */
  readonly code: string;
  readonly format: 'xlsx' | 'csv';
  /** CSV separator. */
  readonly separator?: ',' | ';';
  /** Title rows above the header (xlsx only). */
  readonly title?: boolean;
  /** The header row: each field's heading, in column order; `extra` columns carry no field. */
  readonly columns: readonly ({ readonly field: ManifestField; readonly heading: string } | { readonly extra: string })[];
  /** Manifests it sends in each week (index 0 = week 1), and on which weekdays (1 = Monday). */
  readonly perWeek: readonly number[];
  readonly weekdays: readonly number[];
  readonly seed: 'settles' | 'asks';
}

const f = (field: ManifestField, heading: string) => ({ field, heading });

export const FORWARDERS: readonly Forwarder[] = [
  {
    id: 'atlas',
    name: 'Atlas Consolidators',
    code: 'ATL',
    format: 'xlsx',
    columns: [
      f('waybill', 'Waybill'),
      f('consignee', 'Consignee'),
      f('origin', 'Origin'),
      f('destination', 'Destination'),
      f('pieces', 'Pieces'),
      f('weight', 'Gross Weight (kg)'),
      f('description', 'Description'),
    ],
    perWeek: [2, 2, 2, 2, 2, 2],
    weekdays: [1, 4],
    seed: 'settles',
  },
  {
    id: 'blue-harbour',
    name: 'Blue Harbour Logistics',
    code: 'BHL',
    format: 'csv',
    separator: ',',
    columns: [
      f('waybill', 'AWB'),
      f('consignee', 'Receiver'),
      f('origin', 'From'),
      f('destination', 'To'),
      f('pieces', 'Pcs'),
      f('weight', 'Weight'),
      { extra: 'Unit' },
      f('description', 'Commodity'),
    ],
    perWeek: [1, 1, 1, 1, 1, 1],
    weekdays: [2],
    seed: 'settles',
  },
  {
    id: 'eurolink',
    name: 'Eurolink Cargo',
    code: 'EUL',
    format: 'csv',
    separator: ';',
    columns: [
      f('waybill', 'MAWB'),
      f('consignee', 'Consignee Name'),
      f('origin', 'Origin Airport'),
      f('destination', 'Destination Airport'),
      f('pieces', 'Packages'),
      f('weight', 'Gross Wt'),
      f('description', 'Goods Description'),
    ],
    perWeek: [1, 1, 1, 1, 1, 1],
    weekdays: [5],
    seed: 'settles',
  },
  {
    id: 'skyline',
    name: 'Skyline Air Cargo',
    code: 'SKY',
    format: 'xlsx',
    title: true,
    columns: [
      f('waybill', 'Air Waybill No'),
      f('consignee', 'Consignee'),
      f('origin', 'Departure'),
      f('destination', 'Dest'),
      f('pieces', 'Pcs'),
      f('weight', 'Gross Wt'),
      f('description', 'Nature of Goods'),
    ],
    perWeek: [2, 1, 1, 1, 0, 1],
    weekdays: [3, 5],
    seed: 'asks',
  },
  {
    id: 'nordic',
    name: 'Nordic Freight Partners',
    code: 'NFP',
    format: 'csv',
    separator: ',',
    columns: [
      f('waybill', 'HAWB Number'),
      { extra: 'Ship To' },
      { extra: 'POL' },
      { extra: 'POD' },
      { extra: 'Ctns' },
      f('weight', 'Weight (kg)'),
      { extra: 'Goods' },
    ],
    perWeek: [1, 1, 0, 1, 0, 0],
    weekdays: [4],
    seed: 'asks',
  },
  {
    id: 'pacific-rim',
    name: 'Pacific Rim Forwarding',
    code: 'PRF',
    format: 'xlsx',
    columns: [
      { extra: 'Booking Ref' },
      f('waybill', 'Shipment Ref'),
      f('consignee', 'Consignee'),
      f('origin', 'Origin'),
      f('destination', 'Destination'),
      f('pieces', 'Pieces'),
      f('weight', 'Weight'),
      f('description', 'Description'),
    ],
    perWeek: [0, 1, 1, 0, 1, 0],
    weekdays: [2],
    seed: 'asks',
  },
  {
    id: 'condor',
    name: 'Condor Express',
    code: 'CDX',
    format: 'csv',
    separator: ',',
    columns: [
      f('waybill', 'AWB #'),
      f('consignee', 'Consignee'),
      f('origin', 'Origin'),
      f('destination', 'Dest'),
      f('pieces', 'Qty'),
      f('weight', 'Gross Weight'),
      f('description', 'Commodity'),
    ],
    perWeek: [0, 0, 1, 0, 1, 0],
    weekdays: [1],
    seed: 'asks',
  },
  {
    id: 'sahara',
    name: 'Sahara Air Logistics',
    code: 'SAL',
    format: 'xlsx',
    title: true,
    columns: [
      f('waybill', 'Air Waybill Number'),
      f('consignee', 'Receiver'),
      f('origin', 'Origin Airport'),
      f('destination', 'Destination Airport'),
      f('pieces', 'No. of Pieces'),
      f('weight', 'Gross Weight (kg)'),
      f('description', 'Commodity'),
    ],
    perWeek: [0, 0, 0, 1, 0, 1],
    weekdays: [3],
    seed: 'asks',
  },
  {
    id: 'polar',
    name: 'Polar Link Cargo',
    code: 'PLC',
    format: 'xlsx',
    columns: [
      f('waybill', 'House Bill No'),
      f('consignee', 'Consignee'),
      f('origin', 'From'),
      f('destination', 'To'),
      f('pieces', 'Packages'),
      f('weight', 'Weight (kg)'),
      f('description', 'Goods Description'),
    ],
    perWeek: [0, 0, 0, 0, 1, 0],
    weekdays: [4],
    seed: 'asks',
  },
  {
    id: 'kite',
    name: 'Kite Air Freight',
    code: 'KAF',
    format: 'csv',
    separator: ',',
    columns: [
      f('waybill', 'Air Waybill No'),
      f('consignee', 'Consignee'),
      f('origin', 'Origin'),
      f('destination', 'Destination'),
      f('pieces', 'Pieces'),
      f('weight', 'Gross Weight (kg)'),
      f('description', 'Description'),
    ],
    perWeek: [0, 0, 0, 0, 0, 1],
    weekdays: [2],
    seed: 'asks',
  },
];

export const pickGoods = (random: Random, customer: Customer) => pick(random, customer.goods);
