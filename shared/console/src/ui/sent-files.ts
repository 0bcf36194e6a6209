/// <reference lib="dom" />
// Files this browser has sent, remembered by their bytes and (for a message) its Message-ID, so
// the same file sent twice is flagged before it is sent again. Kept in localStorage, bounded.

const KEY = 'learnables-sent';
const MAX_REMEMBERED = 500;
/** A message's headers are at its start; this much is read to find its Message-ID. */
const HEADER_BYTES = 64 * 1024;

export interface Fingerprint {
  readonly bytes: string;
  readonly messageId?: string;
}

export interface SentBefore {
  readonly name: string;
  readonly agent: string;
  readonly at: number;
  /** What matched: the same Message-ID or the same bytes. */
  readonly same: 'message-id' | 'bytes';
}

interface Remembered extends Fingerprint {
  readonly name: string;
  readonly agent: string;
  readonly at: number;
}

/** FNV-1a, 64 bits: enough to recognise a file already sent (a match only asks the clerk). */
export function fnv1a64(data: Uint8Array): string {
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (let index = 0; index < data.length; index++) {
    low = (low ^ data[index]!) >>> 0;
    // Multiply the 64-bit value by the FNV prime 0x100000001b3 in two 32-bit halves.
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / 0x1_0000_0000);
    high = (Math.imul(high, 0x1b3) + Math.imul(low, 0x100) + carry) >>> 0;
    low = lowProduct >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/** The Message-ID of a mail message, from its header block (folded lines unfolded); undefined otherwise. */
export function messageIdOf(head: string): string | undefined {
  const end = head.search(/\r?\n\r?\n/);
  const headers = (end === -1 ? head : head.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const line = /^message-id:[ \t]*(.+)$/im.exec(headers)?.[1]?.trim();
  return line === undefined || line === '' ? undefined : line;
}

export async function fingerprintOf(file: File, isMessage: boolean): Promise<Fingerprint> {
  const data = new Uint8Array(await file.arrayBuffer());
  const messageId = isMessage ? messageIdOf(new TextDecoder('latin1').decode(data.subarray(0, HEADER_BYTES))) : undefined;
  return { bytes: `${data.length}:${fnv1a64(data)}`, ...(messageId !== undefined && { messageId }) };
}

function remembered(): Remembered[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as Remembered[]).filter((entry) => typeof entry?.bytes === 'string' && typeof entry.at === 'number') : [];
  } catch {
    return [];
  }
}

/** When the same file went before, and to which agent, if it did. */
export function sentBefore(print: Fingerprint): SentBefore | undefined {
  const entries = remembered();
  // The same bytes say more than the same Message-ID, so they are looked for first.
  const same = entries.find((entry) => entry.bytes === print.bytes);
  if (same) return { name: same.name, agent: same.agent, at: same.at, same: 'bytes' };
  const message = print.messageId === undefined ? undefined : entries.find((entry) => entry.messageId === print.messageId);
  return message && { name: message.name, agent: message.agent, at: message.at, same: 'message-id' };
}

export function rememberSent(print: Fingerprint, name: string, agent: string): void {
  try {
    const entries = [{ ...print, name, agent, at: Date.now() }, ...remembered()].slice(0, MAX_REMEMBERED);
    localStorage.setItem(KEY, JSON.stringify(entries));
  } catch {
    // A browser that keeps nothing cannot warn of duplicates; sending still works.
  }
}
