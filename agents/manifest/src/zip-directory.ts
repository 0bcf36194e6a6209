import { InputRefused } from '@learnables/runtime';
import yauzl from 'yauzl';
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

/** yauzl's own sentence for a file with no end record: not a zip, or one cut short. */
const NO_END_RECORD = /^End of central directory record signature not found/;
const HAS_DESCRIPTOR = 0x0008;
const DESCRIPTOR_SIGNATURE = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
/** A data descriptor as the streaming reader reads it: signature, CRC and two 4-byte sizes. */
const DESCRIPTOR_LENGTH = 16;
const ZIP64_END = 0x06064b50;
const MAX32 = 0xffffffff;
const END_RECORD_LENGTH = 22;

interface Part {
  readonly entry: yauzl.Entry;
  readonly local: yauzl.LocalFileHeader;
}

/**
 * The entries of a zip read from its central directory by yauzl, without inflating anything, so
 * sizes can be judged before any byte is unpacked. Refuses a file whose directory is missing (cut
 * short) or does not hold together, and one laid out so that a streaming unzip would read other
 * parts than the directory lists (see `checkLayout`).
 */
export async function readZipDirectory(bytes: Uint8Array, filename?: string): Promise<ZipEntry[]> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw error instanceof Error && NO_END_RECORD.test(error.message) ? refuse.cutShort(filename) : refuse.damaged(filename, error);
  }
  try {
    const directoryStart = readCursor(zip);
    const parts: Part[] = [];
    for await (const entry of zip.eachEntry()) parts.push({ entry, local: await zip.readLocalFileHeaderPromise(entry) });
    const endRecord = buffer.length - END_RECORD_LENGTH - zip.comment.length;
    checkLayout(buffer, parts, { start: directoryStart, end: readCursor(zip), endRecord }, filename);
    return parts.map(({ entry, local }) => ({
      name: entry.fileName,
      method: entry.compressionMethod,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
      dataOffset: local.fileDataStart,
    }));
  } catch (error) {
    throw error instanceof InputRefused ? error : refuse.damaged(filename, error);
  } finally {
    zip.close();
  }
}

/**
 * Where yauzl is reading the directory: its start before the first entry is read, its end after
 * the last. yauzl keeps no other record of it; its types declare the field but mistype it.
 */
function readCursor(zip: yauzl.ZipFile): number {
  const cursor: unknown = Reflect.get(zip, 'readEntryCursor');
  if (typeof cursor !== 'number') throw new Error('yauzl no longer says where its directory is');
  return cursor;
}

/**
 * exceljs's streaming unzip does not read the directory: it walks the local headers from the
 * first byte, takes each part's method and size from its local header (or, for a part whose sizes
 * follow in a data descriptor, reads up to the descriptor's signature), and reads on past the
 * directory. So every part must sit where the previous one ends, say in its local header what the
 * directory says, and nothing may follow the directory but the end records. Otherwise bytes no
 * size check here has seen could be a part it reads: a bomb inside another part's data or after
 * the directory.
 */
function checkLayout(
  buffer: Buffer,
  parts: readonly Part[],
  directory: { readonly start: number; readonly end: number; readonly endRecord: number },
  filename: string | undefined,
): void {
  const byPosition = [...parts].sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
  let next = 0;
  for (const { entry, local } of byPosition) {
    if (entry.relativeOffsetOfLocalHeader !== next) throw refuse.damaged(filename);
    if (local.compressionMethod !== entry.compressionMethod || !local.fileName.equals(entry.fileNameRaw)) throw refuse.damaged(filename);
    const dataEnd = local.fileDataStart + entry.compressedSize;
    if (local.generalPurposeBitFlag & HAS_DESCRIPTOR && local.compressedSize === 0) {
      if (buffer.indexOf(DESCRIPTOR_SIGNATURE, local.fileDataStart) !== dataEnd) throw refuse.damaged(filename);
      next = dataEnd + DESCRIPTOR_LENGTH;
    } else {
      if (localCompressedSize(local) !== entry.compressedSize) throw refuse.damaged(filename);
      next = dataEnd;
    }
  }
  if (directory.start !== next) throw refuse.damaged(filename);
  const tail = directory.endRecord - directory.end;
  if (tail !== 0 && !(tail >= 4 && buffer.readUInt32LE(directory.end) === ZIP64_END)) throw refuse.damaged(filename);
}

/** The local header's compressed size; past 32 bits it is in the zip64 extra field, after the uncompressed size. */
function localCompressedSize(local: yauzl.LocalFileHeader): number {
  if (local.compressedSize !== MAX32) return local.compressedSize;
  const zip64 = yauzl.parseExtraFields(local.extraField).find((field) => field.id === 0x0001);
  return zip64 && zip64.data.length >= 16 ? Number(zip64.data.readBigUInt64LE(8)) : Number.NaN;
}
