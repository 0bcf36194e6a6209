// From @learnables/learnable, not the runtime: the runtime's parse threads load this module and
// what it imports, and nothing more (see LearnableAgent.parseModule).
import type { InputPart } from '@learnables/learnable';
import { InputRefused } from '@learnables/learnable';
import type { EmailInput } from './email-input.ts';
import { parseEmail } from './parse-email.ts';

type FilePart = Extract<InputPart, { kind: 'file' }>;
type TextPart = Extract<InputPart, { kind: 'text' }>;

const mediaTypeOf = (part: InputPart) => (part.mediaType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
/** A header line such as `From: …`: a field name of printable characters, then a colon. */
const STARTS_WITH_HEADER = /^[\x21-\x39\x3b-\x7e]+:/;

/**
 * Find the email among the parts of an A2A message: a file part of type message/rfc822 or named
 * *.eml (raw bytes); failing that, a text part holding a whole message, headers first.
 */
export async function emailFromParts(parts: readonly InputPart[]): Promise<EmailInput> {
  const files = parts.filter((part): part is FilePart => part.kind === 'file');
  const emails = files.filter((part) => mediaTypeOf(part) === 'message/rfc822' || /\.eml$/i.test(part.filename ?? ''));
  if (emails.length > 1) throw new InputRefused(`Send one email at a time; this message carries ${emails.length}.`);
  const [email] = emails;
  if (email !== undefined) return parseEmail(email.bytes);

  const texts = parts.filter((part): part is TextPart => part.kind === 'text' && part.text.trim() !== '');
  const text =
    texts.find((part) => mediaTypeOf(part) === 'message/rfc822') ??
    texts.find((part) => STARTS_WITH_HEADER.test(part.text.trimStart())) ??
    (texts.length === 1 ? texts[0] : undefined);
  if (text !== undefined) return parseEmail(text.text);

  const others = files.map((part) => (part.filename === undefined ? (part.mediaType ?? 'a file') : `${part.filename} (${part.mediaType ?? 'no type'})`));
  throw new InputRefused(
    others.length > 0
      ? `I read emails, and this message carries only ${others.join(', ')}; send the email itself as a message/rfc822 or .eml file, or its whole text.`
      : 'This message carries no email: send one as a message/rfc822 or .eml file, or paste the whole message, headers and body, as text.',
  );
}
