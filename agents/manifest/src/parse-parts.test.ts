import { InputRefused } from '@learnables/runtime';
import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures.test-support.ts';
import { parseManifest } from './parse-parts.ts';
import { XLSX_MEDIA_TYPE } from './sniff-format.ts';

const file = (filename: string | undefined, mediaType?: string, bytes: Uint8Array = fixture('01-basic.xlsx')) =>
  ({ kind: 'file', bytes, filename, mediaType }) as const;

describe('parseManifest', () => {
  it('reads an .xlsx by its name, or by its media type alone', async () => {
    expect((await parseManifest([file('01-basic.xlsx')])).headerRow).toBe(1);
    expect((await parseManifest([file(undefined, XLSX_MEDIA_TYPE)])).filename).toBe('untitled.xlsx');
  });

  it('reads a CSV by its name or text/csv', async () => {
    const csv = fixture('07-quoted-commas.csv');
    expect((await parseManifest([file('m.csv', undefined, csv)])).format).toBe('csv');
    expect((await parseManifest([file(undefined, 'text/csv', csv)])).rowCount).toBe(6);
  });

  it('passes over text and files that are not spreadsheets to the first one that is', async () => {
    const parts = [{ kind: 'text', text: "tonight's manifest" } as const, file('logo.png', 'image/png'), file('01-basic.xlsx')];
    expect((await parseManifest(parts)).filename).toBe('01-basic.xlsx');
  });

  it('reads a file that gives no name or type by its bytes', async () => {
    expect((await parseManifest([file(undefined, 'application/octet-stream')])).format).toBe('xlsx');
    await expect(parseManifest([file('upload', undefined, fixture('15-not-a-spreadsheet.xlsx'))])).rejects.toThrow(
      "'upload' is not a spreadsheet: it is a PNG image.",
    );
  });

  it('refuses a message without a file, and a file that is not a spreadsheet, in a sentence', async () => {
    await expect(parseManifest([{ kind: 'text', text: 'see attached' }])).rejects.toThrow(
      new InputRefused('This message has no file in it; send the manifest as an Excel workbook (.xlsx) or a CSV file.'),
    );
    await expect(parseManifest([file('scan.pdf', 'application/pdf')])).rejects.toThrow(
      new InputRefused("'scan.pdf' (application/pdf) is not a spreadsheet I can read; send the manifest as an Excel workbook (.xlsx) or a CSV file."),
    );
  });

  it("passes readSheet's refusals through", async () => {
    await expect(parseManifest([file('18-encrypted.xlsx', undefined, fixture('18-encrypted.xlsx'))])).rejects.toThrow(
      'This workbook is password-protected; save it without a password and send it again.',
    );
  });

  it('reads within the limits it is given', async () => {
    expect((await parseManifest([file('01-basic.xlsx')], { maxRows: 2 })).rows).toHaveLength(2);
  });
});
