import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_TIME, repackZip, unzipParts, zipParts } from './zip-parts.ts';

const parts = [
  { name: 'xl/', data: Buffer.alloc(0) },
  { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>'.repeat(20)) },
];
const zone = process.env.TZ;

describe('zipParts', () => {
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('gives back the parts it was given, in order', () => {
    expect(unzipParts(zipParts(parts))).toEqual(parts);
  });

  it('writes the same bytes for the same parts in any time zone, stamped with the UTC time given', () => {
    process.env.TZ = 'Asia/Kolkata';
    const india = zipParts(parts);
    process.env.TZ = 'America/New_York';
    const newYork = repackZip(india);
    expect(newYork.equals(india)).toBe(true);
    // DOS time and date of the first local header: 12:00:00 on 2025-03-14.
    expect([india.readUInt16LE(10), india.readUInt16LE(12)]).toEqual([12 << 11, ((2025 - 1980) << 9) | (3 << 5) | 14]);
    expect(FIXTURE_TIME.toISOString()).toBe('2025-03-14T12:00:00.000Z');
  });
});
