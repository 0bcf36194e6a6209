import { randomUUID } from 'node:crypto';
import type { Message, Part } from '@a2a-js/sdk';
import { Role } from '@a2a-js/sdk';
import type { EntryChoice } from '@learnables/protocol';
import { nameProblem } from '@learnables/protocol';
import { labelAsRead } from '@learnables/learnable';
import type { InputPart } from '../learnable-agent.ts';

/** The SDK's parts as the agent sees them: text, bytes or data, without the wire's shapes. */
export function toInputParts(parts: readonly Part[]): InputPart[] {
  const out: InputPart[] = [];
  for (const part of parts) {
    const mediaType = part.mediaType || undefined;
    const filename = part.filename || undefined;
    const content = part.content;
    if (!content) continue;
    if (content.$case === 'text') out.push({ kind: 'text', text: content.value, ...(mediaType && { mediaType }) });
    // The SDK hands incoming bytes over as a Uint8Array (structured-cloned), whatever its type says.
    else if (content.$case === 'raw')
      out.push({ kind: 'file', bytes: new Uint8Array(content.value), ...(mediaType && { mediaType }), ...(filename && { filename }) });
    else if (content.$case === 'data') out.push({ kind: 'data', data: content.value, ...(mediaType && { mediaType }) });
  }
  return out;
}

export const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined });

export const dataPart = (value: unknown): Part =>
  ({ content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: undefined }) as Part;

export function agentMessage(taskId: string, contextId: string, parts: Part[], metadata?: Record<string, unknown>): Message {
  return { messageId: randomUUID(), role: Role.ROLE_AGENT, taskId, contextId, parts, metadata, extensions: [], referenceTaskIds: [] };
}

export interface NamedAnswer {
  readonly said: string;
  readonly entry?: string;
  readonly answeredBy?: string;
  /** The person said no entry applies: `{ none: true }`, or the words "none of these". */
  readonly none?: boolean;
}

/** What a person types to say that no entry applies. */
const NONE_WORDS = /^none(?: of (?:these|them|the above))?[.!]?$/i;

/**
 * Read which entry a person named: a data part `{ entry }` (what extension-aware clients send),
 * or text naming an entry by key or by label, case aside (what any A2A client can send).
 */
export function readAnswer(parts: readonly Part[], entries: readonly EntryChoice[]): NamedAnswer {
  let said = '';
  let answeredBy: string | undefined;
  for (const part of parts) {
    const content = part.content;
    if (content?.$case === 'data' && typeof content.value === 'object' && content.value !== null) {
      const data = content.value as Record<string, unknown>;
      // A name that would not print as itself (SECURITY.md) is left out; the answer still counts.
      if (typeof data.answeredBy === 'string' && nameProblem(data.answeredBy) === undefined) answeredBy = data.answeredBy.trim();
      if (data.none === true) return { said: 'none of these', none: true, ...(answeredBy && { answeredBy }) };
      if (typeof data.entry === 'string') {
        said = data.entry;
        break;
      }
    }
    if (content?.$case === 'text' && said === '') said = content.value;
  }
  const wanted = said.trim();
  const lower = wanted.toLowerCase();
  // A label as a person reads it: "northgate motors limited" names "Northgate Motors Ltd" (same-label.ts).
  const read = labelAsRead(wanted);
  // An entry that is really called "None" still wins: it is named, not the absence of one.
  const named = entries.some((e) => e.key === wanted || labelAsRead(e.label) === read);
  if (!named && NONE_WORDS.test(wanted)) return { said: wanted, none: true, ...(answeredBy && { answeredBy }) };
  const match =
    entries.find((e) => e.key === wanted) ?? entries.find((e) => labelAsRead(e.label) === read) ?? entries.find((e) => e.key.toLowerCase() === lower);
  return { said: wanted, ...(match && { entry: match.key }), ...(answeredBy && { answeredBy }) };
}
