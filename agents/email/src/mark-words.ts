import type { Mark, MarkPlace } from './customer-marks.ts';

/**
 * A mark in words for a clerk who has never seen a regular expression (SPEC §3.6): "mail from
 * billing@origin.example", "the words 'Northgate Motors' in the subject". It recognizes the shapes
 * this agent writes (`senderPattern`, `referencePattern`, a name between word edges, escaped text)
 * by their exact text and reads the literal back out; any other pattern a person typed is said as
 * text that matches it, quoted, since guessing what a hand-written pattern means would be a lie.
 */
export function markWords(mark: Mark): string {
  const what = patternWords(mark.pattern, mark.where);
  const sender = mark.sender === undefined ? undefined : senderWords(mark.sender);
  if (what.from !== undefined) return sender === undefined ? what.from : `${what.from}, only on mail from ${sender}`;
  const place = PLACE_WORDS[mark.where];
  if (sender === undefined) return `${what.text} ${place}`;
  return mark.where === 'any' ? `${what.text} anywhere in mail from ${sender}` : `${what.text} ${place} of mail from ${sender}`;
}

const PLACE_WORDS: Record<MarkPlace, string> = {
  from: 'in the sender',
  subject: 'in the subject',
  body: 'in the message text',
  attachments: 'in an attachment',
  any: 'anywhere',
};

/** `\.` back to `.`; undefined when anything but an escaped metacharacter is left (a real pattern). */
function literal(pattern: string): string | undefined {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || !/[\\^$.|?*+()[\]{}]/.test(next)) return undefined;
      out += next;
      i += 1;
    } else if (/[\\^$.|?*+()[\]{}]/.test(c)) {
      return undefined;
    } else out += c;
  }
  return out;
}

/** A name between word edges, its spaces as `\s+` (how a name is suggested). */
const NAME = /^\(\?:\^\|\[\^0-9a-z\]\)(.+)\(\?:\$\|\[\^0-9a-z\]\)$/s;
/** The start of `referencePattern`'s text, whose literal follows. */
const REFERENCE_START = '(?:^[-/]?|[^0-9a-z/-]|[^0-9a-z][-/]|(?-i:[a-z])[-/])';
const REFERENCE_END = '(?:$|[^0-9a-z/-]|[-/](?:$|[^0-9a-z])|[-/](?-i:[a-z]|[A-Z][a-z]))';

function patternWords(pattern: string, where: MarkPlace): { from?: string; text: string } {
  const address = senderAddress(pattern);
  if (address !== undefined && where === 'from')
    return { from: address.startsWith('@') ? `mail from anyone at ${address.slice(1)}` : `mail from ${address}`, text: address };
  if (address !== undefined) return { text: address.startsWith('@') ? `an address at ${address.slice(1)}` : `the address ${address}` };
  const name = NAME.exec(pattern);
  if (name) {
    const words = literal(name[1]!.split('\\s+').join(' '));
    if (words !== undefined) return { text: `the words '${words}'` };
  }
  if (pattern.startsWith(REFERENCE_START) && pattern.endsWith(REFERENCE_END)) {
    const reference = literal(pattern.slice(REFERENCE_START.length, pattern.length - REFERENCE_END.length));
    if (reference !== undefined) return { text: `the reference '${reference}'` };
  }
  const plain = literal(pattern);
  if (plain !== undefined) return { text: `the text '${plain}'` };
  return { text: `text matching the pattern '${pattern}'` };
}

/** `<billing@origin\.example>` as `billing@origin.example`; `@origin\.example>` as `@origin.example`. */
function senderAddress(pattern: string): string | undefined {
  const whole = /^<(.+)>$/.exec(pattern);
  if (whole) {
    const address = literal(whole[1]!);
    return address !== undefined && address.includes('@') ? address : undefined;
  }
  const domain = /^(@.+)>$/.exec(pattern);
  if (domain) return literal(domain[1]!);
  return undefined;
}

function senderWords(sender: string): string {
  const address = senderAddress(sender);
  if (address !== undefined) return address.startsWith('@') ? `anyone at ${address.slice(1)}` : address;
  const plain = literal(sender);
  return plain !== undefined ? `a sender containing '${plain}'` : `a sender matching the pattern '${sender}'`;
}
