import { describe, expect, it } from 'vitest';
import { airWaybill, checkColumn, formOf, validAirWaybill } from './field-forms.ts';

describe('an air waybill number: a 3-digit airline prefix, a 7-digit serial and its check digit (serial mod 7)', () => {
  // 1234567 mod 7 = 5; 7532647 mod 7 = 3; 0000000 mod 7 = 0; 9999999 mod 7 = 2.
  it.each([
    ['176-12345675', true, 'the usual spelling'],
    ['176 1234 5675', true, 'as printed on the waybill'],
    ['17612345675', true, 'digits only'],
    ['176-1234 5675', true, 'mixed'],
    [' 176-12345675 ', true, 'spaces around'],
    [17675326473, true, 'a number cell'],
    [612345675, true, 'a number cell that lost the prefix 006 (two leading zeros)'],
    ['006-12345675', true, 'prefix with leading zeros, as text'],
    ['000-00000000', true, 'serial 0, check 0'],
    ['020-99999992', true, 'serial 9999999, check 2'],
    ['176-12345676', false, 'check digit off by one'],
    ['176-12345670', false, 'check digit 0 where 5 belongs'],
    ['176-12345678', false, 'check digit 8 (mod 7 never gives 7, 8 or 9)'],
    ['176-1234567', false, 'one digit short'],
    ['176-123456755', false, 'one digit long'],
    ['PO-4471', false, 'a purchase order'],
    ['NWC250314001', false, 'a house waybill'],
    ['176/12345675', false, 'a slash is not a spelling of it'],
    ['176--12345675', false, 'two dashes'],
    [12, false, 'a small number (never padded into one)'],
    [176.5, false, 'a fraction'],
    ['', false, 'blank'],
  ] as const)('%j → %s (%s)', (value, valid, _why) => {
    expect(validAirWaybill(value)).toBe(valid);
  });

  it('splits it into prefix, serial and check digit whatever the spelling', () => {
    for (const spelling of ['176-12345675', '176 1234 5675', '17612345675', 17612345675]) {
      expect(airWaybill(spelling)).toEqual({ prefix: '176', serial: '1234567', check: 5 });
    }
  });
});

describe('the waybill form depends on what the heading claims', () => {
  it('a heading that says house bill also takes a forwarder number; any other heading only an air waybill', () => {
    expect(formOf('waybill', 'HAWB')?.fits('NWC250314001')).toBe(true);
    expect(formOf('waybill', 'House Bill No')?.fits('PLC-2612345')).toBe(true);
    expect(formOf('waybill', 'HAWB Number')?.fits('176-12345675')).toBe(true);
    expect(formOf('waybill', 'Ref')?.fits('NWC250314001')).toBe(false);
    expect(formOf('waybill', 'Ref')?.fits('PO-4471')).toBe(false);
    expect(formOf('waybill', 'AWB')?.fits('176-12345675')).toBe(true);
  });

  it('weight is a number with or without a unit; pieces a whole number; other fields have no form', () => {
    expect(['12.5 kg', '317.7KG', '2,844.0 lbs', 134.8, '134,8'].every((cell) => formOf('weight', 'Weight')?.fits(cell))).toBe(true);
    expect(['fragile', 'PO-4471', 'n/a'].some((cell) => formOf('weight', 'Weight')?.fits(cell))).toBe(false);
    expect([3, '12', '1,200'].every((cell) => formOf('pieces', 'Pcs')?.fits(cell))).toBe(true);
    expect([2.5, 'ten', '-3'].some((cell) => formOf('pieces', 'Pcs')?.fits(cell))).toBe(false);
    expect(formOf('consignee', 'Consignee')).toBeUndefined();
    expect(formOf('constructor', 'x')).toBeUndefined();
  });
});

describe('checkColumn', () => {
  const form = formOf('waybill', 'Ref');
  if (form === undefined) throw new Error('waybill has a form');

  it('counts the filled cells that fit, skips blanks, and shows the first distinct ones that do not', () => {
    const rows = [['176-12345675'], [null], ['PO-4471'], ['  '], ['PO-4471'], ['PO-4472'], ['PO-4473'], ['PO-4474']];
    expect(checkColumn(form, 0, rows)).toMatchObject({ values: 6, fitting: 1, misfits: ['PO-4471', 'PO-4472', 'PO-4473'], fits: false });
  });

  it('a column fits when at least half of its values do; an empty column has nothing against it', () => {
    expect(checkColumn(form, 0, [['176-12345675'], ['PO-1']]).fits).toBe(true);
    expect(checkColumn(form, 0, [['176-12345675'], ['PO-1'], ['PO-2']]).fits).toBe(false);
    expect(checkColumn(form, 0, [[null], ['']])).toMatchObject({ values: 0, fits: true });
  });
});
