import freeEmailDomains from 'free-email-domains';
import type { EmailInput, EmailSender } from './email-input.ts';
import type { InternalSenders } from './internal-senders.ts';

/**
 * What a sender's address is, for what a question may offer as a mark (issue 35, class 5). Only a
 * customer's own address is one customer's: a list or group posts for all its members, an SRS
 * address is a forwarding service's rewriting that never recurs, the warehouse's own is nobody's
 * customer, and a free-mail address is one person's, who may work for two customers or move from
 * one to the other (its domain is everyone's).
 */
export type SenderKind =
  | { readonly kind: 'list' | 'srs' | 'internal'; readonly sentence: string }
  | { readonly kind: 'free-mail'; readonly domain: string }
  | undefined;

/**
 * The free-mail domains of `free-email-domains` (a maintained list, some 14,000 domains: Gmail,
 * Outlook, GMX, Yahoo's many countries …), looked up by the address's domain.
 */
const FREE_MAIL: ReadonlySet<string> = new Set((freeEmailDomains as readonly string[]).map((domain) => domain.toLowerCase()));

/** Whether an address is at a free-mail domain (one person's, who may work for two customers or move between them). */
export function isFreeMail(address: string): boolean {
  return FREE_MAIL.has(
    address
      .slice(address.lastIndexOf('@') + 1)
      .trim()
      .toLowerCase(),
  );
}

/** RFC 5321 forwarders' Sender Rewriting Scheme: `SRS0=hash=tt=origin.example=billing@forwarder.example`. */
const SRS = /^srs[01][=+-]/i;

/** A display name a list or group writes when it rewrites the author's From (`Ann Smith via Ops`). */
export const VIA = /\svia\s+\S/i;

/**
 * What `sender` is. `input`'s header facts speak of its own From only: a forward's original sender
 * (which `sender` may be) is judged by its address alone.
 */
export function senderKind(input: EmailInput, sender: EmailSender, internal?: InternalSenders): SenderKind {
  const address = sender.address.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (internal?.has(address) === true) return { kind: 'internal', sentence: `${sender.address} is the warehouse's own address, never a customer's` };
  if (SRS.test(local)) {
    return { kind: 'srs', sentence: `${sender.address} is a forwarding service's rewritten address (SRS), which changes with every message` };
  }
  if (address === input.from.address.trim().toLowerCase()) {
    const list = listBecause(input, address, sender.name);
    if (list !== undefined) return { kind: 'list', sentence: `${sender.address} is a mailing list or group (${list}), which posts for all its members` };
  }
  if (FREE_MAIL.has(domain)) return { kind: 'free-mail', domain };
  return undefined;
}

/** Why the From is a list's or a group's own address, in the header's words; none when it is not. */
function listBecause(input: EmailInput, address: string, name: string): string | undefined {
  const facts = input.senderFacts;
  if (facts === undefined) return undefined;
  if (facts.listPost === address) return 'its List-Post is this address';
  // Google Groups: List-Id <ops.googlegroups.com> for ops@googlegroups.com.
  if (facts.listId !== undefined && facts.listId === address.replace('@', '.')) return `List-Id ${facts.listId}`;
  // "Via" rewriting (Google Groups, Microsoft 365 groups, lists under DMARC): the author's name in
  // the list's From, the author's own address in Reply-To.
  if (facts.replyTo !== undefined && VIA.test(name)) return `"${name.trim()}", replies to ${facts.replyTo.address}`;
  if (facts.listHeaders === true && facts.replyTo !== undefined)
    return `${facts.listId === undefined ? 'List headers' : `List-Id ${facts.listId}`}, replies to ${facts.replyTo.address}`;
  return undefined;
}
