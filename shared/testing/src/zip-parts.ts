import { unzipSync, zipSync } from 'fflate';
import type { Zippable } from 'fflate';

/** One file inside a zip (an .xlsx part), by its name in the zip. */
export interface ZipPart {
  readonly name: string;
  readonly data: Buffer;
}

export interface ZipOptions {
  /** The time stamped on every part; the same parts at the same time give the same bytes. */
  readonly at?: Date;
  /** Declare this uncompressed size for the named part instead of the true one. */
  readonly declare?: Readonly<Record<string, number>>;
  /** Bytes slipped in after the first part, where no directory entry accounts for them. */
  readonly gap?: Buffer;
  /** Write every part's sizes as zip64 extra fields, its directory entry saying only 0xFFFFFFFF. */
  readonly zip64?: boolean;
}

/** The fixtures' one date, a Friday: 2025-03-14 12:00 UTC. */
export const FIXTURE_TIME = new Date(Date.UTC(2025, 2, 14, 12, 0, 0));

const MAX32 = 0xffffffff;
const ZIP64_EXTRA = 0x0001;

/** The parts of a zip, in the order its directory lists them (read by fflate). */
export function unzipParts(zip: Uint8Array): ZipPart[] {
  return Object.entries(unzipSync(zip)).map(([name, data]) => ({ name, data: Buffer.from(data) }));
}

/**
 * A zip of `parts`, written by fflate: deflated at level 9 (an empty part stored), back to back,
 * every part stamped `options.at`. The other options make a deliberately broken zip by changing
 * fields of the well-formed one, as a hostile or damaged file would have them.
 */
export function zipParts(parts: readonly ZipPart[], options: ZipOptions = {}): Buffer {
  const mtime = wallClock(options.at ?? FIXTURE_TIME);
  const files: Zippable = {};
  for (const part of parts) {
    files[part.name] = [
      new Uint8Array(part.data.buffer, part.data.byteOffset, part.data.byteLength),
      { level: part.data.length === 0 ? 0 : 9, mtime, ...(options.zip64 ? { extra: { [ZIP64_EXTRA]: new Uint8Array(16) } } : {}) },
    ];
  }
  let zip: Buffer = Buffer.from(zipSync(files));
  for (const [name, size] of Object.entries(options.declare ?? {})) declareSize(zip, name, size);
  if (options.zip64) moveSizesToZip64(zip);
  if (options.gap) zip = insertGap(zip, options.gap);
  return zip;
}

/** The same parts stamped with a fixed time: exceljs stamps the time of writing into every part. */
export function repackZip(zip: Uint8Array, at: Date = FIXTURE_TIME): Buffer {
  return zipParts(unzipParts(zip), { at });
}

/** A copy of a zip with one part's text rewritten. */
export function rewritePart(zip: Uint8Array, name: string, rewrite: (text: string) => string, options: ZipOptions = {}): Buffer {
  const parts = unzipParts(zip).map((part) => (part.name === name ? { name, data: Buffer.from(rewrite(part.data.toString('utf8')), 'utf8') } : part));
  return zipParts(parts, options);
}

/**
 * fflate writes a zip's time as the local wall clock of the Date it is given; give it a Date whose
 * local wall clock reads `at` in UTC, so the bytes do not depend on the machine's time zone.
 */
function wallClock(at: Date): Date {
  return new Date(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds());
}

// The broken zips: fields of the one fflate wrote, found through its directory. fflate writes no
// comment and, unless asked, no extra fields, so the layout is the plain one of the zip format.

interface DirectoryRecord {
  /** Where the record starts. */
  readonly at: number;
  readonly name: string;
  readonly extraAt: number;
  /** Where its part's local header starts. */
  readonly local: number;
}

function directoryOf(zip: Buffer): DirectoryRecord[] {
  const end = zip.length - 22;
  const records: DirectoryRecord[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const record = { at, name: zip.toString('utf8', at + 46, at + 46 + nameLength), extraAt: at + 46 + nameLength, local: zip.readUInt32LE(at + 42) };
    records.push(record);
    at = record.extraAt + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return records;
}

function declareSize(zip: Buffer, name: string, size: number): void {
  const record = directoryOf(zip).find((entry) => entry.name === name);
  if (!record) throw new Error(`no part named ${name}`);
  zip.writeUInt32LE(size, record.local + 22);
  zip.writeUInt32LE(size, record.at + 24);
}

function moveSizesToZip64(zip: Buffer): void {
  for (const record of directoryOf(zip)) {
    const localExtra = record.local + 30 + zip.readUInt16LE(record.local + 26);
    for (const extra of [record.extraAt, localExtra]) {
      zip.writeBigUInt64LE(BigInt(zip.readUInt32LE(record.at + 24)), extra + 4);
      zip.writeBigUInt64LE(BigInt(zip.readUInt32LE(record.at + 20)), extra + 12);
    }
    zip.writeUInt32LE(MAX32, record.at + 20);
    zip.writeUInt32LE(MAX32, record.at + 24);
  }
}

function insertGap(zip: Buffer, gap: Buffer): Buffer {
  const records = directoryOf(zip);
  const end = zip.length - 22;
  const directory = zip.readUInt32LE(end + 16);
  const at =
    records
      .map((record) => record.local)
      .filter((local) => local > 0)
      .sort((a, b) => a - b)[0] ?? directory;
  for (const record of records) if (record.local >= at) zip.writeUInt32LE(record.local + gap.length, record.at + 42);
  zip.writeUInt32LE(directory + gap.length, end + 16);
  return Buffer.concat([zip.subarray(0, at), gap, zip.subarray(at)]);
}
