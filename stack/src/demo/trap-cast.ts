// Who writes to the intake mailbox in the trap scenario (make-trap-scenario.ts): two casts written
// apart, `main` (committed under fixtures/trap-scenario) and `holdout` (a different seed, other
// customers, other wording and layouts; generated on demand, never tuned on). Customers are keys
// of fixtures/seeds/customers.json; every domain is `.example` or `.invalid`.
import type { Random } from '@learnables/testing';
import { between, digits } from '@learnables/testing';
import type { Zone } from './cast.ts';

export type TrapVariant = 'main' | 'holdout';

/** The customer as the traffic names it. `name` is how the portal and hauliers spell it. */
export interface TrapCustomer {
  readonly key: string;
  readonly name: string;
  readonly ref: (random: Random) => string;
  readonly goods: readonly string[];
}

/**
 * How a sender's messages reach intake:
 * - `direct`: from the sender itself;
 * - `portal`: a booking portal's automated address, for several customers; its mail names the
 *   customer (`named` of the time) and quotes the customer's reference;
 * - `haulier`: a haulier or broker writing for several customers, by name or reference;
 * - `forwarded`: a colleague at the warehouse forwards it from their own inbox, in a layout;
 * - `nobody`: mail that is no customer's (newsletters, maintenance and internal notices);
 * - `phish`: a look-alike of a customer's domain, asking for money; no customer's either.
 */
export type TrapKind = 'direct' | 'portal' | 'haulier' | 'forwarded' | 'nobody' | 'phish';

/** The mail programs a forward comes from, each with its own header block and subject prefix. */
export type ForwardLayout = 'gmail' | 'apple' | 'outlook-mailto' | 'outlook-de' | 'outlook-fr' | 'outlook-it' | 'outlook-es' | 'edited-subject' | 'quoted';

export interface TrapSender {
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly kind: TrapKind;
  readonly zone: Zone;
  /** The week (1–6) of its first message. */
  readonly arrives: number;
  /** How often it writes among the drawn messages (0: only on `weekly` days or `times`). */
  readonly weight: number;
  /** Writes every week on this weekday (1 = Monday). */
  readonly weekly?: number;
  /** Writes exactly in these weeks, once each (notices, phishing). */
  readonly weeks?: readonly number[];
  /** Whose mail it is; empty for `nobody` and `phish` (the truth is the seed's `no-customer`). */
  readonly serves: readonly string[];
  /** For `portal` and `haulier`: the share of messages that name the customer (the rest quote only a reference). */
  readonly named?: number;
  /** For `forwarded`: who forwards it and how. */
  readonly forward?: { readonly clerk: string; readonly layouts: readonly ForwardLayout[] };
  /** For `nobody`: what kind of notice. */
  readonly notice?: 'newsletter' | 'maintenance' | 'internal' | 'carrier-news';
  readonly company?: string;
}

/** A colleague at the warehouse who forwards mail, with the signature their mail program adds. */
export interface Clerk {
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly signature: string;
  /** What they write above the forward, in their own language. */
  readonly notes: readonly string[];
}

export interface TrapCast {
  readonly variant: TrapVariant;
  readonly seed: number;
  readonly firstMonday: number;
  readonly warehouse: { readonly name: string; readonly intake: string; readonly domain: string };
  readonly customers: ReadonlyMap<string, TrapCustomer>;
  readonly clerks: ReadonlyMap<string, Clerk>;
  readonly senders: readonly TrapSender[];
  /** Messages drawn per week besides the scheduled ones. */
  readonly drawsPerWeek: readonly [number, number];
}

const customer = (key: string, name: string, ref: (random: Random) => string, goods: string[]): [string, TrapCustomer] => [key, { key, name, ref, goods }];

// ---------------------------------------------------------------------------------------------
// main: the committed stream.

const MAIN_WAREHOUSE = { name: 'Harbourgate Logistics', intake: 'intake@harbourgate.example', domain: 'harbourgate.example' };
// The warehouse's own address, phone numbers and EORI stand in every clerk's signature: text that
// is in every forward, whoever it concerns.
const MAIN_SIGNATURE_TAIL = `Harbourgate Logistics Ltd\nUnit 7, Thames Gateway Park, Grays RM20 3XD\nT +44 (0)1375 555 014 | F +44 (0)1375 555 015\nEORI GB287553102000`;

const MAIN: TrapCast = {
  variant: 'main',
  seed: 20261005,
  firstMonday: Date.UTC(2026, 9, 5),
  warehouse: MAIN_WAREHOUSE,
  drawsPerWeek: [22, 26],
  customers: new Map([
    customer('brightwell-foods', 'Brightwell Foods plc', (r) => `BW-${between(r, 88300, 89999)}`, ['chilled ready meals', 'ambient groceries', 'yoghurt']),
    customer('kestrel-pharma', 'Kestrel Pharma GmbH', (r) => `KP/2026/${between(r, 4100, 4999)}`, ['vaccines (2-8 C)', 'blister packs']),
    customer('harbor-lane', 'Harbor Lane Textiles', (r) => `HLT-${digits(r, 5)}`, ['cotton rolls', 'linen bales']),
    customer('pinnacle-audio', 'Pinnacle Audio Ltd', (r) => `PA-2026-09${between(r, 10, 99)}`, ['speaker cabinets', 'amplifiers']),
    customer('oakridge-furniture', 'Oakridge Furniture Co.', (r) => `OFC-${digits(r, 5)}`, ['oak dining tables', 'flat-pack wardrobes']),
    customer('vireo-bikes', 'Vireo Bikes Ltd', (r) => `VB-${digits(r, 5)}`, ['bike frames', 'e-bike batteries']),
    customer('greystone-tools', 'Greystone Tools plc', (r) => `GT-${digits(r, 6)}`, ['power drills', 'saw blades']),
    customer('meridian-medical', 'Meridian Medical Supplies', (r) => `MMS-${digits(r, 5)}`, ['syringes', 'nitrile gloves']),
    customer('sable-coffee', 'Sable Coffee Roasters', (r) => `SCR-${digits(r, 4)}`, ['green coffee sacks', 'roasted coffee cartons']),
    customer('dunmore-ceramics', 'Dunmore Ceramics', (r) => `DC-${digits(r, 4)}`, ['tableware', 'glazed tiles']),
  ]),
  clerks: new Map([
    [
      'price',
      {
        id: 'price',
        notes: ['Came to me by mistake, please book in.', 'For intake - can someone pick this up?', 'Please action.'],
        name: 'Danny Price',
        address: 'd.price@harbourgate.example',
        signature: `Danny Price\nGoods-in supervisor\n${MAIN_SIGNATURE_TAIL}\nM 07700 900 123`,
      },
    ],
    [
      'krause',
      {
        id: 'krause',
        notes: ['Bitte einbuchen, danke.', 'Zur Bearbeitung.'],
        name: 'Jana Krause',
        address: 'j.krause@harbourgate.example',
        signature: `Viele Grüße\nJana Krause\nKundenservice | ${MAIN_SIGNATURE_TAIL}`,
      },
    ],
    [
      'moreau',
      {
        id: 'moreau',
        notes: ['Pour traitement, merci.', 'Merci de réserver un créneau.'],
        name: 'Fabienne Moreau',
        address: 'f.moreau@harbourgate.example',
        signature: `Cordialement,\nFabienne Moreau\nCustomer service\n${MAIN_SIGNATURE_TAIL}`,
      },
    ],
    [
      'rossi',
      {
        id: 'rossi',
        notes: ['Da gestire, grazie.', 'Per voi.'],
        name: 'Marco Rossi',
        address: 'm.rossi@harbourgate.example',
        signature: `Marco Rossi | Night shift lead\n${MAIN_SIGNATURE_TAIL}`,
      },
    ],
  ]),
  senders: [
    // The seed knows these customers by their domain.
    {
      id: 'bw-ashby',
      name: 'Tom Ashby',
      address: 't.ashby@brightwell-foods.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 3,
      serves: ['brightwell-foods'],
    },
    {
      id: 'kp-weiss',
      name: 'Anja Weiß',
      address: 'a.weiss@kestrel-pharma.example',
      kind: 'direct',
      zone: 'cet',
      arrives: 1,
      weight: 2,
      serves: ['kestrel-pharma'],
    },
    { id: 'hl-chen', name: 'Lin Chen', address: 'l.chen@harborlane.example', kind: 'direct', zone: 'uk', arrives: 1, weight: 1, serves: ['harbor-lane'] },
    // Customers the seed has no marks for.
    {
      id: 'pin-morgan',
      name: 'Rhys Morgan',
      address: 'r.morgan@pinnacle-audio.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 3,
      serves: ['pinnacle-audio'],
    },
    {
      id: 'oak-whitlock',
      name: 'Helen Whitlock',
      address: 'h.whitlock@oakridge-furniture.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 3,
      serves: ['oakridge-furniture'],
    },
    {
      id: 'oak-accounts',
      name: 'Oakridge Accounts',
      address: 'accounts@oakridge-furniture.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 0,
      weekly: 5,
      serves: ['oakridge-furniture'],
    },
    { id: 'vb-ops', name: 'Vireo Bikes Ops', address: 'ops@vireo-bikes.example', kind: 'direct', zone: 'uk', arrives: 1, weight: 2, serves: ['vireo-bikes'] },
    {
      id: 'gt-mehta',
      name: 'Priya Mehta',
      address: 'p.mehta@greystone-tools.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 2,
      serves: ['greystone-tools'],
    },
    {
      id: 'mms-orders',
      name: 'Meridian Orders',
      address: 'orders@meridian-medical.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 2,
      serves: ['meridian-medical'],
    },
    {
      id: 'scr-stock',
      name: 'Sable Coffee Stock',
      address: 'stock@sablecoffee.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 0,
      weekly: 3,
      serves: ['sable-coffee'],
    },
    {
      id: 'dc-claims',
      name: 'Dunmore Ceramics Claims',
      address: 'claims@dunmore-ceramics.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 2,
      weight: 1,
      serves: ['dunmore-ceramics'],
    },
    // A booking portal's automated address, for three customers: only the name or reference tells them apart.
    {
      id: 'dockslot',
      name: 'DockSlot Bookings',
      address: 'noreply@dockslot-portal.example',
      kind: 'portal',
      zone: 'uk',
      arrives: 1,
      weight: 4,
      serves: ['pinnacle-audio', 'oakridge-furniture', 'vireo-bikes'],
      named: 0.85,
      company: 'DockSlot',
    },
    // A haulier that writes for a seeded customer and two that are not.
    {
      id: 'swiftline',
      name: 'Swiftline Traffic',
      address: 'traffic@swiftline-haulage.example',
      kind: 'haulier',
      zone: 'uk',
      arrives: 1,
      weight: 3,
      serves: ['greystone-tools', 'brightwell-foods', 'meridian-medical'],
      named: 0.8,
      company: 'Swiftline Haulage',
    },
    // Forwarded by colleagues, each in their own mail program's layout.
    {
      id: 'fw-oak',
      name: 'Helen Whitlock',
      address: 'h.whitlock@oakridge-furniture.example',
      kind: 'forwarded',
      zone: 'uk',
      arrives: 1,
      weight: 1,
      serves: ['oakridge-furniture'],
      forward: { clerk: 'price', layouts: ['outlook-mailto', 'edited-subject'] },
    },
    {
      id: 'fw-gt-purchasing',
      name: 'Greystone Purchasing',
      address: 'purchasing@greystone-tools.example',
      kind: 'forwarded',
      zone: 'uk',
      arrives: 2,
      weight: 1,
      serves: ['greystone-tools'],
      forward: { clerk: 'price', layouts: ['outlook-mailto', 'gmail'] },
    },
    {
      id: 'fw-kp-logistik',
      name: 'Kestrel Logistik',
      address: 'logistik@kestrel-pharma.example',
      kind: 'forwarded',
      zone: 'cet',
      arrives: 1,
      weight: 1,
      serves: ['kestrel-pharma'],
      forward: { clerk: 'krause', layouts: ['outlook-de'] },
    },
    {
      id: 'fw-scr-roastery',
      name: 'Sable Roastery',
      address: 'roastery@sablecoffee.example',
      kind: 'forwarded',
      zone: 'uk',
      arrives: 2,
      weight: 1,
      serves: ['sable-coffee'],
      forward: { clerk: 'moreau', layouts: ['outlook-fr'] },
    },
    {
      id: 'fw-mms-urgent',
      name: 'Meridian Urgent Desk',
      address: 'urgent@meridian-medical.example',
      kind: 'forwarded',
      zone: 'uk',
      arrives: 3,
      weight: 1,
      serves: ['meridian-medical'],
      forward: { clerk: 'rossi', layouts: ['outlook-it', 'apple'] },
    },
    // Look-alike domains asking for payment: nobody's.
    {
      id: 'phish-bw',
      name: 'Brightwell Foods Accounts',
      address: 'accounts@brightwell-foods.example-remit.invalid',
      kind: 'phish',
      zone: 'uk',
      arrives: 2,
      weight: 0,
      weeks: [2, 4, 6],
      serves: [],
    },
    {
      id: 'phish-kp',
      name: 'Kestrel Pharma Buchhaltung',
      address: 'rechnung@kestrel-pharma.example.secure-docs.invalid',
      kind: 'phish',
      zone: 'cet',
      arrives: 3,
      weight: 0,
      weeks: [3, 5],
      serves: [],
    },
    // Nobody's mail.
    {
      id: 'freightweek',
      name: 'FreightWeek',
      address: 'newsletter@freightweek.example',
      kind: 'nobody',
      zone: 'uk',
      arrives: 1,
      weight: 0,
      weekly: 1,
      serves: [],
      notice: 'newsletter',
      company: 'FreightWeek',
    },
    {
      id: 'it-service',
      name: 'Harbourgate IT Service Desk',
      address: 'servicedesk@harbourgate.example',
      kind: 'nobody',
      zone: 'uk',
      arrives: 1,
      weight: 0,
      weeks: [1, 3, 5, 6],
      serves: [],
      notice: 'maintenance',
    },
    {
      id: 'facilities',
      name: 'Harbourgate Facilities',
      address: 'facilities@harbourgate.example',
      kind: 'nobody',
      zone: 'uk',
      arrives: 2,
      weight: 0,
      weeks: [2, 4, 6],
      serves: [],
      notice: 'internal',
    },
    // New senders late in the six weeks.
    {
      id: 'oak-barnes',
      name: 'James Barnes',
      address: 'j.barnes@oakridge-furniture.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 5,
      weight: 1,
      serves: ['oakridge-furniture'],
    },
    {
      id: 'kp-supply',
      name: 'Kestrel Supply Chain',
      address: 'supply@kestrel-pharma.example',
      kind: 'direct',
      zone: 'cet',
      arrives: 5,
      weight: 1,
      serves: ['kestrel-pharma'],
    },
    {
      id: 'pin-goodsin',
      name: 'Pinnacle Audio Goods-In',
      address: 'goodsin@pinnacle-audio.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 6,
      weight: 1,
      serves: ['pinnacle-audio'],
    },
    {
      id: 'northbay',
      name: 'Northbay Transport Bookings',
      address: 'bookings@northbay-transport.example',
      kind: 'haulier',
      zone: 'uk',
      arrives: 5,
      weight: 1,
      serves: ['vireo-bikes', 'dunmore-ceramics'],
      named: 0.9,
      company: 'Northbay Transport',
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// holdout: written apart from main, never used to tune the agent. Other customers, other
// portal and hauliers, other clerks and layouts, other wording.

const HOLDOUT_SIGNATURE_TAIL = `Meadowcross Distribution GmbH & Co. KG\nHafenstraße 112, 47119 Duisburg, Germany\nTel. +49 203 555 8710 · Fax +49 203 555 8719\nUSt-IdNr. DE811907436 · HRB 30117`;

const HOLDOUT: TrapCast = {
  variant: 'holdout',
  seed: 77102611,
  firstMonday: Date.UTC(2027, 0, 4),
  warehouse: { name: 'Meadowcross Distribution', intake: 'wareneingang@meadowcross.example', domain: 'meadowcross.example' },
  drawsPerWeek: [21, 27],
  customers: new Map([
    customer('northgate', 'Northgate Motors Ltd', (r) => `NGM/2027/${between(r, 1200, 1899)}`, ['gearbox housings', 'brake assemblies']),
    customer('corvid-electronics', 'Corvid Electronics Inc.', (r) => `CVE-${between(r, 204600, 209999)}`, ['circuit boards', 'display modules']),
    customer('fjord-seafood', 'Fjord Seafood AS', (r) => `FJS-${between(r, 5000, 5999)}`, ['frozen salmon', 'cod loins']),
    customer('saltmarsh-wines', 'Saltmarsh Wines Ltd', (r) => `SWB-${digits(r, 4)}`, ['claret', 'port (in bond)']),
    customer('berard-vins', 'Société Bérard Vins SARL', (r) => `BV-2027-${digits(r, 3)}`, ['Bordeaux', 'champagne']),
    customer('zurich-prazision', 'Zürich Präzisionsteile AG', (r) => `ZP-2027-${digits(r, 4)}`, ['precision bearings', 'machined shafts']),
    customer('ironbark-outdoor', 'Ironbark Outdoor Gear', (r) => `IOG-${digits(r, 5)}`, ['tents', 'rucksacks']),
    customer('copperfield-books', 'Copperfield Books Ltd', (r) => `CB-${digits(r, 5)}`, ['book cartons', 'stationery']),
    customer('hollis-toys', 'Hollis Toys Ltd', (r) => `HT-${digits(r, 4)}`, ['board games', 'plush toys']),
    customer('lumen-lighting', 'Lumen Lighting Ltd', (r) => `LL-${digits(r, 5)}`, ['LED panels', 'track lights']),
  ]),
  clerks: new Map([
    [
      'becker',
      {
        id: 'becker',
        notes: ['Bitte bearbeiten.', 'Landete bei mir, bitte übernehmen.'],
        name: 'Lukas Becker',
        address: 'l.becker@meadowcross.example',
        signature: `Mit freundlichen Grüßen\nLukas Becker\nDisposition\n${HOLDOUT_SIGNATURE_TAIL}`,
      },
    ],
    [
      'garcia',
      {
        id: 'garcia',
        notes: ['Para vosotros, gracias.', 'Os lo reenvío.'],
        name: 'Lucía García',
        address: 'l.garcia@meadowcross.example',
        signature: `Lucía García – Atención al cliente\n${HOLDOUT_SIGNATURE_TAIL}\nMóvil +34 655 555 219`,
      },
    ],
    [
      'okafor',
      {
        id: 'okafor',
        notes: ['Landed in my inbox - over to you.', 'FYI and action please.'],
        name: 'Sam Okafor',
        address: 's.okafor@meadowcross.example',
        signature: `Thanks,\nSam\n${HOLDOUT_SIGNATURE_TAIL}`,
      },
    ],
  ]),
  senders: [
    {
      id: 'ngm-parry',
      name: 'Amy Parry',
      address: 'a.parry@northgate-motors.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 3,
      serves: ['northgate'],
    },
    {
      id: 'cve-returns',
      name: 'Corvid Returns',
      address: 'returns@corvid.example',
      kind: 'direct',
      zone: 'us-east',
      arrives: 1,
      weight: 2,
      serves: ['corvid-electronics'],
    },
    {
      id: 'fjs-solberg',
      name: 'Ingrid Solberg',
      address: 'ingrid.solberg@fjordseafood.example',
      kind: 'direct',
      zone: 'cet',
      arrives: 1,
      weight: 1,
      serves: ['fjord-seafood'],
    },
    {
      id: 'sw-bond',
      name: 'Saltmarsh Bonded Stores',
      address: 'bond@saltmarsh-wines.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 2,
      serves: ['saltmarsh-wines'],
    },
    {
      id: 'bv-berard',
      name: 'Élodie Bérard',
      address: 'e.berard@berard-vins.example',
      kind: 'direct',
      zone: 'cet',
      arrives: 1,
      weight: 2,
      serves: ['berard-vins'],
    },
    {
      id: 'zp-braendli',
      name: 'Urs Brändli',
      address: 'u.braendli@zurich-praezision.example',
      kind: 'direct',
      zone: 'cet',
      arrives: 1,
      weight: 2,
      serves: ['zurich-prazision'],
    },
    {
      id: 'iog-orders',
      name: 'Ironbark Outdoor Orders',
      address: 'orders@ironbark-outdoor.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 0,
      weekly: 2,
      serves: ['ironbark-outdoor'],
    },
    {
      id: 'cb-dispatch',
      name: 'Copperfield Books Dispatch',
      address: 'dispatch@copperfield-books.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 2,
      serves: ['copperfield-books'],
    },
    {
      id: 'ht-billing',
      name: 'Hollis Toys Warehouse Team',
      address: 'warehouse@hollistoys.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 1,
      weight: 2,
      serves: ['hollis-toys'],
    },
    {
      id: 'll-dispatch',
      name: 'Lumen Lighting Dispatch',
      address: 'dispatch@lumen-lighting.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 2,
      weight: 1,
      serves: ['lumen-lighting'],
    },
    // The portal here writes from a "do-not-reply" address and heads the customer "Account".
    {
      id: 'slotbook',
      name: 'SlotBook Notifications',
      address: 'do-not-reply@notify.slotbook.example',
      kind: 'portal',
      zone: 'cet',
      arrives: 1,
      weight: 4,
      serves: ['saltmarsh-wines', 'ironbark-outdoor', 'copperfield-books'],
      named: 0.8,
      company: 'SlotBook',
    },
    // A customs broker for a seeded customer (CVE- in the subject) and two unseeded ones.
    {
      id: 'kerrigan',
      name: 'Kerrigan Customs Entries',
      address: 'entries@kerrigan-customs.example',
      kind: 'haulier',
      zone: 'uk',
      arrives: 1,
      weight: 3,
      serves: ['berard-vins', 'corvid-electronics', 'hollis-toys'],
      named: 0.75,
      company: 'Kerrigan Customs Brokers',
    },
    {
      id: 'fw-zp',
      name: 'Zürich Präzision Versand',
      address: 'versand@zurich-praezision.example',
      kind: 'forwarded',
      zone: 'cet',
      arrives: 1,
      weight: 1,
      serves: ['zurich-prazision'],
      forward: { clerk: 'becker', layouts: ['outlook-de', 'quoted'] },
    },
    {
      id: 'fw-bv',
      name: 'Élodie Bérard',
      address: 'e.berard@berard-vins.example',
      kind: 'forwarded',
      zone: 'cet',
      arrives: 2,
      weight: 1,
      serves: ['berard-vins'],
      forward: { clerk: 'garcia', layouts: ['outlook-es', 'outlook-mailto'] },
    },
    {
      id: 'fw-ht',
      name: 'Hollis Toys Purchasing',
      address: 'purchasing@hollistoys.example',
      kind: 'forwarded',
      zone: 'uk',
      arrives: 2,
      weight: 1,
      serves: ['hollis-toys'],
      forward: { clerk: 'okafor', layouts: ['edited-subject', 'apple'] },
    },
    {
      id: 'phish-ngm',
      name: 'Northgate Motors Finance',
      address: 'finance@northgate-motors.example.invoices-portal.invalid',
      kind: 'phish',
      zone: 'uk',
      arrives: 2,
      weight: 0,
      weeks: [2, 5],
      serves: [],
    },
    {
      id: 'phish-corvid',
      name: 'Corvid Electronics AP',
      address: 'ap@corvid.example-payments.invalid',
      kind: 'phish',
      zone: 'us-east',
      arrives: 3,
      weight: 0,
      weeks: [3, 6],
      serves: [],
    },
    {
      id: 'logistik-heute',
      name: 'Logistik Heute Newsletter',
      address: 'news@logistik-heute.example',
      kind: 'nobody',
      zone: 'cet',
      arrives: 1,
      weight: 0,
      weekly: 2,
      serves: [],
      notice: 'carrier-news',
      company: 'Logistik Heute',
    },
    {
      id: 'mc-it',
      name: 'Meadowcross IT',
      address: 'it-support@meadowcross.example',
      kind: 'nobody',
      zone: 'cet',
      arrives: 1,
      weight: 0,
      weeks: [2, 4, 6],
      serves: [],
      notice: 'maintenance',
    },
    {
      id: 'mc-hr',
      name: 'Meadowcross Betriebsrat',
      address: 'betriebsrat@meadowcross.example',
      kind: 'nobody',
      zone: 'cet',
      arrives: 1,
      weight: 0,
      weeks: [1, 3, 5],
      serves: [],
      notice: 'internal',
    },
    { id: 'ngm-kerr', name: 'Jon Kerr', address: 'j.kerr@northgate-motors.example', kind: 'direct', zone: 'uk', arrives: 5, weight: 1, serves: ['northgate'] },
    {
      id: 'sw-shipping',
      name: 'Saltmarsh Wines Shipping',
      address: 'shipping@saltmarsh-wines.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 5,
      weight: 1,
      serves: ['saltmarsh-wines'],
    },
    {
      id: 'cb-returns',
      name: 'Copperfield Returns',
      address: 'returns@copperfield-books.example',
      kind: 'direct',
      zone: 'uk',
      arrives: 6,
      weight: 1,
      serves: ['copperfield-books'],
    },
    {
      id: 'eastrail',
      name: 'Eastrail Freight Desk',
      address: 'desk@eastrail-freight.example',
      kind: 'haulier',
      zone: 'cet',
      arrives: 5,
      weight: 1,
      serves: ['zurich-prazision', 'lumen-lighting'],
      named: 0.85,
      company: 'Eastrail Freight',
    },
  ],
};

export const TRAP_CASTS: Readonly<Record<TrapVariant, TrapCast>> = { main: MAIN, holdout: HOLDOUT };
