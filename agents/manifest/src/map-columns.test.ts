import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ColumnMapping } from './column-mapping.ts';
import { columnLetter, mapColumns, sameHeadedColumns, unmappedColumns } from './map-columns.ts';

const waybill = new ColumnMapping('waybill', 'Waybill number', ['AWB', 'Waybill No'], true);
const weight = new ColumnMapping('weight', 'Weight', ['Weight', 'Gross Wt']);
const consignee = new ColumnMapping('consignee', 'Consignee', ['Consignee']);

describe('mapColumns', () => {
  it('matches a heading to a learned one after trimming, ignoring case', () => {
    expect(mapColumns(['  awb ', 'GROSS WT'], [waybill, weight])).toEqual({
      waybill: { index: 0, heading: '  awb ' },
      weight: { index: 1, heading: 'GROSS WT' },
    });
  });

  it('takes the leftmost matching column, whatever order the field learned its headings in', () => {
    expect(mapColumns(['Gross Wt', 'Weight', 'WEIGHT'], [weight]).weight).toEqual({ index: 0, heading: 'Gross Wt' });
  });

  it('maps a field none of whose headings is in the sheet to null', () => {
    expect(mapColumns(['Ship To', 'Wt'], [consignee, weight])).toEqual({ consignee: null, weight: null });
  });

  it('never matches a blank heading', () => {
    expect(mapColumns(['', ' '], [new ColumnMapping('odd', 'Odd', [' '])]).odd).toBeNull();
  });

  it('holds for any headings: the mapped column is the leftmost whose heading is learned, however spaced or cased', () => {
    const heading = fc.oneof(fc.constantFrom('AWB', 'Waybill No', 'Weight', 'Remarks', 'Consignee'), fc.string({ maxLength: 6 }));
    const disguise = fc.tuple(fc.constantFrom('', ' ', '  '), fc.boolean(), fc.constantFrom('', ' '));
    fc.assert(
      fc.property(fc.array(fc.tuple(heading, disguise), { maxLength: 8 }), (columns) => {
        const headings = columns.map(([text, [before, upper, after]]) => `${before}${upper ? text.toUpperCase() : text}${after}`);
        const leftmost = columns.findIndex(([text]) => ['awb', 'waybill no'].includes(text.trim().toLowerCase()));
        expect(mapColumns(headings, [waybill]).waybill?.index ?? -1).toBe(leftmost);
      }),
    );
  });
});

describe('sameHeadedColumns and unmappedColumns', () => {
  const headings = ['Waybill', 'Consignee', 'Weight', 'WEIGHT', 'Remarks', 'remarks ', '', 'Consignee '];

  it('finds the other columns headed alike', () => {
    expect(sameHeadedColumns(headings, 2)).toEqual([3]);
    expect(sameHeadedColumns(headings, 1)).toEqual([7]);
    expect(sameHeadedColumns(headings, 6)).toEqual([]);
  });

  it('offers each unread heading once, leftmost first, and never a heading a field already reads', () => {
    expect(unmappedColumns(headings, [0, 1, 2])).toEqual([{ index: 4, heading: 'Remarks' }]);
  });
});

describe('columnLetter', () => {
  it('names columns as a spreadsheet does', () => {
    expect([0, 5, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual(['A', 'F', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
