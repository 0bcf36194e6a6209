import { describe, expect, it } from 'vitest';
import { refusalOf } from '@learnables/testing';
import { ColumnMapping, columnMappingKind } from './column-mapping.ts';

const waybill = () => new ColumnMapping('waybill', 'Waybill number', ['AWB', 'Waybill No'], true);

describe('ColumnMapping', () => {
  it('adds a heading exactly as the sheet shows it, trimmed', () => {
    const { next, changed } = waybill().learn({ column: '  Air Waybill No ' });
    expect(changed).toBe(true);
    expect((next as ColumnMapping).columns).toEqual(['AWB', 'Waybill No', 'Air Waybill No']);
  });

  it('knows a heading it already has, whatever its case', () => {
    const before = waybill();
    expect(before.learn({ column: 'waybill no' })).toEqual({ next: before, changed: false });
  });

  it("says what it learned: reads waybill from the 'Air Waybill No' column", () => {
    expect(waybill().describes({ column: 'Air Waybill No' })).toBe("reads waybill from the 'Air Waybill No' column");
  });

  it.each([
    [{ column: '' }, 'a mapping needs a column'],
    [{}, 'a mapping needs a column'],
    [{ column: 7 }, 'a mapping needs a column'],
    [{ column: 'AWB', pattern: 'x' }, 'A mapping takes a column; "pattern" is not one.'],
  ])('refuses %j in a sentence', (value, sentence) => {
    expect(refusalOf(() => waybill().learn(value))).toBe(sentence);
  });

  it('comes back from storage as it went in', () => {
    const back = columnMappingKind.fromState('waybill', JSON.parse(JSON.stringify(waybill().toState())));
    expect(back).toEqual(waybill());
  });
});
