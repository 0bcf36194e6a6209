import type { Buffer } from 'node:buffer';
import { TextDecoder } from 'node:util';
import iconv from 'iconv-lite';

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

/**
 * Decode in the declared charset; an unknown or missing one reads as UTF-8. The label is resolved
 * as browsers do (the Encoding Standard reads ISO-8859-1 and ASCII as windows-1252, as mail
 * clients write them), but windows-1252 itself is decoded by iconv-lite: Node's TextDecoder reads
 * it as plain Latin-1, losing €, curly quotes and dashes (https://github.com/nodejs/node/issues/60888).
 */
export function decodeText(content: Buffer, charset: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return capText(decoder.encoding === 'windows-1252' ? iconv.decode(content, 'windows-1252') : decoder.decode(content));
}

export function capText(text: string): string {
  return text.length > LONGEST_TEXT ? text.slice(0, LONGEST_TEXT) : text;
}
