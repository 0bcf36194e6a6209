import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { UnlearnableValue, absorbLesson, defineCollection, readLessonValue } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import type { PinnedDefinitions } from '@learnables/runtime';
import { checkReading, pinDefinitions } from '@learnables/runtime';
import { CustomerMarks, compileMark, compiledMark, customerMarksKind, markLesson, setMarkCaching } from './customer-marks.ts';
import { createEmailAgent } from './email-agent.ts';
import { InternalSenders } from './internal-senders.ts';
import type { EmailAttachment, EmailInput } from './email-input.ts';
import { messageModel } from './message-model.ts';
import { parseEmail } from './parse-email.ts';
import { RecentSenders } from './recent-senders.ts';
import { suggestEvidence } from './suggest-mark.ts';

// A question used to check its suggested mark twice (the suggestion's own check, then the runtime's
// check that the learnable takes it) and to compile the same few patterns up to fourteen times; the
// check's verdicts and the compiled patterns are now kept for the last values seen
// (customer-marks.ts), and read's fields are handed to the suggestion. These tests hold every
// reading, lesson and refusal to what the same code gives with the caches off, byte for byte.

afterEach(() => {
  setMarkCaching(true);
});

const folder = new URL('../../../fixtures/email/', import.meta.url);
const seedFile = JSON.parse(readFileSync(new URL('../seeds/customers.json', folder), 'utf8')) as { entries: Record<string, unknown> };
const seed = defineCollection(
  'customers',
  Object.entries(seedFile.entries).map(([key, state]) => customerMarksKind.fromState(key, state)),
);
const truth = JSON.parse(readFileSync(new URL('ground-truth.json', folder), 'utf8')) as Record<string, { customer: string | null }>;
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.eml') && !name.startsWith('malformed-'))
  .sort();
const fixtures = await Promise.all(files.map(async (file) => ({ file, input: await parseEmail(readFileSync(new URL(file, folder))) })));

const pinned = (definition: Definition, version: number): PinnedDefinitions => pinDefinitions([{ ...definition, version }]);
// Strict, as under test: a suggestion its learnable refused would throw, and be recorded as thrown.
const checks = { strict: true, log: () => undefined, about: 'mark-caches.test' };

/** A value's outcome as text: what it returned, or what it threw (class, words, field). */
function outcome(run: () => unknown): string {
  try {
    return JSON.stringify({ returned: run() ?? null });
  } catch (error) {
    const refused = error instanceof UnlearnableValue ? { field: error.field ?? null } : {};
    return JSON.stringify({ threw: error instanceof Error ? error.name : String(error), message: error instanceof Error ? error.message : '', ...refused });
  }
}

/**
 * What one agent makes of a stream of messages under each version, in order: each reading as the
 * runtime checks it (its JSON), and each lesson taught from a question, the version it made or the
 * refusal. The agent remembers senders, so both ways start from a new agent and the same stream.
 */
function decideAll(caching: boolean, inputs: readonly { readonly label: string; readonly input: EmailInput }[], teach: boolean): string[] {
  setMarkCaching(caching);
  const recent = new RecentSenders();
  const internal = new InternalSenders({ domains: ['warehouse.example'] });
  const agent = createEmailAgent({ recent, internal });
  const said: string[] = [];
  let definition: Definition<CustomerMarks> = seed;
  let version = 1;
  // Twice through, so the second pass meets what the first left in the caches (and in recent senders).
  for (const pass of [1, 2]) {
    for (const { label, input } of inputs) {
      const definitions = pinned(definition, version);
      const read = agent.read(input, definitions);
      if (!read.settled) {
        // What the question offers is what the suggestion finds reading the message itself (read
        // leaves recent senders alone when it asks), not only what it finds from read's fields.
        const alone = suggestEvidence(input, { customers: definitions.of(customerMarksKind), recent, internal });
        expect(read.question.suggested, label).toEqual(alone === undefined ? undefined : { ...alone.mark });
        if (alone?.why !== undefined) expect(read.question.question.endsWith(alone.why), label).toBe(true);
      }
      said.push(`${pass} ${label} ${outcome(() => checkReading(read, definitions, checks))}`);
      if (!teach || read.settled || read.question.suggested === undefined) continue;
      const entry = truth[label]?.customer ?? read.question.entries[0]?.key ?? 'copperfield-books';
      const lesson = { collection: 'customers', entry, value: read.question.suggested, taughtBy: 'test', reason: label };
      said.push(
        `${pass} ${label} taught ${outcome(() => {
          const absorbed = absorbLesson(definition, lesson);
          if (absorbed.changed) {
            definition = absorbed.definition;
            version += 1;
          }
          return absorbed.audit;
        })}`,
      );
    }
  }
  return said;
}

// Messages built from the pieces questions turn on: senders shared or automated or forwarded,
// customers' names in the text, references, signatures, quoted header blocks, attachments.
const NAMES = ['Oakridge Furniture', 'Brightwell Foods', 'Pinnacle Audio Ltd', 'Vireo Bikes', 'Hollis Toys', 'Greystone Tools plc', 'Zürich Präzisionsteile'];
const REFERENCES = ['PA-2026-0901', 'NGM/2026/1142', 'BW-88213', 'TWP2026118', 'OB-10003', 'KP/2026/0042', 'NW10 7HQ', 'ALC-2026-3310'];
const addresses = fc.constantFrom(
  '',
  'noreply@dockslot-portal.example',
  'desk@freight-portal.example',
  'billing@origin.example',
  'ops@warehouse.example',
  'orders@oakridge-furniture.example',
  'anna@brightwell-foods.example',
  'bookings@haulier.example',
);
const words = fc.constantFrom('Booking', 'Pallets', 'for', 'Customer:', 'Consignee:', 'ref', 'arrival', 'delivery note', 'thanks', '\n', '\n\n');
const text = fc.array(fc.oneof(words, fc.constantFrom(...NAMES), fc.constantFrom(...REFERENCES)), { maxLength: 14 }).map((parts) => parts.join(' '));
const forward = fc
  .record({ address: addresses, name: fc.constantFrom('', 'Anna Kowalska', 'Dock Slot') })
  .map(
    ({ address, name }) =>
      `---------- Forwarded message ---------\nFrom: ${name} <${address || 'someone@elsewhere.example'}>\nDate: Mon, 2 Mar 2026 09:00\nSubject: pallets\nTo: ops@warehouse.example\n\n`,
  );
const attachment: fc.Arbitrary<EmailAttachment> = fc.oneof(
  fc.constantFrom('DGD_ALC-2026-3310.pdf', 'photo.jpg').map((filename) => ({ filename, mediaType: 'application/pdf' })),
  text.map((csv) => ({ filename: 'stock.csv', mediaType: 'text/csv', text: `sku,qty,ref\n${csv}` })),
  fc.tuple(addresses, text).map(([from, body]) => ({
    filename: 'forwarded message.eml',
    mediaType: 'message/rfc822',
    text: `From: <${from || 'x@y.example'}>\nSubject: fwd\n\n${body}`,
  })),
);
const message: fc.Arbitrary<EmailInput> = fc.record({
  from: fc.record({ address: addresses, name: fc.constantFrom('', 'Dock Slot', 'Ops Desk', '<billing@origin.example>') }),
  subject: fc.tuple(fc.constantFrom('', 'Fwd: ', 'RE: ', 'WG: '), text).map(([prefix, rest]) => `${prefix}${rest}`.trim()),
  body: fc
    .tuple(fc.option(forward, { nil: '' }), text, fc.constantFrom('', '\n\nKind regards,\nAnna\nNW10 7HQ', '\n-- \nDesk, 12 Dock Road'))
    .map(([quoted, body, signature]) => `${quoted}${body}${signature}`),
  attachments: fc.array(attachment, { maxLength: 3 }),
});

describe('the caches of mark checks and compiled patterns, and read handing its fields to the suggestion', () => {
  it('decide every email fixture, and teach its suggestion, exactly as without them', () => {
    const stream = fixtures.map(({ file, input }) => ({ label: file, input }));
    const cached = decideAll(true, stream, true);
    const plain = decideAll(false, stream, true);
    expect(cached.filter((line) => line.includes(' taught ')).length).toBeGreaterThanOrEqual(15);
    expect(cached).toEqual(plain);
  });

  it('decide generated messages, and the lessons taught from them, exactly as without them', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 12 }), (inputs) => {
        const stream = inputs.map((input, i) => ({ label: `generated-${i}`, input }));
        expect(decideAll(true, stream, true)).toEqual(decideAll(false, stream, true));
      }),
      { numRuns: 60 },
    );
  });

  // Found by the property above (CI, then seed -164170534 after the fixtures' test had filled the caches): a cached
  // index listed the reference formats two customers share in another order than a new one, so the question's
  // sentences came out in another order. Kept as a fixed case, run after the fixtures like the property was.
  it('list the reference formats two customers share in the same order with the caches warm', () => {
    const forwarded =
      '---------- Forwarded message ---------\nFrom: Dock Slot <someone@elsewhere.example>\nDate: Mon, 2 Mar 2026 09:00\nSubject: pallets\nTo: ops@warehouse.example\n\n';
    const inputs: EmailInput[] = [
      {
        from: { address: '', name: 'Ops Desk' },
        subject: 'Oakridge Furniture',
        body: `${forwarded}TWP2026118 NGM/2026/1142 BW-88213 Pinnacle Audio Ltd`,
        attachments: [
          {
            filename: 'forwarded message.eml',
            mediaType: 'message/rfc822',
            text: 'From: <bookings@haulier.example>\nSubject: fwd\n\nBrightwell Foods TWP2026118 PA-2026-0901 Pinnacle Audio Ltd Brightwell Foods KP/2026/0042',
          },
          { filename: 'stock.csv', mediaType: 'text/csv', text: 'sku,qty,ref\n' },
          { filename: 'stock.csv', mediaType: 'text/csv', text: 'sku,qty,ref\nNGM/2026/1142 Pinnacle Audio Ltd \n ref TWP2026118' },
        ],
      },
      {
        from: { address: 'ops@warehouse.example', name: 'Dock Slot' },
        subject: 'Fwd:',
        body: 'Consignee: NW10 7HQ PA-2026-0901 TWP2026118 TWP2026118',
        attachments: [],
      },
      {
        from: { address: 'ops@warehouse.example', name: '' },
        subject: 'NGM/2026/1142 ALC-2026-3310 TWP2026118 Hollis Toys arrival Pallets',
        body: `${forwarded}TWP2026118 Vireo Bikes Brightwell Foods TWP2026118\n\nKind regards,\nAnna\nNW10 7HQ`,
        attachments: [],
      },
    ];
    const warm = fixtures.map(({ file, input }) => ({ label: file, input }));
    decideAll(true, warm, true);
    const stream = inputs.map((input, i) => ({ label: `found-${i}`, input }));
    expect(decideAll(true, stream, true)).toEqual(decideAll(false, stream, true));
  });

  it("hand the suggestion read's own fields: the same as it reads them itself", () => {
    fc.assert(
      fc.property(message, (input) => {
        const customers = seed;
        const read = { model: messageModel(input) };
        expect(JSON.stringify(suggestEvidence(input, { customers }, read))).toBe(JSON.stringify(suggestEvidence(input, { customers })));
      }),
      { numRuns: 300 },
    );
  });

  // Values a person or a suggestion may send: refused on their own, refused by the check (not a
  // pattern, empty, too big, found in random text or in the samples, an open domain), and taken.
  const patterns = fc.oneof(
    fc.constantFrom(
      '<billing@origin\\.example>',
      '@origin\\.example',
      '@origin\\.example>',
      'PA-2026-0901',
      '(?:^|[^0-9a-z])PA-2026-0901(?:$|[^0-9a-z/-]|[-/](?:$|[^0-9]))',
    ),
    fc.constantFrom(
      '(',
      'a{2,1}',
      '',
      '   ',
      'a*',
      '^',
      '.',
      '\\d',
      'x',
      '@',
      '\\b',
      '\\S',
      '.{400}',
      'qN\\pL{300}',
      'Oakridge\\s+Furniture',
      'Brightwell Foods',
      'é',
    ),
    fc.constantFrom(501, 499).map((n) => 'p'.repeat(n)),
    fc.constantFrom(7, null, ['x']),
  );
  const values = fc.record(
    {
      pattern: patterns,
      where: fc.constantFrom('from', 'subject', 'body', 'attachments', 'any', ' ANY ', 'nowhere', 3),
      sender: fc.constantFrom(undefined, '', '  ', '<noreply@dockslot-portal\\.example>', '.', '@x\\.example', '(', 's'.repeat(600), 12),
      extra: fc.constantFrom('never'),
    },
    { requiredKeys: ['pattern'] },
  );

  it('read every generated mark value, and teach it, exactly as without them: the same value or the same refusal, cold and warm', () => {
    const oakridge = seed.entries.find((entry) => entry.key === 'oakridge-furniture')!;
    const others = seed.entries.filter((entry) => entry !== oakridge);
    const attempt = (value: object) => [
      outcome(() => readLessonValue(markLesson, value as never)),
      outcome(() => {
        const next = oakridge.learn(oakridge.readValue(value as never), others);
        return { changed: next.changed, marks: next.next.marks };
      }),
    ];
    fc.assert(
      fc.property(fc.array(values, { minLength: 1, maxLength: 8 }), (batch) => {
        setMarkCaching(false);
        const plain = batch.map(attempt);
        setMarkCaching(true);
        const cold = batch.map(attempt);
        const warm = batch.map(attempt);
        expect(cold).toEqual(plain);
        expect(warm).toEqual(plain);
      }),
      { numRuns: 400 },
    );
  });

  it('read every mark value of a product of patterns, places and senders exactly as without them, in either order', () => {
    const PATTERNS = [
      '<billing@origin\\.example>',
      '@origin\\.example',
      '@origin\\.example>',
      'PA-2026-0901',
      '(',
      'a*',
      '.',
      '\\d',
      'x',
      '\\S',
      '.{400}',
      'qN\\pL{300}',
      'Oakridge\\s+Furniture',
      'é',
      'p'.repeat(501),
    ];
    const WHERES = [undefined, 'from', 'subject', 'body', 'attachments', 'any', ' ANY ', 'nowhere'];
    const SENDERS = [undefined, '', '<noreply@dockslot-portal\\.example>', '.', '@x\\.example', '(', 's'.repeat(600)];
    const product = PATTERNS.flatMap((pattern) =>
      WHERES.flatMap((where) => SENDERS.map((sender) => ({ pattern, ...(where !== undefined && { where }), ...(sender !== undefined && { sender }) }))),
    );
    const read = (list: readonly object[]) => list.map((value) => outcome(() => readLessonValue(markLesson, value as never)));
    setMarkCaching(false);
    const plain = read(product);
    setMarkCaching(true);
    expect(read(product)).toEqual(plain);
    expect(read([...product].reverse()).reverse()).toEqual(plain);
    expect(read(product)).toEqual(plain);
    // The product holds taken values and refusals of each kind.
    expect(plain.filter((line) => line.includes('"returned"')).length).toBeGreaterThanOrEqual(20);
    expect(new Set(plain.filter((line) => line.includes('"threw"'))).size).toBeGreaterThanOrEqual(15);
  });

  it('refuse a mark held by another customer or naming one exactly as without them: names matched as UTF-8, holders found by pattern', () => {
    // Names in many scripts and cases (RE2 folds case on the UTF-8 either way), with and without a legal form.
    const name = fc
      .tuple(
        fc.array(
          fc.constantFrom(
            'Oakridge',
            'Straße',
            'STRASSE',
            'İstanbul',
            'ıstanbul',
            'ΣΟΦΙΑ',
            'σοφια',
            'Zürich',
            'zu\u0308rich',
            'Café',
            '😀',
            '\ud83d',
            'A/S',
            'Co.',
            'x',
          ),
          { minLength: 1, maxLength: 3 },
        ),
        fc.constantFrom('', ' Ltd', ' plc', ', Inc.', ' GmbH', ' SARL', ' AG'),
      )
      .map(([words, form]) => `${words.join(' ')}${form}`);
    const pattern = fc.oneof(
      fc.constantFrom(
        'oakridge',
        'strasse',
        'straße',
        'İSTANBUL',
        'σοφια',
        'ΣΟΦΙΑ',
        'zürich',
        'caf[eé]',
        '😀',
        '\\bltd\\b',
        '^Oakridge$',
        '^x$',
        'Oakridge\\s+Ltd',
        '(?:^|[^0-9a-z])Zürich(?:$|[^0-9a-z])',
        '.',
        '(',
        '\\pL+\\s+plc',
      ),
      name.map((text) => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')),
    );
    const mark = fc.record({ pattern, where: fc.constantFrom('subject', 'body', 'any', 'from'), held: fc.boolean() });
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 12 }), fc.array(mark, { minLength: 1, maxLength: 6 }), (names, marks) => {
        const customers = names.map(
          (label, i) => new CustomerMarks(`c${i}`, label, i % 3 === 0 ? [] : [{ pattern: marks[i % marks.length]!.pattern, where: 'any' }], i === 4),
        );
        const self = new CustomerMarks('self', 'Self Ltd');
        const teach = (list: readonly CustomerMarks[]) =>
          marks.map(({ pattern: text, where, held }) =>
            outcome(() => self.learn({ pattern: held ? (list[1]?.marks[0]?.pattern ?? text) : text, where: where as 'any' }, list).changed),
          );
        setMarkCaching(false);
        const plain = teach(customers);
        setMarkCaching(true);
        expect(teach(customers)).toEqual(plain);
        expect(teach(customers)).toEqual(plain);
      }),
      { numRuns: 500 },
    );
    // A pattern that only the plain name (without its legal form) meets, in the same order as before.
    const others = [new CustomerMarks('c0', 'Straße Werke GmbH'), new CustomerMarks('c1', 'Oakridge Ltd'), new CustomerMarks('c2', 'Oakridge Co.')];
    for (const pattern of ['^Oakridge$', '^STRASSE werke$|^straße WERKE$', 'Werke$', 'Oakridge']) {
      setMarkCaching(false);
      const plain = outcome(() => new CustomerMarks('self', 'Self').learn({ pattern, where: 'body' }, others));
      setMarkCaching(true);
      expect(plain, pattern).toContain('matches the name of');
      expect(
        outcome(() => new CustomerMarks('self', 'Self').learn({ pattern, where: 'body' }, others)),
        pattern,
      ).toBe(plain);
    }
  });

  // Found by the property above on Node 24 (CI): node-re2 there cuts a string short at half a surrogate pair, so
  // the plain path did not find 'Oakridge' in the name "\ud83d Oakridge" that the cached path (UTF-8 bytes) found.
  // Names and patterns are made well formed where they come in (well-formed.ts), so both refuse, on every Node.
  it('refuse a mark naming a customer whose name holds half a surrogate pair, alike with and without the caches', () => {
    const others = [new CustomerMarks('c0', '\ud83d Oakridge')];
    expect(others[0]!.name).toBe('\ufffd Oakridge');
    for (const caching of [false, true]) {
      setMarkCaching(caching);
      expect(
        outcome(() => new CustomerMarks('self', 'Self Ltd').learn({ pattern: 'Oakridge', where: 'subject' }, others)),
        String(caching),
      ).toContain('matches the name of');
      expect(compileMark('\ud83d x').test('\ufffd x'), String(caching)).toBe(true);
    }
  });

  it('compile patterns that match as freshly compiled ones do, used again and again', () => {
    const texts = ['Billing <billing@origin.example>', 'PA-2026-0901 arrived', 'Oakridge   Furniture', '', 'ÉÉ', 'billing@origin.example.net>'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('<billing@origin\\.example>', 'PA-2026-0901', 'oakridge\\s+furniture', 'é+', '^$', 'example'), {
          minLength: 1,
          maxLength: 20,
        }),
        (list) => {
          for (const pattern of list) {
            const shared = compiledMark(pattern);
            const fresh = compileMark(pattern);
            expect(shared.flags).toBe(fresh.flags);
            for (const textIn of texts) {
              expect(shared.test(textIn)).toBe(fresh.test(textIn));
              expect(shared.exec(textIn)?.[0]).toBe(fresh.exec(textIn)?.[0]);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(outcome(() => compiledMark('('))).toBe(outcome(() => compileMark('(')));
  });
});
