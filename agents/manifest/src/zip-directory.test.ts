import { InputRefused } from '@learnables/runtime';
import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures.test-support.ts';
import { readZipDirectory } from './zip-directory.ts';
import { unzipParts, zipParts } from '@learnables/testing';

/** A zip's bytes up to its directory: each part's local header and data. */
const localRecords = (zip: Uint8Array): Buffer => Buffer.from(zip).subarray(0, Buffer.from(zip).readUInt32LE(zip.length - 6));

/** A copy of `zip` with `bytes` slipped in after its directory, before its end record. */
function afterDirectory(zip: Uint8Array, bytes: Buffer): Uint8Array {
  const end = zip.length - 22;
  return Buffer.concat([zip.subarray(0, end), bytes, zip.subarray(end)]);
}

/** A copy of `zip` with its first local header changed at `offset` (8: method, 18: compressed size, 30: name). */
function changeFirstLocalHeader(zip: Uint8Array, offset: number, write: (bytes: Buffer, at: number) => void): Uint8Array {
  const copy = Buffer.from(zip);
  write(copy, offset);
  return copy;
}

const parts = [
  { name: 'a.xml', data: Buffer.from('<a>'.repeat(100)) },
  { name: 'b.xml', data: Buffer.from('<b/>') },
];

describe('readZipDirectory', () => {
  it('lists every part with the sizes the directory declares, without unpacking anything', async () => {
    const entries = await readZipDirectory(zipParts(parts));
    expect(entries.map(({ name, method, uncompressedSize }) => ({ name, method, uncompressedSize }))).toEqual([
      { name: 'a.xml', method: 8, uncompressedSize: 300 },
      { name: 'b.xml', method: 8, uncompressedSize: 4 },
    ]);
  });

  it("declares the zip bomb's sheet at its full 268,436,697 bytes", async () => {
    const sheet = (await readZipDirectory(fixture('17-zip-bomb.xlsx'))).find((entry) => entry.name === 'xl/worksheets/sheet1.xml');
    expect(sheet?.uncompressedSize).toBe(268_436_697);
  });

  it('reads sizes from zip64 extra fields', async () => {
    const entries = await readZipDirectory(zipParts(parts, { zip64: true }));
    expect(entries.map((entry) => entry.uncompressedSize)).toEqual([300, 4]);
    expect(entries[0]?.compressedSize).toBeGreaterThan(0);
  });

  it("finds where each part's data starts, so it can be checked where the reader will read it", async () => {
    const zip = zipParts(parts);
    const [a] = await readZipDirectory(zip);
    expect(a?.dataOffset).toBe(30 + 'a.xml'.length);
  });

  it('refuses a file cut short (no directory at the end) as incomplete', async () => {
    const whole = fixture('01-basic.xlsx');
    await expect(readZipDirectory(whole.subarray(0, whole.length - 10), 'half.xlsx')).rejects.toThrow(
      new InputRefused("'half.xlsx' is incomplete: the file stops before the end of the workbook, as if the upload was cut short. Send the whole file again."),
    );
  });

  it('refuses bytes between parts that no directory entry accounts for', async () => {
    const hidden = zipParts(parts, { gap: Buffer.from('PK\x03\x04 hidden part') });
    await expect(readZipDirectory(hidden, 'odd.xlsx')).rejects.toThrow("'odd.xlsx' is damaged and cannot be opened.");
  });

  it('refuses a part hidden after the directory, where a streaming unzip still finds it', async () => {
    const hidden = afterDirectory(zipParts(parts), localRecords(zipParts([{ name: 'c.xml', data: Buffer.from('<c/>') }])));
    await expect(readZipDirectory(hidden, 'odd.xlsx')).rejects.toThrow("'odd.xlsx' is damaged and cannot be opened.");
  });

  it('refuses a local header that disagrees with the directory on method, size or name', async () => {
    // A streaming unzip trusts the local header: a part the directory calls stored could be
    // inflated, and a shorter size would have it read the rest of the data as another part.
    const zip = zipParts(parts);
    const lies = [
      changeFirstLocalHeader(zip, 8, (bytes, at) => bytes.writeUInt16LE(0, at)),
      changeFirstLocalHeader(zip, 18, (bytes, at) => bytes.writeUInt32LE(bytes.readUInt32LE(at) - 1, at)),
      changeFirstLocalHeader(zip, 30, (bytes, at) => bytes.write('z', at)),
    ];
    for (const lie of lies) await expect(readZipDirectory(lie, 'odd.xlsx')).rejects.toThrow("'odd.xlsx' is damaged and cannot be opened.");
  });

  it('accepts every workbook fixture exceljs wrote, data descriptors and all', async () => {
    for (const file of ['01-basic.xlsx', '10-two-sheets.xlsx', '13-empty-sheet.xlsx']) {
      expect((await readZipDirectory(fixture(file))).map((entry) => entry.name)).toEqual(unzipParts(fixture(file)).map((part) => part.name));
    }
  });
});
