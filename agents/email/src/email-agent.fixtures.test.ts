import { readFile, readdir } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import type { PinnedDefinitions } from '@learnables/runtime';
import { InputRefused, pinDefinitions } from '@learnables/runtime';
import { type CustomerMarks, compileMark, customerMarksKind } from './customer-marks.ts';
import { createEmailAgent } from './email-agent.ts';
import { InternalSenders } from './internal-senders.ts';
import { messageModel } from './message-model.ts';
import { isReferenceFormat } from './match-marks.ts';
import { bearsName, domainWords } from './suggest-mark.ts';
import type { EmailInput } from './email-input.ts';
import { MESSAGE_FIELDS } from './message-fields.ts';
import { parseEmail } from './parse-email.ts';

const fixtures = new URL('../../../fixtures/email/', import.meta.url);
const readJson = async (url: URL): Promise<unknown> => JSON.parse(await readFile(url, 'utf8'));

interface Truth {
  readonly customer: string | null;
  readonly note: string;
}

// The fixtures' warehouse: its own people forward customers' mail (fwd-ops-*).
const internal = new InternalSenders({ domains: ['warehouse.example'] });
const emailAgent = createEmailAgent({ internal });

const pinned = (definition: Definition, version: number): PinnedDefinitions => pinDefinitions([{ ...definition, version }]);

let truth: Record<string, Truth>;
let seed: Definition<CustomerMarks>;
const parsed = new Map<string, EmailInput>();
const refused = new Map<string, unknown>();

beforeAll(async () => {
  truth = (await readJson(new URL('ground-truth.json', fixtures))) as Record<string, Truth>;
  const seedFile = (await readJson(new URL('../seeds/customers.json', fixtures))) as { entries: Record<string, unknown> };
  seed = defineCollection(
    'customers',
    Object.entries(seedFile.entries).map(([key, state]) => customerMarksKind.fromState(key, state)),
  );
  for (const file of (await readdir(fixtures)).filter((name) => name.endsWith('.eml'))) {
    try {
      parsed.set(file, await parseEmail(await readFile(new URL(file, fixtures))));
    } catch (error) {
      refused.set(file, error);
    }
  }
});

/**
 * Whether any of the customer's seed marks matches the author's own part of the message (the
 * evidence rule, issue 35), tried one by one: the slow, obvious way. A reference format counts only
 * when the sender's domain bears the customer's name (another customer may issue the same shape).
 */
function seedMarkApplies(customer: string, input: EmailInput): boolean {
  const fields = messageModel(input, internal).own;
  const entry = seed.entries.find((candidate) => candidate.key === customer);
  const tied = entry !== undefined && fields.from !== '' && bearsName(domainWords(fields.from.slice(1, -1)), entry.label);
  return (entry?.marks ?? []).some(
    (mark) =>
      (tied || !isReferenceFormat(mark)) &&
      (mark.where === 'any' ? MESSAGE_FIELDS : [mark.where]).some((field) => compileMark(mark.pattern).test(fields[field])),
  );
}

const fromOrigin = (input: EmailInput) => input.from.address.toLowerCase() === 'billing@origin.example';

describe('the email fixtures under the seed customers', () => {
  it('has a ground truth for every fixture', () => {
    expect([...parsed.keys(), ...refused.keys()].sort()).toEqual(Object.keys(truth).sort());
  });

  it('refuses exactly the malformed fixtures, each with a sentence', () => {
    expect([...refused.keys()].sort()).toEqual(
      Object.keys(truth)
        .filter((file) => file.startsWith('malformed-'))
        .sort(),
    );
    for (const [file, error] of refused) {
      expect(error, file).toBeInstanceOf(InputRefused);
      expect((error as InputRefused).message, file).toMatch(/^This [^\n]+\.$/);
    }
  });

  it('settles every message whose customer has a seed mark that applies, to that customer', () => {
    const expected = [...parsed].filter(([file, input]) => {
      const customer = truth[file]?.customer;
      return customer != null && seedMarkApplies(customer, input);
    });
    expect(expected.length).toBeGreaterThanOrEqual(19);
    for (const [file, input] of expected) {
      const reading = emailAgent.read(input, pinned(seed, 1));
      expect(reading.findings.customer?.winner, `${file}: ${reading.findings.customer?.reads}`).toBe(truth[file]?.customer);
    }
  });

  it('never settles a message to the wrong customer', () => {
    for (const [file, input] of parsed) {
      const reading = emailAgent.read(input, pinned(seed, 1));
      if (reading.settled) expect(reading.result.customer, `${file}: ${reading.findings.customer?.reads}`).toBe(truth[file]?.customer);
    }
  });

  it('asks about every other message, offering every customer and a suggestion that, taught, settles it', () => {
    const unsettled = [...parsed].filter(([, input]) => !emailAgent.read(input, pinned(seed, 1)).settled);
    expect(unsettled.length).toBeGreaterThanOrEqual(15);
    for (const [file, input] of unsettled) {
      const reading = emailAgent.read(input, pinned(seed, 1));
      if (reading.settled) continue;
      expect(reading.question.entries, file).toHaveLength(seed.entries.length);
      const suggested = reading.question.suggested;
      expect(suggested, file).toBeDefined();
      const customer = truth[file]?.customer ?? 'copperfield-books';
      const lesson = { collection: 'customers', entry: customer, value: suggested ?? {}, taughtBy: 'test', reason: file };
      const taught = absorbLesson(seed, lesson).definition;
      expect(emailAgent.read(input, pinned(taught, 2)).findings.customer?.winner, file).toBe(customer);
    }
  });

  it('after the lesson <billing@origin\\.example> (from) for northgate, settles every billing@origin.example message to northgate and not the lookalike', () => {
    const lesson = {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: '<billing@origin\\.example>', where: 'from' },
      taughtBy: 'dana',
      reason: 'Origin bills for Northgate',
    };
    const { definition, changed } = absorbLesson(seed, lesson);
    expect(changed).toBe(true);
    const origin = [...parsed].filter(([, input]) => fromOrigin(input));
    expect(origin.map(([file]) => file).sort()).toEqual([
      'northgate-billing-prealert.eml',
      'northgate-billing-statement-csv.eml',
      'northgate-billing-storage-invoice-html.eml',
    ]);
    for (const [file, input] of origin) {
      expect(emailAgent.read(input, pinned(seed, 1)).settled, `${file} before the lesson`).toBe(false);
      const reading = emailAgent.read(input, pinned(definition, 2));
      expect(reading.findings.customer, file).toMatchObject({
        settled: true,
        winner: 'northgate',
        reads: 'Reads as Northgate Motors Ltd, on billing@origin.example',
      });
      expect(reading.settled && reading.result.version, file).toBe(2);
    }
    const lookalike = parsed.get('hollis-toys-origin-example-near-miss.eml');
    if (lookalike === undefined) throw new Error('the lookalike fixture did not parse');
    expect(emailAgent.read(lookalike, pinned(definition, 2)).findings.customer?.winner).toBeUndefined();
  });
});
