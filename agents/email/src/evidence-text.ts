import { isSeparatorLine, quotedHeaderBlocks } from './forwards.ts';

/**
 * The part of a body a suggestion may be drawn from: the body without its quoted header blocks
 * (`From: … Sent: … Subject: …`, whose lines name the desk, the warehouse and old subjects) and
 * without signatures (`-- `, or a sign-off such as `Kind regards,` and the lines after it up to the
 * next quoted message). A signature holds the writer's postcode, phone number and company
 * registration: text that stands in every message that person writes, for every customer, and so
 * tells no customer apart.
 */
export function evidenceText(body: string): string {
  const lines = body.split(/\r?\n/);
  const quoted = new Set<number>();
  const starts = new Set<number>();
  for (const block of quotedHeaderBlocks(body)) {
    starts.add(block.firstLine);
    for (let i = block.firstLine; i < block.endLine; i += 1) quoted.add(i);
  }
  const kept: string[] = [];
  let inSignature = false;
  for (const [i, line] of lines.entries()) {
    if (starts.has(i) || isSeparatorLine(line)) inSignature = false;
    if (SIGN_OFF.test(line)) inSignature = true;
    if (inSignature || quoted.has(i) || isSeparatorLine(line)) continue;
    kept.push(line);
  }
  return kept.join('\n');
}

/** A line that ends the writing and starts the signature, in the languages warehouses see. */
const SIGN_OFF = new RegExp(
  '^[>\\s]*(?:--\\s*|__+|' +
    [
      '(?:kind|best|warm|many thanks and|with kind)? ?regards',
      'thanks?(?: you)?(?: and regards)?',
      'many thanks',
      'cheers',
      'best(?: wishes)?',
      'sincerely',
      'yours(?: sincerely| faithfully| truly)?',
      'mit freundlichen grüßen',
      '(?:viele|beste|liebe) grüße',
      'mfg',
      'cordialement',
      'bien (?:à vous|cordialement)',
      'salutations',
      'cordiali saluti',
      'distinti saluti',
      'saluti',
      '(?:un )?saludos?(?: cordiales)?',
      'atentamente',
      'met vriendelijke groet(?:en)?',
      'med vänliga hälsningar',
      'med vennlig hilsen',
      'venlig hilsen',
      'sent from my [\\p{L} ]+',
    ].join('|') +
    ')[\\s,.!]*$',
  'iu',
);
