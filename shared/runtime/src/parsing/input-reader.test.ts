// Which messages the runtime reads in a thread (issue 34): by what reading them will cost, not by
// the bytes that came. A few kB of zip that unpack to megabytes froze the event loop for seconds.
import { afterEach, describe, expect, it } from 'vitest';
import type { InputPart } from '@learnables/learnable';
import { zipParts } from '@learnables/testing';
import { InputReader } from './input-reader.ts';
import { declaredUnpackedSize, readingCost } from './reading-cost.ts';

const file = (bytes: Uint8Array, filename = 'sheet.xlsx'): InputPart => ({ kind: 'file', bytes, filename, mediaType: 'application/octet-stream' });
/** A 14 MB part at maximum compression: about 14 kB of zip. */
const bomb = () =>
  zipParts([
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(14_000_000, 'x') },
    { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
  ]);

describe('readingCost', () => {
  it('counts a zip by the sizes its directory declares unpacked, a file of other bytes by its bytes', () => {
    const zip = bomb();
    expect(zip.byteLength).toBeLessThan(16_000);
    expect(declaredUnpackedSize(zip, Number.MAX_SAFE_INTEGER)).toBe(14_000_000 + '<workbook/>'.length);
    expect(readingCost([file(zip)], 16_000)).toBeGreaterThanOrEqual(16_000);
    expect(readingCost([file(Buffer.alloc(15_000, 'x'), 'big.csv'), { kind: 'text', text: 'hello' }], 16_000)).toBe(15_005);
    expect(declaredUnpackedSize(Buffer.from('a,b\n1,2\n'), 16_000)).toBeUndefined();
  });

  it('counts a zip whose directory it cannot read (cut short, zip64) as costly: a thread reads it, or refuses it', () => {
    const zip = bomb();
    expect(declaredUnpackedSize(zip.subarray(0, zip.byteLength - 30), 16_000)).toBe(16_000);
    expect(declaredUnpackedSize(zipParts([{ name: 'a.xml', data: Buffer.from('<a/>') }], { zip64: true }), 16_000)).toBe(16_000);
    expect(declaredUnpackedSize(zipParts([{ name: 'a.xml', data: Buffer.from('<a/>') }]), 16_000)).toBe(4);
  });
});

describe('InputReader', () => {
  let reader: InputReader<unknown> | undefined;
  afterEach(async () => {
    await reader?.close();
  });

  it('reads a small zip that unpacks to more than inThreadFrom in a thread, and a small file of the same bytes on the event loop', async () => {
    reader = new InputReader(
      {
        parse: (parts) => ({ parts: parts.length, inThread: false }),
        parseModule: { url: new URL('./count-parts.test-support.ts', import.meta.url), name: 'countParts' },
      },
      { threads: 1 },
    );
    expect(await reader.parse([file(bomb())])).toEqual({ parts: 1, inThread: true });
    expect(await reader.parse([file(Buffer.alloc(bomb().byteLength, 'x'), 'notes.csv')])).toEqual({ parts: 1, inThread: false });
  });
});
