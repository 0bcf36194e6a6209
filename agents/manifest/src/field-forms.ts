import { parseAmount } from './parse-amount.ts';
import { readWeight } from './read-weight.ts';
import type { Cell } from './sheet-input.ts';

/**
 * What a field's values look like, when the field has a form anyone would recognise. A learned
 * heading is evidence about the sheets it was learned from, not about every sheet; a column's
 * values are evidence about this sheet. The agent reads a learned heading's column for a field
 * only when most of its values have the field's form (`checkColumn`).
 */
export interface FieldForm {
  /** The form in plain words, for one value: "an air waybill number with a valid check digit". */
  readonly one: string;
  /** The same for several: "air waybill numbers with a valid check digit". */
  readonly many: string;
  /** Does this cell have the form? Blank cells are not asked. */
  fits(cell: Exclude<Cell, null>): boolean;
}

/**
 * An IATA air waybill number: a 3-digit airline prefix, a 7-digit serial and a check digit, the
 * serial modulo 7. Spelled `176-12345675`, `176 1234 5675`, `17612345675` (and a number cell that
 * lost the prefix's leading zeros: 006-12345675 as 612345675). Undefined for anything else.
 */
export function airWaybill(cell: Exclude<Cell, null>): { readonly prefix: string; readonly serial: string; readonly check: number } | undefined {
  // A number cell has lost the prefix's leading zeros (006 is a real prefix): at most two.
  const text = typeof cell === 'number' ? (Number.isSafeInteger(cell) && cell >= 1e8 ? String(cell).padStart(11, '0') : '') : cell.trim();
  const parts = /^(\d{3})[- ]?(\d{4})[- ]?(\d{3})(\d)$/.exec(text);
  if (parts === null) return undefined;
  const [, prefix = '', a = '', b = '', check = ''] = parts;
  return { prefix, serial: a + b, check: Number(check) };
}

/** The check an air waybill number carries: its last digit is its 7-digit serial modulo 7. */
export function validAirWaybill(cell: Exclude<Cell, null>): boolean {
  const awb = airWaybill(cell);
  return awb !== undefined && Number(awb.serial) % 7 === awb.check;
}

const wholeNumber = (cell: Exclude<Cell, null>): boolean => {
  const value = typeof cell === 'number' ? cell : parseAmount(cell);
  return value !== null && Number.isInteger(value) && value >= 0;
};

/**
 * A house waybill number, as a forwarder issues it: 5 to 20 letters, digits, `-` or `/`, at least
 * 4 of them digits (`NWC250314001`, `NFP1234567`, `PLC-2612345`). No check digit: any reference
 * has this shape, so it is accepted only in a column whose heading says it holds house bills.
 */
const houseWaybill = (cell: Exclude<Cell, null>): boolean => {
  const text = String(cell).trim();
  return /^[A-Za-z0-9][A-Za-z0-9/-]{4,19}$/.test(text) && (text.match(/\d/g) ?? []).length >= 4;
};

/** `HAWB`, `H.A.W.B.`, `HAWB Number`, `House Bill No`, `House AWB`. */
const HOUSE_HEADING = /\bh\.?a\.?w\.?b\b|\bhouse\b/i;

const AIR_WAYBILL: FieldForm = {
  one: 'an air waybill number with a valid check digit',
  many: 'air waybill numbers with a valid check digit',
  fits: validAirWaybill,
};
const AIR_OR_HOUSE_WAYBILL: FieldForm = {
  one: 'an air waybill number with a valid check digit or a house waybill number (letters and at least 4 digits, as its heading says)',
  many: 'air waybill numbers with a valid check digit or house waybill numbers (letters and at least 4 digits, as its heading says)',
  fits: (cell) => validAirWaybill(cell) || houseWaybill(cell),
};
const WEIGHT: FieldForm = {
  one: 'a weight (a number, with or without kg or lb)',
  many: 'weights (a number, with or without kg or lb)',
  fits: (cell) => readWeight(cell, null) !== null,
};
const PIECES: FieldForm = { one: 'a whole number of pieces', many: 'whole numbers of pieces', fits: wholeNumber };

/**
 * The forms, by field key: what the values under `heading` must look like for that field. A
 * waybill is an air waybill number (IATA: a 3-digit airline prefix, a 7-digit serial and its
 * check digit); a column whose heading says it holds house waybills (`HAWB`, `House Bill No`) may
 * hold a forwarder's own numbers instead. A field not here (consignee, origin, destination,
 * description, or one a fork adds) has no form the agent could check, and its column is read as
 * learned. A Map: field keys come from definitions a person can extend.
 */
const FIELD_FORMS: ReadonlyMap<string, (heading: string) => FieldForm> = new Map<string, (heading: string) => FieldForm>([
  ['waybill', (heading) => (HOUSE_HEADING.test(heading) ? AIR_OR_HOUSE_WAYBILL : AIR_WAYBILL)],
  ['weight', () => WEIGHT],
  ['pieces', () => PIECES],
]);

/** The form field `key`'s values must have in a column headed `heading`; undefined when it has none. */
export const formOf = (key: string, heading: string): FieldForm | undefined => FIELD_FORMS.get(key)?.(heading);

/** How a column's values measured against a field's form. */
export interface ColumnFit {
  readonly form: FieldForm;
  /** Filled cells in the kept rows. */
  readonly values: number;
  /** Of those, the ones with the form. */
  readonly fitting: number;
  /** The first few distinct values that do not have the form, as the sheet shows them. */
  readonly misfits: readonly string[];
  /** Most values have the form (an empty column has nothing against it). */
  readonly fits: boolean;
}

const MISFITS_SHOWN = 3;

/**
 * Measure column `index` of `rows` against `form`: every filled cell of the kept rows (at most
 * the reader's `maxRows`, so the cost is bounded by what the journal holds), or the first
 * `limit` filled cells.
 */
export function checkColumn(form: FieldForm, index: number, rows: readonly (readonly Cell[])[], limit = Infinity): ColumnFit {
  let values = 0;
  let fitting = 0;
  const misfits: string[] = [];
  for (const row of rows) {
    if (values >= limit) break;
    const cell = row[index];
    if (cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '')) continue;
    values += 1;
    if (form.fits(cell)) fitting += 1;
    else if (misfits.length < MISFITS_SHOWN) {
      const shown = String(cell).trim();
      if (!misfits.includes(shown)) misfits.push(shown);
    }
  }
  return { form, values, fitting, misfits, fits: fitting * 2 >= values };
}

/** The fit of `column` for field `key`, or undefined when the field has no form. */
export function fitFor(
  key: string,
  column: { readonly index: number; readonly heading: string },
  rows: readonly (readonly Cell[])[],
  limit = Infinity,
): ColumnFit | undefined {
  const form = formOf(key, column.heading);
  return form === undefined ? undefined : checkColumn(form, column.index, rows, limit);
}
