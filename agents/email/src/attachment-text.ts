import type { Buffer } from 'node:buffer';
import { TextDecoder } from 'node:util';

/** The most characters kept of a body or an attachment's text; marks rarely need more. */
export const LONGEST_TEXT = 1024 * 1024;

const TEXT_LIKE_TYPES = ['application/json', 'application/csv', 'application/x-csv', 'application/xml'];
/** Spreadsheet exports often arrive as application/vnd.ms-excel or octet-stream. */
const TEXT_LIKE_NAMES = /\.(csv|tsv|txt|json|xml)$/i;

/** Whether an attachment is text a mark can read (CSV, JSON, plain text…) rather than a binary file. */
export function isTextLike(mediaType: string, filename: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    TEXT_LIKE_TYPES.includes(mediaType) ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml') ||
    TEXT_LIKE_NAMES.test(filename)
  );
}

/** Decode in the declared charset; an unknown or missing one reads as UTF-8. */
export function decodeText(content: Buffer, charset: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return capText(decoder.encoding === 'windows-1252' ? decodeWindows1252(content) : decoder.decode(content));
}

/** Windows-1252's characters for bytes 0x80–0x9F, where it differs from Latin-1. */
const WINDOWS_1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/**
 * Node's TextDecoder reads windows-1252 (and so ISO-8859-1, which the Encoding Standard maps to
 * it) as plain Latin-1, losing €, curly quotes and dashes: https://github.com/nodejs/node/issues/60888
 */
function decodeWindows1252(content: Buffer): string {
  return content.toString('latin1').replace(/[\u0080-\u009f]/g, (c1) => WINDOWS_1252_C1.charAt(c1.charCodeAt(0) - 0x80));
}

export function capText(text: string): string {
  return text.length > LONGEST_TEXT ? text.slice(0, LONGEST_TEXT) : text;
}
