export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/**
 * Bytes as text: by their byte-order mark when there is one, else UTF-8 when they are valid
 * UTF-8, else windows-1252 (a superset of latin1), which is what Excel writes for "CSV" on a
 * Western European machine and which decodes any byte at all.
 */
export function decodeText(bytes: Uint8Array): { readonly text: string; readonly encoding: TextEncoding } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}

/** Bytes 0x80–0x9F, where windows-1252 differs from latin1 (the five unassigned stay as they are). */
const C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Node's own TextDecoder('windows-1252') decodes these bytes as latin1 since 20.18.3
 * (https://github.com/nodejs/node/issues/60888), turning € and curly quotes into control codes.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => C1[c.charCodeAt(0) - 0x80] ?? c);
}
