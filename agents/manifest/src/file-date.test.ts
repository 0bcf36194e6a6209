import { describe, expect, it } from 'vitest';
import { dateInFileName } from './file-date.ts';

describe('dateInFileName', () => {
  it('reads the day a file name starts with', () => {
    expect(dateInFileName('2026-10-05-sky-manifest-482.xlsx')?.toISOString()).toBe('2026-10-05T12:00:00.000Z');
  });

  it('finds no date in a name without one, or with an impossible one', () => {
    expect(dateInFileName('08-air-waybill-no.xlsx')).toBeUndefined();
    expect(dateInFileName('2026-02-31-manifest.csv')).toBeUndefined();
    expect(dateInFileName('2026-10-055.csv')).toBeUndefined();
  });
});
