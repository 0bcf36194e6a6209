import { describe, expect, it, onTestFinished } from 'vitest';
import { absorbLesson, defineCollection } from '@learnables/learnable';
import type { Definition } from '@learnables/learnable';
import { CustomerMarks, customerMarksKind } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import { compileMarks, matchMarks, setPieceMarks } from './match-marks.ts';
import type { MessageFields } from './message-fields.ts';

const customers = (...entries: [string, Mark[]][]) =>
  defineCollection(
    'customers',
    entries.map(([key, marks]) => new CustomerMarks(key, key.toUpperCase(), marks)),
  );

const message = (fields: Partial<MessageFields>): MessageFields => ({ from: '', subject: '', body: '', attachments: '', ...fields });

describe('matchMarks', () => {
  it('gives the message to the customer whose mark matches', () => {
    const verdict = matchMarks(
      customers(
        ['northgate', [{ pattern: '@northgate-motors\\.example', where: 'from' }]],
        ['brightwell', [{ pattern: '@brightwell\\.example', where: 'from' }]],
      ),
      message({ from: 'Jenny Parry <j.parry@northgate-motors.example>' }),
      1,
    );
    expect(verdict).toMatchObject({ kind: 'settled', winner: 'northgate' });
  });

  it('claims nothing when no mark matches', () => {
    const verdict = matchMarks(customers(['northgate', [{ pattern: 'NGM/', where: 'subject' }]]), message({ subject: 'Where is our pallet?' }), 1);
    expect(verdict).toEqual({ kind: 'unmarked' });
  });

  it('looks for a mark only in its own part of the message', () => {
    const definition = customers(['northgate', [{ pattern: 'NGM/2026/1142', where: 'subject' }]]);
    expect(matchMarks(definition, message({ body: 'shipment NGM/2026/1142', attachments: 'NGM/2026/1142.pdf' }), 1).kind).toBe('unmarked');
    expect(matchMarks(definition, message({ subject: 'Re: NGM/2026/1142' }), 1).kind).toBe('settled');
  });

  it('ignores case, as marks do when they are taught', () => {
    const verdict = matchMarks(
      customers(['northgate', [{ pattern: 'billing@origin\\.example', where: 'from' }]]),
      message({ from: '<BILLING@Origin.Example>' }),
      1,
    );
    expect(verdict).toMatchObject({ kind: 'settled', winner: 'northgate' });
  });

  it('scores a mark for any part once, however many parts it matches', () => {
    const definition = customers(
      ['acme', [{ pattern: 'acme', where: 'any' }]],
      [
        'bolt',
        [
          { pattern: 'bolt-1', where: 'body' },
          { pattern: 'bolt-2', where: 'body' },
        ],
      ],
    );
    const verdict = matchMarks(definition, message({ from: '<x@acme.example>', subject: 'acme', body: 'acme bolt-1 bolt-2', attachments: 'acme.pdf' }), 1);
    expect(verdict).toMatchObject({
      kind: 'settled',
      winner: 'bolt',
      scores: [
        { customer: 'bolt', points: 2 },
        { customer: 'acme', points: 1 },
      ],
    });
  });

  it('calls a tie close and names the contenders in definition order', () => {
    const definition = customers(['alpha', [{ pattern: 'PA-2026', where: 'subject' }]], ['beta', [{ pattern: 'pallets', where: 'subject' }]]);
    expect(matchMarks(definition, message({ subject: 'PA-2026-0901 pallets' }), 1)).toEqual({
      kind: 'close',
      contenders: ['alpha', 'beta'],
      scores: [
        { customer: 'alpha', points: 1 },
        { customer: 'beta', points: 1 },
      ],
    });
  });

  it('settles only when the lead is at least the margin', () => {
    const definition = customers(
      [
        'alpha',
        [
          { pattern: 'a1', where: 'body' },
          { pattern: 'a2', where: 'body' },
          { pattern: 'a3', where: 'body' },
        ],
      ],
      [
        'beta',
        [
          { pattern: 'b1', where: 'body' },
          { pattern: 'b2', where: 'body' },
        ],
      ],
      ['gamma', [{ pattern: 'c1', where: 'body' }]],
    );
    expect(matchMarks(definition, message({ body: 'a1 a2 b1' }), 1)).toMatchObject({ kind: 'settled', winner: 'alpha' });
    expect(matchMarks(definition, message({ body: 'a1 a2 b1' }), 2)).toMatchObject({ kind: 'close', contenders: ['alpha', 'beta'] });
    expect(matchMarks(definition, message({ body: 'a1 a2 a3 b1 b2 c1' }), 2)).toMatchObject({ kind: 'close', contenders: ['alpha', 'beta'] });
    expect(matchMarks(definition, message({ body: 'a1 a2 a3 b1' }), 2)).toMatchObject({ kind: 'settled', winner: 'alpha' });
    expect(matchMarks(definition, message({ body: 'a1' }), 2)).toMatchObject({ kind: 'close', contenders: ['alpha'] });
  });

  it("says which of the winner's marks decided, where each matched first and what it matched", () => {
    const definition = customers(
      [
        'northgate',
        [
          { pattern: '@northgate-motors\\.example', where: 'from' },
          { pattern: 'NGM/\\d{4}/\\d+', where: 'any' },
        ],
      ],
      ['brightwell', [{ pattern: 'pallets', where: 'body' }]],
    );
    const verdict = matchMarks(
      definition,
      message({ from: 'Northgate Logistics <logistics@northgate-motors.example>', body: 'NGM/2026/1187, 3 pallets', attachments: 'NGM/2026/1187.pdf' }),
      1,
    );
    expect(verdict).toMatchObject({
      kind: 'settled',
      hits: [
        { customer: 'northgate', mark: { pattern: '@northgate-motors\\.example', where: 'from' }, field: 'from', text: '@northgate-motors.example' },
        { customer: 'northgate', mark: { pattern: 'NGM/\\d{4}/\\d+', where: 'any' }, field: 'body', text: 'NGM/2026/1187' },
      ],
    });
  });

  it('names the customer whose stored mark does not compile', () => {
    const broken = defineCollection('customers', [customerMarksKind.fromState('northgate', { name: 'Northgate', marks: [{ pattern: 'a(', where: 'from' }] })]);
    expect(() => matchMarks(broken, message({ from: 'a' }), 1)).toThrow(`northgate's mark cannot be used: "a(" is not a usable pattern: missing )`);
  });
});

describe('compileMarks', () => {
  it('compiles a version once, even when the runtime pins a copy of it', () => {
    const definition = customers(['northgate', [{ pattern: 'x', where: 'any' }]]);
    const compiled = compileMarks(definition);
    expect(compileMarks(definition)).toBe(compiled);
    const pinned: Definition<CustomerMarks> & { version: number } = { ...definition, version: 3 };
    expect(compileMarks(pinned)).toBe(compiled);
  });

  it('compiles a new version afresh, so a lesson takes effect on the next message', () => {
    const before = customers(['northgate', []]);
    const fields = message({ from: 'Origin Billing <billing@origin.example>' });
    expect(matchMarks(before, fields, 1).kind).toBe('unmarked');
    const lesson = {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: '<billing@origin\\.example>', where: 'from' },
      taughtBy: 'dana',
      reason: 'r',
    };
    const after = absorbLesson(before, lesson).definition;
    expect(compileMarks(after)).not.toBe(compileMarks(before));
    expect(matchMarks(after, fields, 1)).toMatchObject({ kind: 'settled', winner: 'northgate' });
  });

  it('puts each mark in the set of its part, and a mark for any in every set', () => {
    const { shards } = compileMarks(
      customers([
        'a',
        [
          { pattern: 'f', where: 'from' },
          { pattern: 's', where: 'subject' },
          { pattern: 'y', where: 'any' },
        ],
      ]),
    );
    expect(shards).toHaveLength(1);
    const { sets } = shards[0]!;
    expect(sets.from?.map((piece) => piece.set.sources)).toEqual([['f', 'y']]);
    expect(sets.subject?.map((piece) => piece.set.sources)).toEqual([['s', 'y']]);
    expect(sets.body?.map((piece) => piece.set.sources)).toEqual([['y']]);
    expect(sets.attachments?.map((piece) => piece.set.sources)).toEqual([['y']]);
  });

  it("compiles a field's marks in a shard as sets of at most PIECE_MARKS, in order", () => {
    const pieces = setPieceMarks(2);
    onTestFinished(() => void setPieceMarks(pieces));
    const definition = customers(
      [
        'a',
        [
          { pattern: 'f1', where: 'from' },
          { pattern: 'f2', where: 'from' },
          { pattern: 'y', where: 'any' },
        ],
      ],
      [
        'b',
        [
          { pattern: 'f3', where: 'from' },
          { pattern: 's', where: 'subject' },
        ],
      ],
    );
    const { shards } = compileMarks(definition);
    expect(shards).toHaveLength(1);
    expect(shards[0]!.sets.from?.map((piece) => piece.set.sources)).toEqual([
      ['f1', 'f2'],
      ['y', 'f3'],
    ]);
    expect(shards[0]!.sets.subject?.map((piece) => piece.set.sources)).toEqual([['y', 's']]);
    // The last piece's marks still decide.
    expect(matchMarks(definition, message({ from: 'B <f3@b.example>' }), 1)).toMatchObject({ kind: 'settled', winner: 'b' });
  });

  it("fits twenty thousand marks, beyond RE2's default set memory, and still finds the one that matches", () => {
    const many = defineCollection(
      'customers',
      Array.from({ length: 20_000 }, (_, i) => new CustomerMarks(`c${i}`, `Customer ${i}`, [{ pattern: `<buyer${i}@customer${i}\\.example>`, where: 'from' }])),
    );
    expect(matchMarks(many, message({ from: 'Buyer <buyer12345@customer12345.example>' }), 1)).toMatchObject({ kind: 'settled', winner: 'c12345' });
  });
});
