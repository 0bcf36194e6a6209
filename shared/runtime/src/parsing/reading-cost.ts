import type { InputPart } from '@learnables/learnable';
import { boundedJson } from '../storage/kept-input.ts';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_RECORD = 0x06054b50;
const END_RECORD_LENGTH = 22;
const CENTRAL_HEADER_LENGTH = 46;
/** The end record sits in the last 22 bytes and the comment (at most 65,535) after it. */
const END_SEARCH = END_RECORD_LENGTH + 0xffff;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;

const u16 = (bytes: Uint8Array, at: number): number => bytes[at]! | (bytes[at + 1]! << 8);
const u32 = (bytes: Uint8Array, at: number): number => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;

/**
 * The bytes a zip archive (an .xlsx, a .docx) declares its parts unpack to, read from its central
 * directory, counted no further than `enough`; undefined for bytes that are not a zip. A zip whose
 * directory cannot be read here (cut short, zip64, made to mislead) counts as `enough`: reading it
 * is for a thread, which refuses it or finds what it holds. A part that unpacks past what it
 * declares is the reader's to refuse, after at most its declared size (the manifest agent's
 * check-unpacked-size.ts), so the declared sizes bound what reading it costs.
 */
export function declaredUnpackedSize(bytes: Uint8Array, enough: number): number | undefined {
  if (bytes.byteLength < 4 || u32(bytes, 0) !== LOCAL_HEADER) return undefined;
  let end = -1;
  for (let at = bytes.byteLength - END_RECORD_LENGTH; at >= Math.max(0, bytes.byteLength - END_SEARCH); at--) {
    if (u32(bytes, at) === END_RECORD) {
      end = at;
      break;
    }
  }
  if (end < 0) return enough;
  const entries = u16(bytes, end + 10);
  const directory = u32(bytes, end + 16);
  if (entries === MAX16 || directory === MAX32) return enough;
  let total = 0;
  let at = directory;
  for (let entry = 0; entry < entries; entry++) {
    if (at + CENTRAL_HEADER_LENGTH > end || u32(bytes, at) !== CENTRAL_HEADER) return enough;
    const unpacked = u32(bytes, at + 24);
    if (unpacked === MAX32) return enough;
    total += unpacked;
    if (total >= enough) return enough;
    at += CENTRAL_HEADER_LENGTH + u16(bytes, at + 28) + u16(bytes, at + 30) + u16(bytes, at + 32);
  }
  return total;
}

/**
 * What reading a message's parts will cost, in bytes, counted no further than `enough`: a file's
 * bytes, or for a zip the bytes its parts declare they unpack to (a 15 kB workbook of 14 MB of
 * cells costs 14 MB, not 15 kB); a text's characters; a data part's JSON.
 */
export function readingCost(parts: readonly InputPart[], enough: number): number {
  let cost = 0;
  for (const part of parts) {
    if (part.kind === 'file') cost += Math.max(part.bytes.byteLength, declaredUnpackedSize(part.bytes, enough) ?? 0);
    else if (part.kind === 'text') cost += part.text.length;
    else cost += boundedJson(part.data, enough)?.length ?? enough;
    if (cost >= enough) return cost;
  }
  return cost;
}
