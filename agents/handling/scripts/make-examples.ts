// Writes the handling agent's examples: seeds/handling.json (version 1 of the collection),
// fixtures/held-out.json (labelled descriptions never taught, for measuring) and
// fixtures/lessons.json (the stream of lessons an operator would teach, in order). Every line is
// made up for this project from the word lists below, by a seeded generator: the same run writes
// the same files, byte for byte (`pnpm --filter @learnables/handling-agent examples`).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const HANDLINGS = ['general', 'fragile', 'perishable', 'dangerous', 'oversize', 'high-value'] as const;
export type HandlingKey = (typeof HANDLINGS)[number];

export const LABELS: ReadonlyMap<HandlingKey, string> = new Map([
  ['general', 'General cargo'],
  ['fragile', 'Fragile'],
  ['perishable', 'Perishable (cold chain)'],
  ['dangerous', 'Dangerous goods'],
  ['oversize', 'Oversize'],
  ['high-value', 'High value'],
]);

/**
 * What each handling's goods are called. `known` goods appear in the seed; `later` goods only in the
 * held-out set and the lesson stream, so the seed model meets words it has never seen and lessons
 * can teach them (the measured learning of BENCHMARKS.md).
 */
const GOODS: ReadonlyMap<HandlingKey, { known: readonly string[]; later: readonly string[]; notes: readonly string[] }> = new Map([
  [
    'general',
    {
      known: [
        'cotton t-shirts',
        'paperback books',
        'office stationery',
        'plastic garden chairs',
        'kitchen towels',
        'wooden toys',
        'canvas bags',
        'polyester curtains',
        'cardboard boxes, flat packed',
        'rubber door mats',
        'steel screws',
        'bath towels',
        'printed leaflets',
        'denim jeans',
      ],
      later: [
        'wool socks',
        'plastic buckets',
        'yoga mats',
        'shoe laces',
        'paper napkins',
        'fleece blankets',
        'garden hoses',
        'spiral notebooks',
        'cotton aprons',
        'nylon rope',
        'sports caps',
        'plastic hangers',
      ],
      notes: ['standard pallets', 'stackable', 'no special handling', 'dry goods', 'shrink wrapped'],
    },
  ],
  [
    'fragile',
    {
      known: [
        'glass vases',
        'porcelain dinner plates',
        'ceramic tiles',
        'wall mirrors',
        'crystal wine glasses',
        'stoneware mugs',
        'glass table tops',
        'framed pictures with glass',
        'terracotta pots',
        'window panes',
      ],
      later: [
        'chandelier parts',
        'glass aquariums',
        'marble figurines',
        'laboratory glassware',
        'stained glass panels',
        'porcelain dolls',
        'enamel lamp shades',
        'mirror tiles',
        'glass jars, empty',
        'ceramic sinks',
        'vinyl records',
        'clay sculptures',
      ],
      notes: ['handle with care', 'this way up', 'do not stack', 'breakable', 'bubble wrapped'],
    },
  ],
  [
    'perishable',
    {
      known: [
        'frozen prawns',
        'chilled salmon fillets',
        'fresh strawberries',
        'frozen chicken breasts',
        'yoghurt pots',
        'fresh cut roses',
        'chilled cheese wheels',
        'frozen peas',
        'fresh lettuce',
        'ice cream tubs',
      ],
      later: [
        'frozen squid rings',
        'fresh blueberries',
        'chilled hummus tubs',
        'frozen dumplings',
        'fresh asparagus',
        'chilled orange juice',
        'frozen lamb shoulders',
        'fresh mushrooms',
        'chilled tofu',
        'frozen berries',
        'fresh oysters',
        'chilled sausages',
      ],
      notes: ['keep at -18 °C', 'keep refrigerated 2-8 °C', 'cold chain', 'reefer container', 'use by date in 5 days'],
    },
  ],
  [
    'dangerous',
    {
      known: [
        'lithium ion batteries UN3480',
        'aerosol spray cans UN1950',
        'paint, flammable UN1263',
        'perfume UN1266',
        'lighter refills UN1057',
        'hydrochloric acid UN1789',
        'gas cylinders UN1965',
        'matches, safety UN1944',
        'lithium metal cells UN3090',
        'nail varnish UN1263',
      ],
      later: [
        'sodium hydroxide solution UN1824',
        'fireworks UN0336',
        'car batteries, wet, filled with acid UN2794',
        'alcohol hand gel UN1170',
        'printer ink, flammable UN1210',
        'dry ice UN1845',
        'e-cigarettes with lithium batteries UN3481',
        'bleach UN1791',
        'isopropanol UN1219',
        'camping gas canisters UN2037',
        'varnish UN1263',
        'engine oil additive, corrosive UN1760',
      ],
      notes: ['class 3 flammable liquid', 'class 9 miscellaneous', 'corrosive, class 8', 'DG declaration attached', 'hazard labels applied'],
    },
  ],
  [
    'oversize',
    {
      known: [
        'steel beams, 14 m long',
        'excavator on tracks',
        'wind turbine blade',
        'boat hull, 11 m',
        'transformer, 32 tonnes',
        'concrete pipes, 3 m diameter',
        'combine harvester',
        'industrial boiler',
      ],
      later: [
        'yacht mast, 18 m',
        'bridge girder sections',
        'mobile crane',
        'railway carriage bogie',
        'aircraft wing section',
        'shipping container crane boom',
        'timber trusses, 16 m',
        'steel storage tank, 5 m wide',
        'tunnel boring machine part',
        'road grader',
        'glulam beams, 20 m',
        'prefabricated cabin module',
      ],
      notes: ['out of gauge', 'flat rack needed', 'escort vehicle required', 'over width', 'crane lift on site'],
    },
  ],
  [
    'high-value',
    {
      known: [
        'gold jewellery',
        'luxury wristwatches',
        'smartphones, new in box',
        'designer handbags',
        'laptops',
        'silver bullion bars',
        'diamond rings',
        'original oil paintings',
      ],
      later: [
        'tablet computers',
        'gaming consoles',
        'platinum coins',
        'camera lenses',
        'fine wine, vintage',
        'graphics cards',
        'pearl necklaces',
        'collectible stamps',
        'rare whisky bottles',
        'antique clocks',
        'drones, new in box',
        'cashmere coats',
      ],
      notes: ['declared value over 50,000 EUR', 'insured in full', 'secure cage', 'signature on delivery', 'sealed and tamper evident'],
    },
  ],
]);

const PACKAGING = ['cartons', 'pallets', 'cases', 'crates', 'boxes', 'drums', 'pieces', 'packages'];

/** mulberry32: a small seeded generator, so every run writes the same lines. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

export interface Labelled {
  readonly handling: HandlingKey;
  readonly description: string;
}

/** One description of `handling`'s goods, drawn from `known` goods (or `later` ones, or both). */
export function describe(random: () => number, handling: HandlingKey, from: 'known' | 'later' | 'any'): string {
  const goods = GOODS.get(handling)!;
  const pool = from === 'any' ? [...goods.known, ...goods.later] : goods[from];
  const item = pick(random, pool);
  const count = 2 + Math.floor(random() * 59);
  const shape = random();
  if (shape < 0.35) return `${item}, ${count} ${pick(random, PACKAGING)}`;
  if (shape < 0.7) return `${item}, ${count} ${pick(random, PACKAGING)}, ${pick(random, goods.notes)}`;
  if (shape < 0.85) return `${count} ${pick(random, PACKAGING)} of ${item}`;
  return item;
}

/** `count` labelled descriptions, the handlings in turn, none twice (each is one example). */
export function labelled(seed: number, count: number, from: 'known' | 'later' | 'any', avoid: ReadonlySet<string> = new Set()): Labelled[] {
  const random = seeded(seed);
  const seen = new Set(avoid);
  const lines: Labelled[] = [];
  for (let tries = 0; lines.length < count && tries < count * 50; tries += 1) {
    const handling = HANDLINGS[lines.length % HANDLINGS.length]!;
    const description = describe(random, handling, from);
    const key = description.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push({ handling, description });
  }
  return lines;
}

/** Version 1: 300 seed examples of known goods, 50 per handling. */
export function seedExamples(): Labelled[] {
  return labelled(1, 300, 'known');
}

/** Never taught: 300 descriptions of known and later goods, for accuracy and questions per 100. */
export function heldOut(): Labelled[] {
  return labelled(2, 300, 'any', new Set(seedExamples().map((line) => line.description.toLowerCase())));
}

/** What an operator teaches, in order: 200 descriptions, mostly of goods the seed never saw. */
export function lessonStream(): Labelled[] {
  const avoid = new Set([...seedExamples(), ...heldOut()].map((line) => line.description.toLowerCase()));
  return labelled(3, 200, 'any', avoid);
}

export interface ScenarioMessage extends Labelled {
  readonly week: number;
}

/**
 * Six weeks of consignments for the replay (`pnpm demo:handling`): each week 20 from regular
 * shippers, who describe the same goods the same way week after week (a pool of 30 lines), and
 * 20 one-off descriptions. None is a seed example.
 */
export function scenario(): { weeks: number; messages: ScenarioMessage[] } {
  const inSeed = new Set(seedExamples().map((line) => line.description.toLowerCase()));
  const regulars = labelled(4, 30, 'any', inSeed);
  const random = seeded(40);
  const messages: ScenarioMessage[] = [];
  const avoid = new Set([...inSeed, ...regulars.map((line) => line.description.toLowerCase())]);
  for (let week = 1; week <= 6; week += 1) {
    const oneOffs = labelled(40 + week, 20, 'any', avoid);
    for (const line of oneOffs) avoid.add(line.description.toLowerCase());
    const regular = Array.from({ length: 20 }, () => regulars[Math.floor(random() * regulars.length)]!);
    // Interleaved as they would arrive: a regular, a one-off, …
    for (let i = 0; i < 20; i += 1) messages.push({ week, ...regular[i]! }, { week, ...oneOffs[i]! });
  }
  return { weeks: 6, messages };
}

function main(): void {
  const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
  const entries: Record<string, { label: string; examples: string[] }> = {};
  for (const handling of HANDLINGS) entries[handling] = { label: LABELS.get(handling)!, examples: [] };
  for (const { handling, description } of seedExamples()) entries[handling]!.examples.push(description);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(here('../seeds/handling.json'), json({ collection: 'handling', entries }));
  writeFileSync(here('../fixtures/held-out.json'), json(heldOut()));
  writeFileSync(here('../fixtures/lessons.json'), json(lessonStream()));
  writeFileSync(here('../fixtures/scenario.json'), json(scenario()));
  console.log('wrote seeds/handling.json (300 examples), fixtures/held-out.json (300), fixtures/lessons.json (200), fixtures/scenario.json (6 weeks of 40)');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
