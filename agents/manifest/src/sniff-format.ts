import { refuse } from './refusals.ts';
import type { SheetFormat } from './sheet-input.ts';

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** OLE2 / Compound File Binary: both an encrypted .xlsx and a legacy .xls start with it. */
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** What a file that is not a spreadsheet looks like, so the refusal can say so. */
const LOOKS_LIKE: readonly { readonly magic: readonly number[]; readonly is: string }[] = [
  { magic: [0x89, 0x50, 0x4e, 0x47], is: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], is: 'a JPEG image' },
  { magic: [0x47, 0x49, 0x46, 0x38], is: 'a GIF image' },
  { magic: [0x25, 0x50, 0x44, 0x46], is: 'a PDF document' },
  { magic: [0x50, 0x4b, 0x05, 0x06], is: 'an empty zip archive' },
];

const startsWith = (bytes: Uint8Array, magic: readonly number[]): boolean => magic.every((byte, i) => bytes[i] === byte);

/** Stream names are UTF-16LE in a CFB directory; Excel's encrypted package always has this one. */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

function claimedFormat(filename: string | undefined, mediaType: string | undefined): SheetFormat | undefined {
  const extension = filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (extension === 'csv' || extension === 'tsv' || extension === 'txt') return 'csv';
  if (extension === 'xlsx' || extension === 'xlsm' || extension === 'xls' || extension === 'xlsb') return 'xlsx';
  const type = mediaType?.toLowerCase().split(';')[0]?.trim();
  if (type === 'text/csv' || type === 'application/csv' || type === 'text/plain' || type === 'text/tab-separated-values') return 'csv';
  if (type === XLSX_MEDIA_TYPE || type === 'application/vnd.ms-excel' || type === 'application/vnd.ms-excel.sheet.macroenabled.12') {
    return 'xlsx';
  }
  return undefined;
}

/** Text files have no NUL bytes, except UTF-16 ones, which announce themselves with a BOM. */
function looksLikeText(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return true;
  return !bytes.subarray(0, 4096).includes(0);
}

function whatItLooksLike(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'an empty file';
  const known = LOOKS_LIKE.find(({ magic }) => startsWith(bytes, magic));
  if (known) return known.is;
  return looksLikeText(bytes) ? 'plain text, not an Excel workbook' : 'binary data of a kind I do not recognise';
}

/**
 * Decide how to read a file, trusting its bytes over its name: a zip is read as a workbook
 * whatever it is called, and a name ending in .xlsx does not make a PNG a workbook.
 */
export function sniffFormat(bytes: Uint8Array, filename?: string, mediaType?: string): SheetFormat {
  if (startsWith(bytes, ZIP)) return 'xlsx';
  if (startsWith(bytes, CFB)) {
    if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPTED_PACKAGE)) throw refuse.passwordProtected();
    throw refuse.legacyExcel(filename);
  }
  const claimed = claimedFormat(filename, mediaType);
  if (claimed === 'xlsx') throw refuse.notAWorkbook(filename, whatItLooksLike(bytes));
  if (bytes.length > 0 && !looksLikeText(bytes)) {
    const looksLike = whatItLooksLike(bytes);
    throw claimed === 'csv' ? refuse.notText(filename, looksLike) : refuse.notAWorkbook(filename, looksLike);
  }
  return 'csv';
}

/** Whether a file part is worth reading as a manifest at all, by its name or media type. */
export function isSheetFile(filename: string | undefined, mediaType: string | undefined): boolean {
  return claimedFormat(filename, mediaType) !== undefined;
}
