import { describe, expect, it } from 'vitest';
import { decodeText } from './decode-text.ts';

describe('decodeText', () => {
  it('reads valid UTF-8 as UTF-8, dropping a byte-order mark', () => {
    expect(decodeText(Buffer.from('\ufeffZürich', 'utf8'))).toEqual({ text: 'Zürich', encoding: 'utf-8' });
  });

  it('falls back to windows-1252 when the bytes are not UTF-8, as Excel writes CSV in Western Europe', () => {
    expect(decodeText(new Uint8Array([0x44, 0xe9, 0x73, 0x20, 0x80]))).toEqual({ text: 'Dés €', encoding: 'windows-1252' });
    expect(decodeText(new Uint8Array([0x4f, 0x92, 0x4e, 0x65, 0x69, 0x6c, 0x20, 0x96])).text).toBe('O’Neil –');
  });

  it("shows the five bytes windows-1252 leaves unassigned as '�', not as invisible control codes", () => {
    // A heading 'Weight\u0081' would look like 'Weight' to the operator and still not match it.
    expect(decodeText(new Uint8Array([0x57, 0x74, 0x81, 0x8d, 0x8f, 0x90, 0x9d])).text).toBe('Wt�����');
  });

  it('reads UTF-16 when a byte-order mark says so', () => {
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('AWB;Poids', 'utf16le')])).text).toBe('AWB;Poids');
  });
});
