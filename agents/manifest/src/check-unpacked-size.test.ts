import { describe, expect, it } from 'vitest';
import { checkUnpackedSize } from './check-unpacked-size.ts';
import { readZipDirectory } from './zip-directory.ts';
import { zipParts } from '@learnables/testing';

const sheet = Buffer.from('<row/>'.repeat(1_000));

describe('checkUnpackedSize', () => {
  it('lets a zip through whose parts unpack to exactly what they declare, within the limit', async () => {
    const zip = zipParts([{ name: 'sheet.xml', data: sheet }]);
    await expect(checkUnpackedSize(zip, await readZipDirectory(zip), 10_000)).resolves.toBeUndefined();
  });

  it('refuses on the declared sizes alone, before inflating a byte: garbage data still reads as too large', async () => {
    const zip = zipParts([{ name: 'sheet.xml', data: sheet }]);
    const garbage = zip.slice();
    const [entry] = await readZipDirectory(zip);
    garbage.fill(0xff, entry?.dataOffset, (entry?.dataOffset ?? 0) + (entry?.compressedSize ?? 0));
    await expect(checkUnpackedSize(garbage, await readZipDirectory(garbage), 5_000, 'big.xlsx')).rejects.toThrow(
      "'big.xlsx' unpacks to 6 kB, more than the 5 kB limit for one manifest",
    );
  });

  it('counts every part toward the limit, not only the largest', async () => {
    const zip = zipParts([
      { name: 'a.xml', data: sheet },
      { name: 'b.xml', data: sheet },
    ]);
    await expect(checkUnpackedSize(zip, await readZipDirectory(zip), 10_000)).rejects.toThrow('unpacks to 12 kB, more than the 10 kB limit');
  });

  it('stops a part that inflates past its declared size', async () => {
    const zip = zipParts([{ name: 'sheet.xml', data: sheet }], { declare: { 'sheet.xml': 10 } });
    await expect(checkUnpackedSize(zip, await readZipDirectory(zip), 10_000, 'x.xlsx')).rejects.toThrow(
      "'x.xlsx' unpacks to more than the workbook itself declares",
    );
  });

  it('calls a part that inflates short of its declared size, or not at all, damaged', async () => {
    const short = zipParts([{ name: 'sheet.xml', data: sheet }], { declare: { 'sheet.xml': 9_000 } });
    await expect(checkUnpackedSize(short, await readZipDirectory(short), 10_000, 'x.xlsx')).rejects.toThrow("'x.xlsx' is damaged");
    const zip = zipParts([{ name: 'sheet.xml', data: sheet }]);
    const [entry] = await readZipDirectory(zip);
    const corrupt = zip.slice();
    corrupt.fill(0xff, entry?.dataOffset, (entry?.dataOffset ?? 0) + 4);
    await expect(checkUnpackedSize(corrupt, await readZipDirectory(corrupt), 10_000, 'x.xlsx')).rejects.toThrow("'x.xlsx' is damaged");
  });
});
