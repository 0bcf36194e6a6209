// Which A2A protocol version a request speaks, and reading a v0.3 message, for the extension's own
// methods (reread, teach, preview), which sit in front of the SDK's handlers and so must answer as
// the SDK does for core methods: `A2A-Version` absent or in [0.3, 1.0) means v0.3.
import type { Part } from '@a2a-js/sdk';
import { Message } from '@a2a-js/sdk';
import { EXTENSIONS_HEADER } from '@learnables/protocol';
import { InputRefused } from '../learnable-agent.ts';

/** v0.3 named the extensions header with the `X-` prefix; v1.0 dropped it. */
export const LEGACY_EXTENSIONS_HEADER = `X-${EXTENSIONS_HEADER}`;

/** True when a request with this `A2A-Version` header speaks v0.3 (the SDK's rule: absent is 0.3). */
export function speaksV03(version: string | undefined): boolean {
  if (version === undefined || version.trim() === '') return true;
  const match = /^(\d+)\.(\d+)/.exec(version.trim());
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major === 0 && minor >= 3;
}

/** The header a response echoes activated extensions in, for a request of this version. */
export const extensionsHeaderFor = (v03: boolean): string => (v03 ? LEGACY_EXTENSIONS_HEADER : EXTENSIONS_HEADER);

type V03Part = { kind?: unknown; text?: unknown; data?: unknown; file?: { bytes?: unknown; uri?: unknown; mimeType?: unknown; name?: unknown } };

/** A v0.3 message marks every part with `kind`; a v1.0 part has none. */
const isV03Message = (message: { parts?: unknown }): boolean =>
  Array.isArray(message.parts) && message.parts.some((part) => typeof part === 'object' && part !== null && 'kind' in part);

function v03Part(part: V03Part): Part {
  if (typeof part !== 'object' || part === null) throw new InputRefused('A part of this message is not an object: each part is text, a file or data.');
  const base = { metadata: undefined, filename: '', mediaType: '' };
  if (part.kind === 'text' && typeof part.text === 'string') return { ...base, content: { $case: 'text', value: part.text } };
  if (part.kind === 'data') return { ...base, content: { $case: 'data', value: part.data } } as Part;
  if (part.kind === 'file' && typeof part.file === 'object' && part.file !== null) {
    const file = part.file;
    const named = {
      metadata: undefined,
      filename: typeof file.name === 'string' ? file.name : '',
      mediaType: typeof file.mimeType === 'string' ? file.mimeType : '',
    };
    if (typeof file.bytes === 'string') return { ...named, content: { $case: 'raw', value: Buffer.from(file.bytes, 'base64') } };
    if (typeof file.uri === 'string') return { ...named, content: { $case: 'url', value: file.uri } };
  }
  throw new InputRefused(
    `A part of this message cannot be read as A2A v0.3 (kind "${String(part.kind).slice(0, 40)}"): each part is text, a file with bytes or a uri, or data.`,
  );
}

/**
 * The parts of a message sent to an extension method, read in the version the request speaks: a
 * v0.3 request's message in v0.3 shape (`kind: "file"`, `file: { bytes, mimeType, name }`), anything
 * else as v1.0. A v0.3 request carrying a v1.0-shaped message (no `kind`) is read as v1.0.
 */
export function messageParts(message: object, v03: boolean): readonly Part[] {
  if (v03 && isV03Message(message as { parts?: unknown })) return (message as { parts: V03Part[] }).parts.map(v03Part);
  return Message.fromJSON(message).parts;
}
