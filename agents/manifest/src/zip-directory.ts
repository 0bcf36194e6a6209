import { refuse } from './refusals.ts';

/** One part of a zip, as its central directory describes it. */
export interface ZipEntry {
  readonly name: string;
  /** 0: stored, 8: deflated. */
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** Where the compressed bytes start (after the local header). */
  readonly dataOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
/** A data descriptor after an entry's data: optional signature, CRC, two sizes of 4 or 8 bytes. */
const LONGEST_DESCRIPTOR = 24;
const HAS_DESCRIPTOR = 0x0008;

const names = new TextDecoder('utf-8');

/** The end record sits in the last 64 KiB (its comment is at most that long); scan back for it. */
function findEnd(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - MAX16; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY && at + 22 + view.getUint16(at + 20, true) === view.byteLength) return at;
  }
  return -1;
}

const big = (view: DataView, at: number): number => Number(view.getBigUint64(at, true));

interface DirectoryEntry {
  readonly name: string;
  readonly flags: number;
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
}

/**
 * The entries of a zip read from its central directory, without inflating anything, so sizes
 * can be judged before any byte is unpacked. Refuses a file whose directory is missing (cut
 * short) or does not hold together, and one whose entries do not sit back to back: a streaming
 * unzip walks the local headers, so bytes the directory does not account for could hide parts
 * that no size check here has seen.
 */
export function readZipDirectory(bytes: Uint8Array, filename?: string): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEnd(view);
  if (end < 0) throw refuse.cutShort(filename);
  let count = view.getUint16(end + 10, true);
  let size = view.getUint32(end + 12, true);
  let offset = view.getUint32(end + 16, true);
  if (count === MAX16 || size === MAX32 || offset === MAX32) {
    const locator = end - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) throw refuse.damaged(filename);
    const zip64End = big(view, locator + 8);
    if (zip64End + 56 > end || view.getUint32(zip64End, true) !== ZIP64_END) throw refuse.damaged(filename);
    count = big(view, zip64End + 32);
    size = big(view, zip64End + 40);
    offset = big(view, zip64End + 48);
  }
  if (offset + size > end) throw refuse.damaged(filename);
  const entries: DirectoryEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > offset + size || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw refuse.damaged(filename);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const sizes = {
      uncompressedSize: view.getUint32(at + 24, true),
      compressedSize: view.getUint32(at + 20, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    };
    readZip64Extra(view, at + 46 + nameLength, extraLength, sizes);
    entries.push({
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      ...sizes,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return locateData(view, entries, offset, filename);
}

/** Sizes too big for 32 bits live in the zip64 extra field, in this order, only when flagged. */
function readZip64Extra(
  view: DataView,
  start: number,
  length: number,
  sizes: { uncompressedSize: number; compressedSize: number; localHeaderOffset: number },
): void {
  for (let at = start; at + 4 <= start + length; ) {
    const id = view.getUint16(at, true);
    const fieldLength = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      for (const key of ['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const) {
        if (sizes[key] === MAX32 && field + 8 <= at + 4 + fieldLength) {
          sizes[key] = big(view, field);
          field += 8;
        }
      }
    }
    at += 4 + fieldLength;
  }
}

function locateData(view: DataView, entries: readonly DirectoryEntry[], directoryOffset: number, filename?: string): ZipEntry[] {
  const byPosition = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  const located: ZipEntry[] = [];
  let expected = 0;
  let slack = 0;
  for (const entry of byPosition) {
    const at = entry.localHeaderOffset;
    if (at < expected || at > expected + slack || at + 30 > view.byteLength || view.getUint32(at, true) !== LOCAL_HEADER) {
      throw refuse.damaged(filename);
    }
    const dataOffset = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    expected = dataOffset + entry.compressedSize;
    if (expected > directoryOffset) throw refuse.damaged(filename);
    slack = entry.flags & HAS_DESCRIPTOR ? LONGEST_DESCRIPTOR : 0;
    located.push({ name: entry.name, method: entry.method, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize, dataOffset });
  }
  if (directoryOffset < expected || directoryOffset > expected + slack) throw refuse.damaged(filename);
  return located;
}
