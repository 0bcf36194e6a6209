import type { ManifestRow } from './manifest-result.ts';
import type { ColumnMap } from './map-columns.ts';
import { parseAmount } from './parse-amount.ts';
import type { WeightUnit } from './read-weight.ts';
import { readWeight, unitColumn, unitInHeading, unitOf } from './read-weight.ts';
import type { Cell, SheetInput } from './sheet-input.ts';

const text = (cell: Cell | undefined): string | null => {
  if (cell === null || cell === undefined) return null;
  const trimmed = String(cell).trim();
  return trimmed === '' ? null : trimmed;
};

const amount = (cell: Cell | undefined): number | null => {
  if (cell === null || cell === undefined) return null;
  return typeof cell === 'number' ? cell : parseAmount(cell);
};

/**
 * The kept rows of a sheet as shipments, each field read from its column in `columns`. Text
 * fields are trimmed text (a numeric waybill such as 17675326473 becomes its digits); pieces are
 * a number or null; a weight takes its unit from the cell, else the row's unit column, else the
 * heading, and has a null unit when none of them says kg or lb.
 */
export function manifestRows(input: SheetInput, columns: ColumnMap): ManifestRow[] {
  const at = (field: string): number | undefined => columns[field]?.index;
  const weightAt = at('weight');
  const taken = new Set(Object.values(columns).flatMap((column) => (column ? [column.index] : [])));
  const headingUnit = weightAt === undefined ? null : unitInHeading(input.headings[weightAt] ?? '');
  const unitAt = weightAt === undefined ? null : unitColumn(input.headings, weightAt, taken);
  const cell = (row: readonly Cell[], field: string): Cell | undefined => {
    const index = at(field);
    return index === undefined ? undefined : row[index];
  };
  return input.rows.map((row) => {
    const rowUnit: WeightUnit | null = unitAt === null ? null : unitOf(text(row[unitAt]) ?? '');
    const weightCell = cell(row, 'weight');
    return {
      waybill: text(cell(row, 'waybill')),
      consignee: text(cell(row, 'consignee')),
      origin: text(cell(row, 'origin')),
      destination: text(cell(row, 'destination')),
      pieces: amount(cell(row, 'pieces')),
      weight: weightCell === undefined ? null : readWeight(weightCell, rowUnit ?? headingUnit),
      description: text(cell(row, 'description')),
    };
  });
}
