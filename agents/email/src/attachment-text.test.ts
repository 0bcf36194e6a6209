import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { LONGEST_TEXT, decodeText, isTextLike } from './attachment-text.ts';

describe('isTextLike', () => {
  it.each([
    ['text/csv', 'forecast.csv'],
    ['text/plain', 'notes'],
    ['application/json', 'manifest'],
    ['application/ld+json', 'data'],
    ['application/vnd.ms-excel', 'statement.CSV'],
  ])('reads %s (%s) as text', (mediaType, filename) => {
    expect(isTextLike(mediaType, filename)).toBe(true);
  });

  it.each([
    ['application/pdf', 'invoice.pdf'],
    ['image/png', 'logo.png'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'manifest.xlsx'],
  ])('leaves %s (%s) unread', (mediaType, filename) => {
    expect(isTextLike(mediaType, filename)).toBe(false);
  });
});

describe('decodeText', () => {
  it('decodes the declared charset', () => {
    expect(decodeText(Buffer.from([0x80, 0x20, 0x93, 0x61, 0x94]), 'windows-1252')).toBe('€ “a”');
    expect(decodeText(Buffer.from([0xfc, 0x8a, 0x9f]), 'ISO-8859-1')).toBe('üŠŸ');
    expect(decodeText(Buffer.from([0xc5, 0x82]), 'UTF-8')).toBe('ł');
  });

  it("shows the bytes windows-1252 leaves unassigned as '�', which a mark's author can see", () => {
    expect(decodeText(Buffer.from([0x41, 0x81, 0x9d]), 'windows-1252')).toBe('A��');
  });

  it('reads an unknown charset as UTF-8 rather than failing', () => {
    expect(decodeText(Buffer.from('Zürich'), 'x-no-such-charset')).toBe('Zürich');
  });

  it('keeps at most a megabyte of characters', () => {
    expect(decodeText(Buffer.alloc(LONGEST_TEXT + 10, 'a'), undefined)).toHaveLength(LONGEST_TEXT);
  });
});
