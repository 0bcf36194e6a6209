import { InputRefused } from '@learnables/runtime';
import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures.test-support.ts';
import { readZipDirectory } from './zip-directory.ts';
import { unzipParts, zipParts } from './zip.test-support.ts';

const parts = [
  { name: 'a.xml', data: Buffer.from('<a>'.repeat(100)) },
  { name: 'b.xml', data: Buffer.from('<b/>') },
];

describe('readZipDirectory', () => {
  it('lists every part with the sizes the directory declares, without unpacking anything', () => {
    const entries = readZipDirectory(zipParts(parts));
    expect(entries.map(({ name, method, uncompressedSize }) => ({ name, method, uncompressedSize }))).toEqual([
      { name: 'a.xml', method: 8, uncompressedSize: 300 },
      { name: 'b.xml', method: 8, uncompressedSize: 4 },
    ]);
  });

  it("declares the zip bomb's sheet at its full 268,436,697 bytes", () => {
    const sheet = readZipDirectory(fixture('17-zip-bomb.xlsx')).find((entry) => entry.name === 'xl/worksheets/sheet1.xml');
    expect(sheet?.uncompressedSize).toBe(268_436_697);
  });

  it('reads sizes from zip64 extra fields', () => {
    const entries = readZipDirectory(zipParts(parts, { zip64: true }));
    expect(entries.map((entry) => entry.uncompressedSize)).toEqual([300, 4]);
    expect(entries[0]?.compressedSize).toBeGreaterThan(0);
  });

  it('finds where each part\'s data starts, so it can be checked where the reader will read it', () => {
    const zip = zipParts(parts);
    const [a] = readZipDirectory(zip);
    expect(a?.dataOffset).toBe(30 + 'a.xml'.length);
  });

  it('refuses a file cut short (no directory at the end) as incomplete', () => {
    const whole = fixture('01-basic.xlsx');
    expect(() => readZipDirectory(whole.subarray(0, whole.length - 10), 'half.xlsx')).toThrow(
      new InputRefused(
        "'half.xlsx' is incomplete: the file stops before the end of the workbook, as if the upload was cut short. Send the whole file again.",
      ),
    );
  });

  it('refuses bytes between parts that no directory entry accounts for', () => {
    const hidden = zipParts(parts, { gap: Buffer.from('PK\x03\x04 hidden part') });
    expect(() => readZipDirectory(hidden, 'odd.xlsx')).toThrow("'odd.xlsx' is damaged and cannot be opened.");
  });

  it('accepts every workbook fixture exceljs wrote, data descriptors and all', () => {
    for (const file of ['01-basic.xlsx', '10-two-sheets.xlsx', '13-empty-sheet.xlsx']) {
      expect(readZipDirectory(fixture(file)).map((entry) => entry.name)).toEqual(unzipParts(fixture(file)).map((part) => part.name));
    }
  });
});
