import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { absorbLesson, defineCollection, retractValue } from '@learnables/learnable';
import { BACKGROUND_WAIT_MS, foreground } from '@learnables/runtime';
import type { Definition } from '@learnables/learnable';
import { CustomerMarks, MARK_PLACES, compileMark } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import {
  compileMarks,
  compiledInFull,
  customersMatching,
  findCustomer,
  matchMarks,
  prepareMarks,
  setMarksPerShard,
  setPatchMarks,
  setPieceMarks,
} from './match-marks.ts';
import type { Score, Verdict } from './match-marks.ts';
import { MESSAGE_FIELDS } from './message-fields.ts';
import type { MessageField, MessageFields } from './message-fields.ts';

// Sharded sets are a faster way to match; these tests hold them to deciding every message
// exactly as the plainest reading of the rules does: one regular expression per mark, tried in
// turn over the whole definition.

const WORDS = ['ab', 'cd', 'ef', 'x1', 'y2', 'z3', 'q', 'ngm', 'po'] as const;

/** One regular expression per pattern, compiled once for the whole file (it is the plain way's cost, not what is tested). */
const regexes = new Map<string, ReturnType<typeof compileMark>>();
function regexOf(pattern: string): ReturnType<typeof compileMark> {
  let regex = regexes.get(pattern);
  if (regex === undefined) {
    regex = compileMark(pattern);
    regexes.set(pattern, regex);
  }
  return regex;
}

/** The rules read literally: every mark, one by one. */
function plainVerdict(definition: Definition<CustomerMarks>, fields: MessageFields, margin: number): Verdict {
  const matched: { customer: string; mark: Mark; field: MessageField; text: string; order: number }[] = [];
  let order = 0;
  for (const customer of definition.entries) {
    for (const mark of customer.marks) {
      const regex = regexOf(mark.pattern);
      const field = MESSAGE_FIELDS.find((place) => (mark.where === 'any' || mark.where === place) && regex.test(fields[place]));
      if (field) matched.push({ customer: customer.key, mark, field, text: regex.exec(fields[field])?.[0] ?? '', order });
      order += 1;
    }
  }
  if (matched.length === 0) return { kind: 'unmarked' };
  const keys = definition.entries.map((entry) => entry.key);
  const points = new Map<string, number>();
  for (const hit of matched) points.set(hit.customer, (points.get(hit.customer) ?? 0) + 1);
  const scores: Score[] = [...points]
    .map(([customer, n]) => ({ customer, points: n }))
    .sort((a, b) => b.points - a.points || keys.indexOf(a.customer) - keys.indexOf(b.customer));
  const [top, next] = scores as [Score, ...Score[]];
  if (top.points - (next?.points ?? 0) < margin) {
    return { kind: 'close', contenders: scores.filter((s) => top.points - s.points < margin).map((s) => s.customer), scores };
  }
  const hits = matched
    .filter((hit) => hit.customer === top.customer)
    .sort((a, b) => MESSAGE_FIELDS.indexOf(a.field) - MESSAGE_FIELDS.indexOf(b.field) || a.order - b.order)
    .map(({ customer, mark, field, text }) => ({ customer, mark, field, text }));
  return { kind: 'settled', winner: top.customer, hits, scores };
}

const mark = fc.record({
  pattern: fc.oneof(
    fc.constantFrom(...WORDS),
    fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `${a}.?${b}`),
  ),
  where: fc.constantFrom(...MARK_PLACES),
});
const definitions = fc
  .array(fc.uniqueArray(mark, { maxLength: 5, selector: (m) => `${m.pattern}|${m.where}` }), { minLength: 1, maxLength: 40 })
  .map((marksPerCustomer) =>
    defineCollection(
      'customers',
      marksPerCustomer.map((marks, i) => new CustomerMarks(`c${i}`, `Customer ${i}`, marks)),
    ),
  );
const text = fc.array(fc.constantFrom(...WORDS, ' ', '-', 'é'), { maxLength: 8 }).map((parts) => parts.join(''));
const messages = fc.record({ from: text, subject: text, body: text, attachments: text });

describe('sharded sets', () => {
  let before: number;
  let piecesBefore: number;
  beforeAll(() => {
    // Small shards, so a few dozen marks make many of them, and smaller pieces still (3, so that
    // a piece ends in the middle of a customer's marks), so a field's marks in a shard make several sets.
    before = setMarksPerShard(4);
    piecesBefore = setPieceMarks(3);
  });
  afterAll(() => {
    setMarksPerShard(before);
    setPieceMarks(piecesBefore);
  });

  it('decide every generated message exactly as one regular expression per mark does', () => {
    fc.assert(
      fc.property(definitions, fc.array(messages, { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 3 }), (definition, fieldsList, margin) => {
        for (const fields of fieldsList) expect(matchMarks(definition, fields, margin)).toEqual(plainVerdict(definition, fields, margin));
      }),
      { numRuns: 300 },
    );
  });

  it('decide alike whether compiled at once or in slices, and after a lesson reuse every shard but the taught one', async () => {
    // Shards only, no patch (a patch stands in for the taught shard: see below).
    const patches = setPatchMarks(0);
    onTestFinished(() => void setPatchMarks(patches));
    await fc.assert(
      fc.asyncProperty(definitions, fc.nat(), mark, messages, async (definition, at, taught, fields) => {
        const sliced = await prepareMarks(definition);
        expect(compileMarks(definition)).toBe(sliced);
        const entry = definition.entries[at % definition.entries.length]!;
        const lesson = { collection: 'customers', entry: entry.key, value: { ...taught }, taughtBy: 'dana', reason: 'r' };
        let next: Definition<CustomerMarks>;
        try {
          next = absorbLesson(definition, lesson).definition as Definition<CustomerMarks>;
        } catch {
          return; // a mark the learnable refuses (e.g. one matching an empty text) makes no version
        }
        // As the agent gets it: rebuilt from stored state, no object shared with the last version.
        const rebuilt = defineCollection(
          'customers',
          next.entries.map(
            (c) =>
              new CustomerMarks(
                c.key,
                c.name,
                c.marks.map((m) => ({ ...m })),
              ),
          ),
        );
        const after = await prepareMarks(rebuilt);
        const reused = after.shards.filter((shard) => sliced.shards.includes(shard)).length;
        if (after.shards.length === sliced.shards.length) expect(reused).toBeGreaterThanOrEqual(after.shards.length - 1);
        expect(matchMarks(rebuilt, fields, 1)).toEqual(plainVerdict(rebuilt, fields, 1));
        // As absorbLesson makes it: the untouched customers are the same objects (reused by identity).
        const shared = await prepareMarks(next);
        if (shared.shards.length === after.shards.length)
          expect(shared.shards.filter((shard) => after.shards.includes(shard)).length).toBeGreaterThanOrEqual(after.shards.length - 1);
        expect(matchMarks(next, fields, 2)).toEqual(plainVerdict(next, fields, 2));
      }),
      { numRuns: 100 },
    );
  });

  it("decide alike when a version is served as a patch over the last shards, and after its full shards take the patch's place", async () => {
    // Shards of 32 marks, so one customer's change is a patch (a quarter of its shard at most).
    setMarksPerShard(32);
    onTestFinished(() => void setMarksPerShard(4));
    const many = fc
      .array(fc.uniqueArray(mark, { minLength: 1, maxLength: 3, selector: (m) => `${m.pattern}|${m.where}` }), { minLength: 60, maxLength: 140 })
      .map((marksPerCustomer) =>
        defineCollection(
          'customers',
          marksPerCustomer.map((marks, i) => new CustomerMarks(`c${i}`, `Customer ${i}`, marks)),
        ),
      );
    const change = fc.oneof(
      fc.record({ teach: fc.nat(), mark }),
      fc.record({ retract: fc.nat(), which: fc.nat() }),
      fc.record({ add: fc.nat(), marks: fc.uniqueArray(mark, { maxLength: 2, selector: (m) => `${m.pattern}|${m.where}` }) }),
      fc.record({ remove: fc.nat() }),
    );
    const holders = (definition: Definition<CustomerMarks>, from: string) =>
      definition.entries
        .filter((customer) => customer.marks.some((m) => (m.where === 'from' || m.where === 'any') && regexOf(m.pattern).test(from)))
        .map((c) => c.key);
    const same = (definition: Definition<CustomerMarks>, fieldsList: readonly MessageFields[]) => {
      // Each customer found by key in its place (versions made one from another share an index).
      for (const customer of definition.entries) expect(findCustomer(definition, customer.key)).toBe(customer);
      expect(findCustomer(definition, 'nobody')).toBeUndefined();
      for (const fields of fieldsList) {
        for (const margin of [1, 2]) expect(matchMarks(definition, fields, margin)).toEqual(plainVerdict(definition, fields, margin));
        expect(customersMatching(definition, 'from', fields.from).map((c) => c.key)).toEqual(holders(definition, fields.from));
      }
    };
    let patched = 0;
    await fc.assert(
      fc.asyncProperty(
        many,
        fc.array(change, { minLength: 1, maxLength: 8 }),
        fc.array(messages, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (first, changes, fieldsList, atOnce) => {
          await prepareMarks(first);
          const versions: Definition<CustomerMarks>[] = [first];
          let current = first;
          for (const step of changes) {
            // As absorbLesson and the authority client make them: untouched customers stay the same objects.
            const entries = current.entries;
            if ('teach' in step) {
              const entry = entries[step.teach % entries.length]!;
              try {
                current = absorbLesson(current, { collection: 'customers', entry: entry.key, value: { ...step.mark }, taughtBy: 'dana', reason: 'r' })
                  .definition as Definition<CustomerMarks>;
              } catch {
                continue; // refused (held by another customer, matches an empty text): no version
              }
            } else if ('retract' in step) {
              const entry = entries[step.retract % entries.length]!;
              const taken = entry.marks[step.which % Math.max(1, entry.marks.length)];
              if (taken === undefined) continue;
              try {
                current = retractValue(current, entry.key, { ...taken }).definition as Definition<CustomerMarks>;
              } catch {
                continue; // a generated mark the learnable would not have taken cannot be read back
              }
            } else if ('add' in step) {
              current = defineCollection('customers', [...entries, new CustomerMarks(`new${step.add}-${versions.length}`, 'New', step.marks)]);
            } else {
              current = defineCollection(
                'customers',
                entries.filter((_, i) => i !== step.remove % entries.length),
              );
            }
            const compiled = atOnce ? compileMarks(current) : await prepareMarks(current);
            if (compiled.patch !== undefined) patched += 1;
            versions.push(current);
            same(current, fieldsList);
          }
          // Every version still decides alike (a task may be pinned to any), then the full shards of the
          // newest take its patch's place in the background, and it decides alike again.
          for (const version of versions) same(version, fieldsList);
          await compiledInFull();
          expect(compileMarks(current).patch).toBeUndefined();
          expect(compileMarks(current).stale.size).toBe(0);
          same(current, fieldsList);
        },
      ),
      { numRuns: 80 },
    );
    // The property is about patches: most changes above were served as one.
    expect(patched).toBeGreaterThan(80);
  }, 60_000);

  it('decide alike on two versions made from one, each adding a different customer in the same place, read in turn', () => {
    setMarksPerShard(8);
    onTestFinished(() => void setMarksPerShard(4));
    const parent = defineCollection(
      'customers',
      Array.from({ length: 40 }, (_, i) => new CustomerMarks(`k${i}`, `K ${i}`, [{ pattern: `<k${i}@x\\.example>`, where: 'from' }])),
    );
    const withAdded = (key: string, pattern: string) =>
      defineCollection('customers', [...parent.entries, new CustomerMarks(key, key, [{ pattern, where: 'subject' }])]);
    const left = withAdded('left', 'PO-1');
    const right = withAdded('right', 'PO-1');
    // And one more step on each branch, a lesson to the added customer.
    const teach = (definition: Definition<CustomerMarks>, entry: string) =>
      absorbLesson(definition, { collection: 'customers', entry, value: { pattern: 'REF-9', where: 'body' }, taughtBy: 'dana', reason: 'r' })
        .definition as Definition<CustomerMarks>;
    const versions = [parent, left, right, teach(left, 'left'), teach(right, 'right'), left, parent];
    const fields: MessageFields[] = [
      { from: 'K <k3@x.example>', subject: 'PO-1', body: 'REF-9', attachments: '' },
      { from: '', subject: 'PO-1', body: '', attachments: '' },
      { from: 'K <k39@x.example>', subject: '', body: '', attachments: '' },
    ];
    for (const definition of [...versions, ...versions.reverse()]) {
      for (const message of fields) expect(matchMarks(definition, message, 1)).toEqual(plainVerdict(definition, message, 1));
      for (const customer of definition.entries) expect(findCustomer(definition, customer.key)).toBe(customer);
    }
    expect(findCustomer(left, 'right')).toBeUndefined();
    expect(findCustomer(right, 'left')).toBeUndefined();
    expect(findCustomer(parent, 'left')).toBeUndefined();
  });

  it('compiles the shards a lesson made stale only in pauses of the tasks being advanced (the patch serves meanwhile)', async () => {
    setMarksPerShard(32);
    onTestFinished(() => void setMarksPerShard(4));
    const first = defineCollection(
      'customers',
      Array.from({ length: 120 }, (_, i) => new CustomerMarks(`k${i}`, `K ${i}`, [{ pattern: `<k${i}@x\\.example>`, where: 'from' }])),
    );
    await prepareMarks(first);
    const taught = absorbLesson(first, { collection: 'customers', entry: 'k7', value: { pattern: 'PO-777', where: 'subject' }, taughtBy: 'dana', reason: 'r' })
      .definition as Definition<CustomerMarks>;
    // A task being advanced when the lesson's version comes: it is served by a patch at once...
    let endTask!: () => void;
    const task = foreground(() => new Promise<void>((resolve) => (endTask = resolve)));
    expect(compileMarks(taught).patch).toBeDefined();
    const inFull = compiledInFull();
    // ...and the stale shard is not compiled while the task runs (well within BACKGROUND_WAIT_MS).
    await new Promise((resolve) => setTimeout(resolve, BACKGROUND_WAIT_MS / 3));
    expect(compileMarks(taught).patch).toBeDefined();
    expect(matchMarks(taught, { from: '', subject: 'PO-777', body: '', attachments: '' }, 1)).toMatchObject({ kind: 'settled', winner: 'k7' });
    endTask();
    await task;
    await inFull;
    expect(compileMarks(taught).patch).toBeUndefined();
    expect(matchMarks(taught, { from: '', subject: 'PO-777', body: '', attachments: '' }, 1)).toMatchObject({ kind: 'settled', winner: 'k7' });
  });

  it('gives the event loop back while compiling a version in slices', async () => {
    const many = defineCollection(
      'customers',
      Array.from({ length: 64 }, (_, i) => new CustomerMarks(`k${i}`, `K ${i}`, [{ pattern: `<k${i}@x\\.example>`, where: 'from' }])),
    );
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    const ticks = new Promise<void>((resolve) => setImmediate(() => resolve()));
    let firstTurnBeforeDone = false;
    void ticks.then(() => (firstTurnBeforeDone = true));
    const compiled = await prepareMarks(many);
    clearInterval(ticking);
    expect(compiled.shards.length).toBeGreaterThan(8);
    expect(firstTurnBeforeDone).toBe(true);
    expect(matchMarks(many, { from: 'K <k17@x.example>', subject: '', body: '', attachments: '' }, 1)).toMatchObject({ kind: 'settled', winner: 'k17' });
  });
});
