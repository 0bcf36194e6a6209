// Who writes to the intake mailbox in the fresh stream (make-fresh-stream.ts): a cast of its own,
// apart from the trap scenario's and the mixed stream's. Six customers the seed knows (with the
// seed's domains and reference shapes), four it lacks from the start and three that arrive late;
// Italian, Polish, Swedish and Portuguese writers beside German and English ones; hauliers, a
// freight forwarder, a slot portal, a Google Group, and the warehouse's own staff.
import type { Mailbox } from './eml.ts';

export type Lang = 'en' | 'de' | 'it' | 'pl' | 'sv' | 'pt';
/** The mail programs, each with its own headers, quoting and forwarding layout. */
export type Client = 'outlook' | 'outlook-mobile' | 'gmail' | 'gmail-android' | 'apple-mail' | 'iphone' | 'thunderbird' | 'notes' | 'roundcube' | 'zimbra';

export interface Person {
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly client: Client;
  readonly lang: Lang;
  /** UTC offset in minutes (spring: summer time in Europe, EDT in the US). */
  readonly zone: number;
}

export interface Customer {
  readonly key: string;
  readonly label: string;
  /** In fixtures/seeds/customers.json already (no label for the clerk to add). */
  readonly seeded: boolean;
  /** The week of its first message. */
  readonly arrives: number;
  readonly lang: Lang;
  readonly domain: string;
  /** A new reference, drawn from `n` (a number the generator draws). */
  readonly ref: (n: number) => string;
  readonly goods: readonly string[];
  /** Bookings a week, low and high. */
  readonly bookings: readonly [number, number];
  readonly people: readonly Person[];
}

const YEAR = 2027;
export const FRESH_SEED = 2027_0405;
/** Monday 5 April 2027, 00:00 UTC. */
export const FIRST_MONDAY = Date.UTC(YEAR, 3, 5);
export const WEEKS = 6;

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const CEST = 120;
const WEST = 60;
const BST = 60;
const EDT = -240;

const person = (id: string, name: string, address: string, client: Client, lang: Lang, zone: number): Person => ({ id, name, address, client, lang, zone });

export const CUSTOMERS: readonly Customer[] = [
  // Known to the seed: its domains and, where it has one, its reference shape.
  {
    key: 'kestrel-pharma',
    label: 'Kestrel Pharma GmbH',
    seeded: true,
    arrives: 1,
    lang: 'de',
    domain: 'kestrel-pharma.example',
    ref: (n) => `KP/${YEAR}/${pad(1000 + (n % 9000), 4)}`,
    goods: ['Kühlware (2-8 °C)', 'Verpackungsmaterial'],
    bookings: [1, 3],
    people: [
      person('k-weber', 'Sabine Weber', 'sabine.weber@kestrel-pharma.example', 'outlook', 'de', CEST),
      person('k-otto', 'Jens Otto', 'j.otto@kestrel-pharma.example', 'notes', 'de', CEST),
    ],
  },
  {
    key: 'corvid-electronics',
    label: 'Corvid Electronics Inc.',
    seeded: true,
    arrives: 1,
    lang: 'en',
    domain: 'corvid.example',
    ref: (n) => `CVE-${pad(200000 + (n % 800000), 6)}`,
    goods: ['server racks', 'PCB cartons'],
    bookings: [1, 3],
    people: [
      person('c-ramos', 'Dana Ramos', 'dramos@corvid.example', 'outlook-mobile', 'en', EDT),
      person('c-kim', 'Eric Kim', 'eric.kim@corvid.example', 'gmail', 'en', EDT),
    ],
  },
  {
    key: 'fjord-seafood',
    label: 'Fjord Seafood AS',
    seeded: true,
    arrives: 1,
    lang: 'en',
    domain: 'fjordseafood.example',
    ref: (n) => `Order ${pad(7700 + (n % 300), 5)}`,
    goods: ['frozen salmon', 'cod loins'],
    bookings: [1, 2],
    people: [
      person('f-lind', 'Anna Lind', 'anna.lind@fjordseafood.example', 'apple-mail', 'en', CEST),
      person('f-berg', 'Ola Berg', 'ola@fjordseafood.example', 'iphone', 'en', CEST),
    ],
  },
  {
    key: 'lumen-lighting',
    label: 'Lumen Lighting Ltd',
    seeded: true,
    arrives: 1,
    lang: 'en',
    domain: 'lumen-lighting.example',
    ref: (n) => `LL${pad(30000 + (n % 9999), 5)}`,
    goods: ['LED panels', 'lamp cartons'],
    bookings: [1, 2],
    people: [person('l-hughes', 'Gareth Hughes', 'gareth.hughes@lumen-lighting.example', 'thunderbird', 'en', BST)],
  },
  {
    key: 'harbor-lane',
    label: 'Harbor Lane Textiles',
    seeded: true,
    arrives: 1,
    lang: 'en',
    domain: 'harborlane.example',
    ref: (n) => `HLT ${pad(n % 1000, 3)}-${pad(n % 97, 2)}`,
    goods: ['cotton bales', 'hanging garments'],
    bookings: [1, 2],
    people: [person('h-patel', 'Priya Patel', 'priya@harborlane.example', 'roundcube', 'en', BST)],
  },
  {
    key: 'saltmarsh-wines',
    label: 'Saltmarsh Wines Ltd',
    seeded: true,
    arrives: 1,
    lang: 'en',
    domain: 'saltmarsh-wines.example',
    ref: (n) => `SW-${YEAR}-${pad(n % 1000, 3)}`,
    goods: ['wine cases', 'bag-in-box'],
    bookings: [1, 2],
    people: [person('s-cole', 'Harriet Cole', 'harriet.cole@saltmarsh-wines.example', 'outlook', 'en', BST)],
  },
  // Not in the seed: the clerk adds them the first time their mail is asked about.
  {
    key: 'ferretti-alimentari',
    label: 'Ferretti Alimentari S.p.A.',
    seeded: false,
    arrives: 1,
    lang: 'it',
    domain: 'ferrettialimentari.example',
    // SAP purchase orders: 45 and eight digits, the shape Conservas Atlântico's SAP issues too (class 6).
    ref: (n) => `45${pad(10000000 + (n % 9000000), 8)}`,
    goods: ['pasta secca', 'passata di pomodoro'],
    bookings: [2, 3],
    people: [
      person('fe-ricci', 'Marco Ricci', 'm.ricci@ferrettialimentari.example', 'outlook', 'it', CEST),
      person('fe-ordini', 'Ufficio Ordini Ferretti', 'ordini@ferrettialimentari.example', 'zimbra', 'it', CEST),
    ],
  },
  {
    key: 'krakowskie-przetwory',
    label: 'Krakowskie Przetwory Sp. z o.o.',
    seeded: false,
    arrives: 1,
    lang: 'pl',
    domain: 'krakowskie-przetwory.example',
    // KP/2027/nnnn: the shape of Kestrel's seed mark, which reads it anywhere (class 6).
    ref: (n) => `KP/${YEAR}/${pad(5000 + (n % 4000), 4)}`,
    goods: ['ogórki konserwowe', 'dżemy'],
    bookings: [1, 3],
    people: [
      person('kp-zielinska', 'Katarzyna Zielińska', 'k.zielinska@krakowskie-przetwory.example', 'thunderbird', 'pl', CEST),
      person('kp-lis', 'Paweł Lis', 'pawel.lis@krakowskie-przetwory.example', 'gmail-android', 'pl', CEST),
    ],
  },
  {
    key: 'bjorkwall-tra',
    label: 'Björkwall Trä AB',
    seeded: false,
    arrives: 1,
    lang: 'sv',
    domain: 'bjorkwall.example',
    // BW- and five digits: the shape of Brightwell Foods' seed mark (subject) (class 6).
    ref: (n) => `BW-${pad(60000 + (n % 30000), 5)}`,
    goods: ['furuplank', 'limträbalkar'],
    bookings: [1, 2],
    people: [
      person('bw-nyberg', 'Elin Nyberg', 'elin.nyberg@bjorkwall.example', 'outlook', 'sv', CEST),
      person('bw-holm', 'Johan Holm', 'johan.holm@bjorkwall.example', 'iphone', 'sv', CEST),
    ],
  },
  {
    key: 'conservas-atlantico',
    label: 'Conservas Atlântico Lda',
    seeded: false,
    arrives: 1,
    lang: 'pt',
    domain: 'conservas-atlantico.example',
    // Its export numbers are long and prefixed (class 7); its SAP orders share Ferretti's shape (class 6).
    ref: (n) => (n % 3 === 0 ? `45${pad(20000000 + (n % 9000000), 8)}` : `CAT-EXP-${YEAR % 100}-${pad(n % 100000, 5)}`),
    goods: ['conservas de sardinha', 'atum em óleo'],
    bookings: [1, 2],
    people: [
      person('ca-sousa', 'Rita Sousa', 'rita.sousa@conservas-atlantico.example', 'gmail', 'pt', WEST),
      person('ca-expedicao', 'Expedição Atlântico', 'expedicao@conservas-atlantico.example', 'outlook', 'pt', WEST),
    ],
  },
  // Late: each first writes from its own people, and is added then.
  {
    key: 'tessitura-brembo',
    label: 'Tessitura Brembo S.r.l.',
    seeded: false,
    arrives: 3,
    lang: 'it',
    domain: 'tessiturabrembo.example',
    ref: (n) => `TB-ORD-${YEAR}-${pad(n % 10000, 4)}`,
    goods: ['rotoli di tessuto', 'filati'],
    bookings: [1, 2],
    people: [person('tb-galli', 'Chiara Galli', 'chiara.galli@tessiturabrembo.example', 'apple-mail', 'it', CEST)],
  },
  {
    key: 'mazur-kosmetyki',
    label: 'Mazur Kosmetyki S.A.',
    seeded: false,
    arrives: 4,
    lang: 'pl',
    domain: 'mazur-kosmetyki.example',
    ref: (n) => `MK-ZAM-${YEAR}-${pad(n % 10000, 4)}`,
    goods: ['kremy w kartonach', 'zestawy prezentowe'],
    bookings: [2, 2],
    people: [person('mk-dabrowski', 'Tomasz Dąbrowski', 'tomasz.dabrowski@mazur-kosmetyki.example', 'outlook', 'pl', CEST)],
  },
  {
    key: 'ostra-hamnen',
    label: 'Östra Hamnens Livs AB',
    seeded: false,
    arrives: 5,
    lang: 'sv',
    domain: 'ostrahamnen.example',
    ref: (n) => `OHL/SE/${YEAR}/${pad(n % 10000, 4)}`,
    goods: ['kylvaror', 'torrvaror'],
    bookings: [1, 2],
    people: [person('oh-sjoberg', 'Maja Sjöberg', 'maja.sjoberg@ostrahamnen.example', 'gmail', 'sv', CEST)],
  },
];

export const customer = (key: string): Customer => {
  const found = CUSTOMERS.find((c) => c.key === key);
  if (!found) throw new Error(`No customer ${key} in the fresh cast.`);
  return found;
};

/** Free-mail people (class 5): one books for two customers; one moves from one to another. */
export const FREELANCER = person('marta', 'Marta Nowak', 'marta.nowak.logistyka@wp.pl', 'gmail-android', 'pl', CEST);
export const MOVER = person('giulia', 'Giulia Conti', 'giulia.conti77@libero.it', 'iphone', 'it', CEST);

/** Hauliers and a forwarder: they write for several customers, often on another customer's thread. */
export const HAULIERS: readonly Person[] = [
  person('baltic', 'Dyspozytornia Baltic Road', 'dyspozytor@balticroad.example', 'outlook', 'pl', CEST),
  person('nordsjo', 'Nordsjö Spedition – Trafik', 'trafik@nordsjo-spedition.example', 'zimbra', 'sv', CEST),
  person('tirreno', 'Trasporti Tirreno', 'traffico@trasportitirreno.example', 'notes', 'it', CEST),
];

/** A slot-booking portal writing for several customers, naming the customer in its own text. */
export const PORTAL: Mailbox = { name: 'DockSlot', address: 'no-reply@dockslot.example' };

/** A Google Group of Nordic shippers; posts go out "via" the group, with Reply-To the member. */
export const GROUP = { name: 'Nordic Cold Chain Ops', address: 'nordic-coldchain-ops@googlegroups.com', id: 'nordic-coldchain-ops.googlegroups.com' } as const;

/** The warehouse's own people (the internal domain of the scenario stack). */
export const WAREHOUSE = {
  domain: 'warehouse.example',
  intake: { name: 'Warehouse Intake', address: 'intake@warehouse.example' } as Mailbox,
  signature: 'Intake desk · Dock 4\nwarehouse.example · +31 10 555 0199',
};
export const STAFF: readonly Person[] = [
  person('st-bakker', 'Ingrid Bakker', 'ingrid.bakker@warehouse.example', 'outlook', 'en', CEST),
  person('st-wojcik', 'Tomasz Wójcik', 'tomasz.wojcik@warehouse.example', 'gmail', 'en', CEST),
  person('st-marino', 'Lucia Marino', 'lucia.marino@warehouse.example', 'apple-mail', 'en', CEST),
  person('st-vos', 'Sem Vos', 'sem.vos@warehouse.example', 'thunderbird', 'en', CEST),
  person('st-notes', 'Henk de Graaf', 'henk.degraaf@warehouse.example', 'notes', 'en', CEST),
];

/** Look-alike domains of real customers (class 3), and free-mail impostors (class 4). */
export const LOOKALIKES: readonly { readonly victim: string; readonly domain: string }[] = [
  { victim: 'kestrel-pharma', domain: 'kestrel-pharrna.example' },
  { victim: 'corvid-electronics', domain: 'corvid-electronic.example' },
  { victim: 'ferretti-alimentari', domain: 'ferretti-alimentari-spa.example' },
  { victim: 'fjord-seafood', domain: 'fjordseafoods.example' },
];
export const FREEMAIL: readonly string[] = ['gmail.com', 'outlook.com', 'yahoo.com', 'libero.it', 'o2.pl', 'hotmail.se', 'sapo.pt'];
