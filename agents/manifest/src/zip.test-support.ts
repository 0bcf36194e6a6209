import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipPart {
  readonly name: string;
  readonly data: Buffer;
}

/** The parts of a well-formed zip, by its central directory. Test use only: no zip64, no checks. */
export function unzipParts(zip: Uint8Array): ZipPart[] {
  const bytes = Buffer.from(zip);
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const parts: ZipPart[] = [];
  for (let i = 0; i < count; i++) {
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + size);
    parts.push({ name, data: method === 0 ? Buffer.from(raw) : inflateRawSync(raw) });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return parts;
}

export interface ZipOptions {
  /** Declare this uncompressed size for the named part instead of the true one. */
  readonly declare?: Readonly<Record<string, number>>;
  /** Bytes slipped in between parts, where no directory entry accounts for them. */
  readonly gap?: Buffer;
  /** Write the sizes of every part as zip64 extra fields. */
  readonly zip64?: boolean;
}

/** A zip of `parts`, deflated, back to back, with a central directory. */
export function zipParts(parts: readonly ZipPart[], options: ZipOptions = {}): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const body = deflateRawSync(part.data);
    const size = options.declare?.[part.name] ?? part.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(part.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const extra = options.zip64 ? Buffer.alloc(20) : Buffer.alloc(0);
    if (options.zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(body.length), 12);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(45, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(part.data), 16);
    central.writeUInt32LE(options.zip64 ? 0xffffffff : body.length, 20);
    central.writeUInt32LE(options.zip64 ? 0xffffffff : size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name, extra);
    offset += local.length + name.length + body.length;
    if (options.gap && part === parts[0]) {
      locals.push(options.gap);
      offset += options.gap.length;
    }
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** A copy of a workbook with one part's XML rewritten. */
export function rewritePart(workbook: Uint8Array, name: string, rewrite: (xml: string) => string, options: ZipOptions = {}): Uint8Array {
  const parts = unzipParts(workbook).map((part) => (part.name === name ? { name, data: Buffer.from(rewrite(part.data.toString('utf8')), 'utf8') } : part));
  return zipParts(parts, options);
}
