import iconv from 'iconv-lite';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/**
 * Bytes as text: by their byte-order mark when there is one, else UTF-8 when they are valid
 * UTF-8, else windows-1252 (a superset of latin1), which is what Excel writes for "CSV" on a
 * Western European machine and which decodes any byte at all. Windows-1252 is decoded by
 * iconv-lite: Node's own TextDecoder reads it as latin1 since 20.18.3
 * (https://github.com/nodejs/node/issues/60888), turning € and curly quotes into control codes.
 * The five bytes windows-1252 leaves unassigned (0x81, 0x8D, 0x8F, 0x90, 0x9D) read as '�', which
 * an operator can see, rather than as invisible control codes.
 */
export function decodeText(bytes: Uint8Array): { readonly text: string; readonly encoding: TextEncoding } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'windows-1252'), encoding: 'windows-1252' };
  }
}
