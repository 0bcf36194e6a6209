import { describe, expect, it } from 'vitest';
import { ColumnMapping } from './column-mapping.ts';
import type { MappedColumn } from './map-columns.ts';
import type { Cell } from './sheet-input.ts';
import { suggestColumn } from './suggest-column.ts';

const waybill = new ColumnMapping('waybill', 'Waybill number', ['Waybill', 'AWB', 'HAWB'], true);
const columns = (...headings: string[]): MappedColumn[] => headings.map((heading, index) => ({ index, heading }));

describe('suggestColumn', () => {
  it('prefers a heading that names the field and values that look like it', () => {
    const rows: Cell[][] = [
      ['ref-1', '176-12345675'],
      ['ref-2', '176-22345676'],
    ];
    expect(suggestColumn(waybill, columns('Remarks', 'Air Waybill No'), rows)?.heading).toBe('Air Waybill No');
  });

  it('finds the field by its values when the heading says nothing: 11-digit air waybills, dashed or not', () => {
    const rows: Cell[][] = [
      ['Keep cool', 17675326473],
      [null, 17685048051],
    ];
    expect(suggestColumn(waybill, columns('Remarks', 'Ref'), rows)?.heading).toBe('Ref');
  });

  it.each(['Air Waybill No', 'AWB#', 'Bill of Lading', 'Airwaybill'])('hears the field in the heading %j', (heading) => {
    expect(suggestColumn(waybill, columns('Remarks', heading), [])?.heading).toBe(heading);
  });

  it('falls back to the first column when nothing points anywhere', () => {
    expect(suggestColumn(waybill, columns('Remarks', 'Notes'), [['a', 'b']])?.heading).toBe('Remarks');
  });

  it('suggests nothing when there is nothing to offer', () => {
    expect(suggestColumn(waybill, [], [])).toBeUndefined();
  });
});
