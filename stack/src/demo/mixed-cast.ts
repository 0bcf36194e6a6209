// Who writes to the intake mailbox in the mixed stream (make-mixed-stream.ts, issue 35): a cast
// written apart from the trap scenario's. Other customers (five the seed knows, five it does not,
// three of those only in later weeks), other hauliers, a freight forwarder, a portal, a mailing
// list, free-mail people who work for two customers or move between them, the warehouse's own
// staff at `warehouse.example`, and the mail that belongs to nobody (auto-replies, ticket systems,
// bounces, list notices, look-alike and spoofed senders, newsletters). Domains are `.example` or
// `.invalid`, except the free-mail providers', whose real names are what makes them free mail.
import type { Random } from '@learnables/testing';
import { between } from '@learnables/testing';

export type Lang = 'en' | 'de' | 'fr' | 'nl' | 'es';
/** The mail program a message is written in: its header layout, quoting and signature line. */
export type MailClient = 'outlook' | 'outlook-mobile' | 'gmail' | 'apple' | 'iphone' | 'thunderbird' | 'notes';
/** Where the sender sits: its Date header's offset (the stream is in winter time). */
export type Zone = 'uk' | 'cet';

export interface MixedCustomer {
  readonly key: string;
  readonly label: string;
  /** The seed (fixtures/seeds/customers.json) has it; otherwise the clerk adds it when it first writes. */
  readonly seeded: boolean;
  /** The week of its first message. */
  readonly arrives: number;
  readonly lang: Lang;
  readonly ref: (random: Random) => string;
  readonly goods: readonly string[];
  /** Bookings a week (each a thread: the booking, perhaps a follow-up, perhaps an auto-reply or a bounce). */
  readonly bookings: readonly [number, number];
}

/** A person or mailbox that writes for customers; `serves` says for whom, in which weeks. */
export interface MixedPerson {
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly client: MailClient;
  readonly lang: Lang;
  readonly zone: Zone;
  readonly serves: readonly { readonly customer: string; readonly from?: number; readonly to?: number }[];
  /** How often it is the one who writes a booking of its customer. */
  readonly weight: number;
  readonly freeMail?: true;
  /** Writes through a relay that rewrites its address with SRS (RFC 5321 envelope rewriting), fresh each day. */
  readonly srs?: { readonly relay: string };
  /** Posts to the mailing list (From rewritten to the list, Reply-To the person). */
  readonly viaList?: true;
  /** Away (out of office) in these weeks: the warehouse's replies get an automatic answer. */
  readonly away?: readonly number[];
  readonly company: string;
}

export interface MixedHaulier {
  readonly id: string;
  readonly name: string;
  readonly company: string;
  readonly address: string;
  readonly client: MailClient;
  readonly lang: Lang;
  readonly zone: Zone;
  readonly serves: readonly string[];
  /** Messages a week. */
  readonly perWeek: readonly [number, number];
  /** A ticket system answers the warehouse's mail to it. */
  readonly tickets?: { readonly address: string; readonly name: string };
}

export interface Staff {
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly client: MailClient;
  readonly lang: Lang;
}

export const WAREHOUSE = {
  name: 'Polder Gate Warehousing',
  intake: { name: 'Polder Gate Intake', address: 'intake@warehouse.example' },
  domain: 'warehouse.example',
  signature: 'Polder Gate Warehousing B.V.\nIntake & Planning\nWaalhaven Z.z. 44, 3089 JH Rotterdam\nT +31 10 555 0140 | intake@warehouse.example',
} as const;

const year = 2027;
export const MIXED_SEED = 3527_0201;
export const FIRST_MONDAY = Date.UTC(year, 1, 1);
export const WEEKS = 6;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export const CUSTOMERS: readonly MixedCustomer[] = [
  // The seed knows these five (by domain, or by a reference shape).
  {
    key: 'alder-chemicals',
    label: 'Alder Chemicals BV',
    seeded: true,
    arrives: 1,
    lang: 'nl',
    ref: (r) => `ALC-${year}-${between(r, 1000, 9999)}`,
    goods: ['solvent drums', 'resin IBCs'],
    bookings: [2, 3],
  },
  {
    key: 'marigold-cosmetics',
    label: 'Marigold Cosmetics',
    seeded: true,
    arrives: 1,
    lang: 'en',
    ref: (r) => `PO-${between(r, 410000, 489999)}`,
    goods: ['lipstick cartons', 'gift sets'],
    bookings: [2, 3],
  },
  {
    key: 'palmera-apparel',
    label: 'Palmera Apparel S.L.',
    seeded: true,
    arrives: 1,
    lang: 'es',
    ref: (r) => `PO-${between(r, 510000, 589999)}`,
    goods: ['knitwear', 'hanging garments'],
    bookings: [2, 3],
  },
  {
    key: 'quarry-stone',
    label: 'Quarry Stone Supplies',
    seeded: true,
    arrives: 1,
    lang: 'en',
    ref: (r) => `QS/${year}/${between(r, 120, 399)}`,
    goods: ['granite slabs', 'paving setts'],
    bookings: [1, 2],
  },
  {
    key: 'tidewater-paper',
    label: 'Tidewater Paper Mills',
    seeded: true,
    arrives: 1,
    lang: 'en',
    ref: (r) => `TWP27${pad(between(r, 10000, 99999), 5)}`,
    goods: ['paper reels', 'board pallets'],
    bookings: [1, 2],
  },
  // Five the seed does not know: the clerk adds each when its first message is asked about.
  {
    key: 'kaufhaus-falkner',
    label: 'Kaufhaus Falkner GmbH',
    seeded: false,
    arrives: 1,
    lang: 'de',
    ref: (r) => `KF-BK-${year}-${between(r, 1200, 1299)}`,
    goods: ['Haushaltswaren', 'Textilien'],
    bookings: [2, 3],
  },
  {
    key: 'sint-baafs-foods',
    label: 'Sint-Baafs Foods NV',
    seeded: false,
    arrives: 1,
    lang: 'nl',
    ref: (r) => `BL-SBF${year % 100}-${pad(between(r, 500, 699), 4)}`,
    goods: ['diepvriesfrieten', 'sauzen'],
    bookings: [2, 3],
  },
  // Only in later weeks.
  {
    key: 'hendrix-bloembollen',
    label: 'Hendrix Bloembollen BV',
    seeded: false,
    arrives: 3,
    lang: 'nl',
    ref: (r) => `HB-BK-${year}-${between(r, 1200, 1299)}`,
    goods: ['bloembollen', 'potgrond'],
    bookings: [2, 2],
  },
  {
    key: 'castellano-aceites',
    label: 'Castellano Aceites S.A.',
    seeded: false,
    arrives: 4,
    lang: 'es',
    ref: (r) => `CA-${year % 100}-${between(r, 10000, 99999)}`,
    goods: ['aceite de oliva', 'vinagre'],
    bookings: [2, 2],
  },
  // Its references have the shape of Quarry Stone's (the seed's `QS/\d{4}/\d{3,}`): the same letters, another customer.
  {
    key: 'quayside-spirits',
    label: 'Quayside Spirits Ltd',
    seeded: false,
    arrives: 5,
    lang: 'en',
    ref: (r) => `QS/${year}/${between(r, 4000, 4999)}`,
    goods: ['whisky cases', 'gin cartons'],
    bookings: [1, 2],
  },
];

export const PEOPLE: readonly MixedPerson[] = [
  {
    id: 'alder-planning',
    name: 'Alder Planning',
    company: 'Alder Chemicals BV',
    address: 'planning@alder-chem.example',
    client: 'notes',
    lang: 'nl',
    zone: 'cet',
    weight: 3,
    serves: [{ customer: 'alder-chemicals' }],
    away: [4],
  },
  // Alder's group mail relay rewrites the sender with SRS: an address that never recurs.
  {
    id: 'alder-srs',
    name: 'Alder Chemicals Expeditie',
    company: 'Alder Chemicals BV',
    address: 'expeditie@alder-group.example',
    client: 'outlook',
    lang: 'nl',
    zone: 'cet',
    weight: 2,
    serves: [{ customer: 'alder-chemicals' }],
    srs: { relay: 'relay.aldergroup-mail.example' },
  },
  {
    id: 'mg-hale',
    name: 'Sophie Hale',
    company: 'Marigold Cosmetics',
    address: 'sophie.hale@marigold.example',
    client: 'apple',
    lang: 'en',
    zone: 'uk',
    weight: 3,
    serves: [{ customer: 'marigold-cosmetics' }],
    away: [3],
  },
  {
    id: 'mg-hale-phone',
    name: 'Sophie Hale',
    company: 'Marigold Cosmetics',
    address: 'sophie.hale@icloud.com',
    client: 'iphone',
    lang: 'en',
    zone: 'uk',
    weight: 1,
    freeMail: true,
    serves: [{ customer: 'marigold-cosmetics' }],
  },
  {
    id: 'pa-logistica',
    name: 'Logística Palmera',
    company: 'Palmera Apparel S.L.',
    address: 'logistica@palmera-apparel.example',
    client: 'outlook',
    lang: 'es',
    zone: 'cet',
    weight: 3,
    serves: [{ customer: 'palmera-apparel' }],
  },
  // Works for Palmera from her own address, then moves to Castellano in week 4.
  {
    id: 'ruiz',
    name: 'Carmen Ruiz',
    company: '',
    address: 'carmen.ruiz.logistica@yahoo.es',
    client: 'outlook-mobile',
    lang: 'es',
    zone: 'cet',
    weight: 2,
    freeMail: true,
    serves: [
      { customer: 'palmera-apparel', to: 3 },
      { customer: 'castellano-aceites', from: 4 },
    ],
  },
  {
    id: 'qs-holt',
    name: 'Jack Holt',
    company: 'Quarry Stone Supplies',
    address: 'j.holt@quarrystone.example',
    client: 'thunderbird',
    lang: 'en',
    zone: 'uk',
    weight: 2,
    serves: [{ customer: 'quarry-stone' }],
  },
  {
    id: 'tw-despatch',
    name: 'Tidewater Despatch',
    company: 'Tidewater Paper Mills',
    address: 'despatch@tidewater-mills.example',
    client: 'gmail',
    lang: 'en',
    zone: 'uk',
    weight: 2,
    serves: [{ customer: 'tidewater-paper' }],
  },
  {
    id: 'kf-vogel',
    name: 'Martina Vogel',
    company: 'Kaufhaus Falkner GmbH',
    address: 'm.vogel@kaufhaus-falkner.example',
    client: 'outlook',
    lang: 'de',
    zone: 'cet',
    weight: 3,
    serves: [{ customer: 'kaufhaus-falkner' }],
    away: [2, 5],
  },
  {
    id: 'kf-lager',
    name: 'Falkner Zentrallager',
    company: 'Kaufhaus Falkner GmbH',
    address: 'zentrallager@kaufhaus-falkner.example',
    client: 'notes',
    lang: 'de',
    zone: 'cet',
    weight: 1,
    serves: [{ customer: 'kaufhaus-falkner' }],
  },
  {
    id: 'sbf-janssens',
    name: 'Hanne Janssens',
    company: 'Sint-Baafs Foods NV',
    address: 'h.janssens@sintbaafs.example',
    client: 'outlook',
    lang: 'nl',
    zone: 'cet',
    weight: 2,
    serves: [{ customer: 'sint-baafs-foods' }],
    viaList: true,
  },
  {
    id: 'sbf-mobile',
    name: 'Hanne Janssens',
    company: 'Sint-Baafs Foods NV',
    address: 'h.janssens@sintbaafs.example',
    client: 'outlook-mobile',
    lang: 'nl',
    zone: 'cet',
    weight: 1,
    serves: [{ customer: 'sint-baafs-foods' }],
  },
  // A freelance coordinator on free mail, for Sint-Baafs and, from week 3, Hendrix too.
  {
    id: 'peeters',
    name: 'Bram Peeters',
    company: '',
    address: 'bram.peeters.logistiek@gmail.com',
    client: 'gmail',
    lang: 'nl',
    zone: 'cet',
    weight: 2,
    freeMail: true,
    serves: [{ customer: 'sint-baafs-foods' }, { customer: 'hendrix-bloembollen', from: 3 }],
  },
  {
    id: 'hb-inkoop',
    name: 'Inkoop Hendrix',
    company: 'Hendrix Bloembollen BV',
    address: 'inkoop@hendrix-bloembollen.example',
    client: 'thunderbird',
    lang: 'nl',
    zone: 'cet',
    weight: 2,
    serves: [{ customer: 'hendrix-bloembollen' }],
    viaList: true,
  },
  {
    id: 'ca-expediciones',
    name: 'Expediciones Castellano',
    company: 'Castellano Aceites S.A.',
    address: 'expediciones@castellano-aceites.example',
    client: 'gmail',
    lang: 'es',
    zone: 'cet',
    weight: 2,
    serves: [{ customer: 'castellano-aceites' }],
  },
  {
    id: 'qsp-orders',
    name: 'Quayside Orders',
    company: 'Quayside Spirits Ltd',
    address: 'orders@quayside-spirits.example',
    client: 'outlook',
    lang: 'en',
    zone: 'uk',
    weight: 2,
    serves: [{ customer: 'quayside-spirits' }],
  },
];

export const HAULIERS: readonly MixedHaulier[] = [
  {
    id: 'vdlinden',
    name: 'Planning Van der Linden',
    company: 'Van der Linden Transport B.V.',
    address: 'planning@vdlinden-transport.example',
    client: 'outlook',
    lang: 'nl',
    zone: 'cet',
    serves: ['sint-baafs-foods', 'alder-chemicals', 'tidewater-paper', 'hendrix-bloembollen'],
    perWeek: [2, 4],
  },
  {
    id: 'ostwind',
    name: 'Ostwind Dispo',
    company: 'Ostwind Spedition GmbH',
    address: 'dispo@ostwind-spedition.example',
    client: 'notes',
    lang: 'de',
    zone: 'cet',
    serves: ['kaufhaus-falkner', 'alder-chemicals', 'quarry-stone'],
    perWeek: [1, 3],
    tickets: { address: 'ticket@otrs.ostwind-spedition.example', name: 'Ostwind Kundenservice' },
  },
  {
    id: 'meseta',
    name: 'Tráfico Meseta',
    company: 'Transportes Meseta S.L.',
    address: 'trafico@transportes-meseta.example',
    client: 'gmail',
    lang: 'es',
    zone: 'cet',
    serves: ['palmera-apparel', 'castellano-aceites', 'marigold-cosmetics'],
    perWeek: [1, 2],
  },
  {
    id: 'atlantic',
    name: 'Atlantic FF Opérations',
    company: 'Atlantic Freight Forwarding',
    address: 'operations@atlantic-ff.example',
    client: 'apple',
    lang: 'fr',
    zone: 'cet',
    serves: ['marigold-cosmetics', 'tidewater-paper', 'quayside-spirits'],
    perWeek: [1, 2],
  },
];

/** A booking portal's automated address, for three customers; its notices name the customer, or quote only the reference. */
export const PORTAL = {
  name: 'YardBooker',
  address: 'notifications@yardbooker.example',
  serves: ['marigold-cosmetics', 'quarry-stone', 'quayside-spirits'],
  named: 0.8,
} as const;

/** A mailing list several customers' people post to, cc'ing intake (Mailman, From rewritten with "via"). */
export const LIST = {
  name: 'benelux-inbound',
  address: 'benelux-inbound@lists.benelux-inbound.example',
  id: 'Benelux inbound coordination <benelux-inbound.lists.benelux-inbound.example>',
  owner: 'benelux-inbound-owner@lists.benelux-inbound.example',
  bounces: 'benelux-inbound-bounces@lists.benelux-inbound.example',
} as const;

/** The warehouse's own people, who forward customers' mail to intake from their own mail programs. */
export const STAFF: readonly Staff[] = [
  { id: 'bakker', name: 'Noor Bakker', address: 'n.bakker@warehouse.example', client: 'outlook', lang: 'nl' },
  { id: 'lang', name: 'Tobias Lang', address: 't.lang@warehouse.example', client: 'notes', lang: 'de' },
  { id: 'romero', name: 'Inés Romero', address: 'i.romero@warehouse.example', client: 'gmail', lang: 'es' },
  { id: 'doyle', name: 'Chris Doyle', address: 'c.doyle@warehouse.example', client: 'iphone', lang: 'en' },
  { id: 'girard', name: 'Léa Girard', address: 'l.girard@warehouse.example', client: 'thunderbird', lang: 'fr' },
];

export const customerByKey = (key: string): MixedCustomer => {
  const found = CUSTOMERS.find((c) => c.key === key);
  if (!found) throw new Error(`No customer ${key} in the mixed cast.`);
  return found;
};

/** Whether `person` writes for `customer` in `week`. */
export const servesIn = (person: MixedPerson, customer: string, week: number): boolean =>
  person.serves.some((s) => s.customer === customer && (s.from ?? 1) <= week && week <= (s.to ?? WEEKS));
