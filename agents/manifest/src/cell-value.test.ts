import { describe, expect, it } from 'vitest';
import { cellOf, isoDate } from './cell-value.ts';

describe('cellOf', () => {
  it.each([
    ['a number', 287.2, 287.2],
    ['text', 'Perfumery', 'Perfumery'],
    ['blank text', '   ', null],
    ['nothing', null, null],
    ['a date', new Date(Date.UTC(2025, 2, 14)), '2025-03-14'],
    ['a date and time', new Date(Date.UTC(2025, 2, 14, 9, 30)), '2025-03-14T09:30:00'],
    ['a formula, by its cached result', { formula: 'ROUND(G2*1.08,1)', result: 323.6 }, 323.6],
    ['a formula with no cached result', { formula: 'A1' }, null],
    ['a formula whose result is an error', { formula: '1/0', result: { error: '#DIV/0!' as const } }, null],
    ['rich text, as plain text', { richText: [{ text: 'Consig' }, { text: 'nee' }] }, 'Consignee'],
    ['a hyperlink, by its text', { text: 'AWB 176', hyperlink: 'https://example.com' }, 'AWB 176'],
    ['an error', { error: '#N/A' as const }, null],
    ['a boolean', true, 'TRUE'],
    ['not a number', Number.NaN, null],
  ])('reads %s', (_, value, cell) => {
    expect(cellOf(value)).toEqual(cell);
  });
});

describe('isoDate', () => {
  it('rounds off the milliseconds exceljs leaves on a converted serial', () => {
    expect(isoDate(new Date(Date.UTC(2025, 2, 14, 11, 59, 59, 999)))).toBe('2025-03-14T12:00:00');
    expect(isoDate(new Date(Date.UTC(2025, 2, 13, 23, 59, 59, 999)))).toBe('2025-03-14');
  });
});
