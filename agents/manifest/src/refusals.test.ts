import { InputRefused } from '@learnables/runtime';
import { describe, expect, it } from 'vitest';
import { refuse } from './refusals.ts';

const everyRefusal = (filename: string | undefined): InputRefused[] => [
  refuse.noFile(),
  refuse.notASheetFile(filename, 'image/png'),
  refuse.passwordProtected(),
  refuse.legacyExcel(filename),
  refuse.binaryExcel(filename),
  refuse.notAWorkbook(filename, 'a PNG image'),
  refuse.notText(filename, 'a PNG image'),
  refuse.cutShort(filename),
  refuse.damaged(filename),
  refuse.unpacksTooLarge(filename, 268_436_697, 100_000_000),
  refuse.unpacksPastItsSize(filename),
  refuse.noWorksheet(filename),
  refuse.emptySheet(filename, false),
  refuse.emptySheet(filename, true),
  refuse.noHeaderRow(filename, 50),
  refuse.quoteNotClosed(filename, 12),
  refuse.recordTooLong(filename, 12, 1_000_000),
  refuse.tooManyCells(filename, 12, 16_384),
];

describe('refusals', () => {
  it('are InputRefused, each one or more whole sentences', () => {
    for (const refusal of everyRefusal('m.xlsx')) {
      expect(refusal).toBeInstanceOf(InputRefused);
      expect(refusal.message).toMatch(/^['A-Z].*\.$/s);
    }
  });

  it('name the file when they know it, and say "this file" when they do not', () => {
    const named = everyRefusal('m.xlsx').filter((refusal) => refusal.message.includes("'m.xlsx'"));
    expect(named.length).toBeGreaterThanOrEqual(12);
    for (const refusal of everyRefusal(undefined)) {
      expect(refusal.message).not.toContain('undefined');
      expect(refusal.message).not.toMatch(/(?<!^|\. )This file|(?<=^|\. )this file/);
    }
  });

  it('round sizes up, so a file just over the limit never reads as equal to it', () => {
    expect(refuse.unpacksTooLarge('m.xlsx', 100_000_001, 100_000_000).message).toContain('unpacks to 101 MB, more than the 100 MB limit');
    expect(refuse.unpacksTooLarge('m.xlsx', 19_474, 10_000).message).toContain('unpacks to 20 kB, more than the 10 kB limit');
  });
});
