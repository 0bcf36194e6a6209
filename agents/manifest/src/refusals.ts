import { InputRefused } from '@learnables/learnable';

/**
 * Every input the manifest agent turns down, in one place, so the sentences stay consistent:
 * each says what is wrong in a warehouse operator's words and what to send instead.
 */

const SEND_XLSX_OR_CSV = 'send the manifest as an Excel workbook (.xlsx) or a CSV file';

const The = (filename: string | undefined): string => (filename ? `'${filename}'` : 'This file');
const the = (filename: string | undefined): string => (filename ? `'${filename}'` : 'this file');

/** Rounded up, so a size just over a limit never reads as equal to it. */
const size = (bytes: number): string => (bytes >= 1_000_000 ? `${Math.ceil(bytes / 1_000_000).toLocaleString('en-US')} MB` : `${Math.ceil(bytes / 1_000)} kB`);

export const refuse = {
  noFile: () => new InputRefused(`This message has no file in it; ${SEND_XLSX_OR_CSV}.`),

  notASheetFile: (filename: string | undefined, mediaType: string | undefined) =>
    new InputRefused(`${The(filename)}${mediaType ? ` (${mediaType})` : ''} is not a spreadsheet I can read; ${SEND_XLSX_OR_CSV}.`),

  passwordProtected: () => new InputRefused('This workbook is password-protected; save it without a password and send it again.'),

  legacyExcel: (filename: string | undefined) =>
    new InputRefused(`${The(filename)} is an old Excel 97-2003 workbook (.xls); save it as an Excel Workbook (.xlsx) or as CSV and send it again.`),

  binaryExcel: (filename: string | undefined) =>
    new InputRefused(`${The(filename)} is a binary Excel workbook (.xlsb); save it as an Excel Workbook (.xlsx) and send it again.`),

  notAWorkbook: (filename: string | undefined, looksLike: string) =>
    new InputRefused(`${The(filename)} is not a spreadsheet: it is ${looksLike}. Please ${SEND_XLSX_OR_CSV}.`),

  notText: (filename: string | undefined, looksLike: string) =>
    new InputRefused(`${The(filename)} is not a CSV file: it is ${looksLike}. Please ${SEND_XLSX_OR_CSV}.`),

  cutShort: (filename: string | undefined) =>
    new InputRefused(
      `${The(filename)} is incomplete: the file stops before the end of the workbook, as if the upload was cut short. Send the whole file again.`,
    ),

  damaged: (filename: string | undefined, cause?: unknown) =>
    new InputRefused(`${The(filename)} is damaged and cannot be opened. Open it in Excel, save it again and send the new copy.`, {
      cause,
    }),

  unpacksTooLarge: (filename: string | undefined, bytes: number, limit: number) =>
    new InputRefused(
      `${The(filename)} unpacks to ${size(bytes)}, more than the ${size(limit)} limit for one manifest; send a workbook holding only the manifest sheet, or split it into smaller files.`,
    ),

  unpacksPastItsSize: (filename: string | undefined) =>
    new InputRefused(
      `${The(filename)} unpacks to more than the workbook itself declares, which only a damaged or deliberately oversized file does, so I stopped reading it. Open it in Excel, save it again and send the new copy.`,
    ),

  noWorksheet: (filename: string | undefined) =>
    new InputRefused(
      `The first sheet of ${the(filename)} is not a table of cells (a chart sheet, perhaps); move the manifest sheet to the front and send it again.`,
    ),

  emptySheet: (filename: string | undefined, csv: boolean) =>
    new InputRefused(
      csv
        ? `${The(filename)} is empty; there is no manifest in it to read.`
        : `The first sheet of ${the(filename)} is empty; there is no manifest on it to read.`,
    ),

  tooManyColumns: (filename: string | undefined, columns: number, limit: number) =>
    new InputRefused(
      `${The(filename)} has ${columns.toLocaleString('en-US')} columns in its heading row; I read manifests of at most ${limit.toLocaleString('en-US')} columns. Delete the columns that are not part of the manifest and send it again.`,
    ),

  quoteNotClosed: (filename: string | undefined, row: number) =>
    new InputRefused(
      `${The(filename)} has a quote (") in row ${row.toLocaleString('en-US')} that is never closed, so I cannot tell where its cells end. Close the quote, or save the file again from Excel, and send it again.`,
    ),

  recordTooLong: (filename: string | undefined, row: number, limit: number) =>
    new InputRefused(
      `${The(filename)} has more than ${limit.toLocaleString('en-US')} characters in row ${row.toLocaleString('en-US')}, far more than any manifest row; check that every quote (") in it is closed, delete what is not part of the manifest and send it again.`,
    ),

  tooManyCells: (filename: string | undefined, row: number, limit: number) =>
    new InputRefused(
      `${The(filename)} has more than ${limit.toLocaleString('en-US')} cells in row ${row.toLocaleString('en-US')}, more than Excel itself allows in a row; delete what is not part of the manifest and send it again.`,
    ),

  cellTooLong: (filename: string | undefined, cell: string, characters: number, limit: number) =>
    new InputRefused(
      `${The(filename)} has ${characters.toLocaleString('en-US')} characters in cell ${cell}; I read cells of at most ${limit.toLocaleString('en-US')} characters, and no manifest's cell comes near that. Delete what is not part of the manifest and send it again.`,
    ),

  headingsTooLong: (filename: string | undefined, limit: number) =>
    new InputRefused(
      `The heading row of ${the(filename)} takes more than the ${limit.toLocaleString('en-US')} characters I keep of a manifest; shorten the headings, delete those that are not part of the manifest and send it again.`,
    ),

  noHeaderRow: (filename: string | undefined, rowsLooked: number) =>
    new InputRefused(
      `I could not find the row of column headings in ${the(filename)}: none of its first ${rowsLooked} filled rows has two or more headings side by side. Put the headings (Waybill, Consignee, Weight, …) in one row above the data and send it again.`,
    ),
};
