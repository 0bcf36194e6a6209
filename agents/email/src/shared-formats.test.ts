import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defineCollection } from '@learnables/learnable';
import { pinDefinitions } from '@learnables/runtime';
import type { Question } from '@learnables/runtime';
import { CustomerMarks, checkSeedMarks, customerMarksKind } from './customer-marks.ts';
import type { Mark, MarkLesson } from './customer-marks.ts';
import { createEmailAgent } from './email-agent.ts';
import type { EmailInput } from './email-input.ts';
import { referencePattern } from './mark-patterns.ts';
import { exampleOf } from './mark-examples.ts';

/**
 * Issue 35, class 6: reference formats shared by two customers (the same letters-and-digits shape
 * issued by both). A seed mark that is such a format claims the other customer's mail, or ties with
 * it for ever: the seed check finds it. A message whose reference two customers' formats take is
 * asked with the reference itself, whole (one shipment), never a shape.
 */

const customer = (key: string, marks: Mark[]) => new CustomerMarks(key, `${key} Ltd`, marks);

describe('the seed check finds a reference format two customers share', () => {
  it("refuses a seed whose BK- format also takes KF-BK- references of another customer (the seed's own bug)", () => {
    const entries = [
      customer('birk', [{ pattern: '\\bBK-\\d{4}-\\d{4}\\b', where: 'subject' }]),
      customer('kingfisher', [{ pattern: 'KF-BK-\\d{4}-\\d{4}', where: 'subject' }]),
    ];
    expect(() => checkSeedMarks(entries)).toThrow(
      "birk's mark '\\bBK-\\d{4}-\\d{4}\\b' also takes KF-BK-0000-0000, a reference in kingfisher's format ('KF-BK-\\d{4}-\\d{4}')",
    );
  });

  it('refuses the same shape issued by both, written differently, in places they share', () => {
    const entries = [
      customer('sable', [{ pattern: '\\bSBF\\d{2}-\\d{4}', where: 'body' }]),
      customer('bluelake', [{ pattern: 'BL-SBF\\d{2}-\\d{4}\\b', where: 'any' }]),
      customer('pinto', [{ pattern: '\\bPO-\\d{5}\\b', where: 'subject' }]),
      customer('porter', [{ pattern: 'PO-\\d{5}', where: 'any' }]),
    ];
    expect(() => checkSeedMarks(entries)).toThrow(/sable's mark '\\bSBF\\d\{2\}-\\d\{4\}' also takes BL-SBF00-0000/);
    expect(() => checkSeedMarks(entries)).toThrow(/pinto's mark '\\bPO-\\d\{5\}\\b' also takes PO-00000, a reference in porter's format/);
  });

  it('lets distinct formats be, and formats in places the marks do not share', () => {
    const entries = [
      customer('birk', [{ pattern: '\\bBK-\\d{4}-\\d{4}\\b', where: 'subject' }]),
      customer('kingfisher', [{ pattern: 'KF-BK-\\d{4}-\\d{4}', where: 'attachments' }]),
      customer('pinto', [{ pattern: '\\bPO-\\d{5}\\b', where: 'subject' }]),
      customer('quay', [{ pattern: '\\bQY/\\d{4}/\\d{3,}', where: 'any' }]),
    ];
    expect(() => checkSeedMarks(entries)).not.toThrow();
  });

  it('passes the shipped seed', () => {
    const seed = JSON.parse(readFileSync(new URL('../../../fixtures/seeds/customers.json', import.meta.url), 'utf8')) as { entries: Record<string, unknown> };
    expect(() => checkSeedMarks(Object.entries(seed.entries).map(([key, state]) => customerMarksKind.fromState(key, state)))).not.toThrow();
  });

  it('writes a text for the simple patterns formats are written in, and none for the others', () => {
    expect(exampleOf('\\bNGM/\\d{4}/\\d+')).toBe('NGM/0000/0');
    expect(exampleOf('\\bTWP\\d{7}\\b')).toBe('TWP0000000');
    expect(exampleOf(referencePattern('PA-2026-0901'))).toBe('PA-2026-0901');
    expect(exampleOf('a.b')).toBeUndefined();
    expect(exampleOf('(?i)x')).toBeUndefined();
  });
});

describe('a reference two customers issue in one format', () => {
  const email = (subject: string): EmailInput => ({ from: { address: '', name: '' }, subject, body: '', attachments: [] });
  const definitions = () =>
    pinDefinitions([
      {
        ...defineCollection('customers', [
          customer('birk', [{ pattern: 'BK-\\d{4}-\\d{4}', where: 'subject' }]),
          customer('bark', [{ pattern: '\\bBK-\\d{4}', where: 'subject' }]),
        ]),
        version: 1,
      },
    ]);

  it('ties, and is asked with the reference itself, whole, never the shape', () => {
    const reading = createEmailAgent().read(email('Booking BK-2026-1282 for Friday'), definitions());
    expect(reading.settled).toBe(false);
    const question = (reading as { question: Question<MarkLesson> }).question;
    expect(question.question).toContain('birk Ltd or bark Ltd');
    expect(question.suggested).toEqual({ pattern: referencePattern('BK-2026-1282'), where: 'subject' });
  });

  it('with a prefix, is asked with the whole reference, which the shapes inside it do not make', () => {
    const reading = createEmailAgent().read(email('Booking KF-BK-2026-1282 for Friday'), definitions());
    const question = (reading as { question: Question<MarkLesson> }).question;
    expect(question.suggested).toEqual({ pattern: referencePattern('KF-BK-2026-1282'), where: 'subject' });
  });
});
