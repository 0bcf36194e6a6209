// Which questions the evidence rule of issue 35 asked: those whose question says the message's own
// part did not decide and why (automated mail, a forward by an outsider, a sender that failed
// authentication, marks found only in quoted or forwarded text). Read from the teach block's
// `evidence` (a list of sentences, when the agent gives it apart) or, failing that, from the
// sentences of its question, so the count works on the email agent before and after it says so apart.
import type { Task } from '@a2a-js/sdk';
import { teachBlockOf } from './scenario-client.ts';

/** How the email agent words each reason of the evidence rule in its question. */
const EVIDENCE_SENTENCES: readonly RegExp[] = [
  /automated mail is no customer's/i,
  /not one of the warehouse's own people/i,
  /found only in quoted or forwarded text/i,
  /\b(?:DMARC|SPF|DKIM)\b|failed authentication|fails? (?:its )?authentication/i,
];

/** The evidence rule's reasons for asking, in the agent's words; empty when it asked for other reasons. */
export function evidenceReasons(task: Task): string[] {
  const teach = teachBlockOf(task) as (Record<string, unknown> & { question?: unknown }) | undefined;
  if (teach === undefined) return [];
  const apart = teach['evidence'];
  if (Array.isArray(apart)) return apart.filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  if (typeof apart === 'string' && apart.trim() !== '') return [apart];
  if (typeof teach.question !== 'string') return [];
  // The question's sentences; a reason sentence may hold a "." inside a quoted mark, so split on ". " before a capital.
  const sentences = teach.question.split(/(?<=[.?!])\s+(?=[A-Z"'(])/);
  return sentences.filter((sentence) => EVIDENCE_SENTENCES.some((pattern) => pattern.test(sentence)));
}
