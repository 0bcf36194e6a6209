import { createInflateRaw } from 'node:zlib';
import { refuse } from './refusals.ts';
import type { ZipEntry } from './zip-directory.ts';

const STORED = 0;
const DEFLATED = 8;

/**
 * Refuse a workbook that would unpack to more than `limit` bytes, before any parser sees it.
 * First by the sizes its directory declares, which costs nothing; then by inflating every part
 * and counting, throwing the output away as it comes, so a part that unpacks to more than it
 * declares is caught after at most its declared size, in constant memory.
 */
export async function checkUnpackedSize(bytes: Uint8Array, entries: readonly ZipEntry[], limit: number, filename?: string): Promise<void> {
  const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (declared > limit) throw refuse.unpacksTooLarge(filename, declared, limit);
  for (const entry of entries) {
    const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
    if (entry.method === STORED) {
      if (entry.compressedSize !== entry.uncompressedSize) throw refuse.damaged(filename);
    } else if (entry.method === DEFLATED) {
      const unpacked = await inflatedSize(data, entry.uncompressedSize);
      if (unpacked === 'damaged') throw refuse.damaged(filename);
      if (unpacked > entry.uncompressedSize) throw refuse.unpacksPastItsSize(filename);
      if (unpacked < entry.uncompressedSize) throw refuse.damaged(filename);
    } else {
      throw refuse.damaged(filename);
    }
  }
}

/** Bytes `data` inflates to, counting no further than one past `cap`. */
function inflatedSize(data: Uint8Array, cap: number): Promise<number | 'damaged'> {
  return new Promise((resolve) => {
    const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
    let total = 0;
    inflater.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap) {
        inflater.destroy();
        resolve(total);
      }
    });
    inflater.on('end', () => resolve(total));
    inflater.on('error', () => resolve('damaged'));
    inflater.end(data);
  });
}
