import type ExcelJS from 'exceljs';
import type { Cell } from './sheet-input.ts';

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * An Excel date as ISO text: `2025-03-14` for a date, `2025-03-14T09:30:00` for a date and time.
 * Excel stores wall-clock time with no zone, so the time carries none either.
 */
export function isoDate(date: Date): string | null {
  const time = date.getTime();
  if (Number.isNaN(time)) return null;
  // exceljs turns serials into milliseconds by floating point; round off its dust.
  const at = new Date(Math.round(time / 1000) * 1000);
  const day = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  if (at.getUTCHours() === 0 && at.getUTCMinutes() === 0 && at.getUTCSeconds() === 0) return day;
  return `${day}T${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
}

/**
 * What a worksheet cell holds, as plain JSON: numbers stay numbers, dates become ISO text,
 * a formula gives its cached result, rich text its plain text. Errors (`#N/A`) and blanks are null.
 */
export function cellOf(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoDate(value);
  if ('richText' in value) return cellOf(value.richText.map((run) => run.text ?? '').join(''));
  if ('result' in value) return cellOf(value.result);
  if ('hyperlink' in value) return cellOf(value.text);
  return null;
}
