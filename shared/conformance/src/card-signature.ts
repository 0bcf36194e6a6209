// The card's signatures (A2A §8.4): each is a JWS over the JCS form of the card without
// `signatures`. The canonical form is the SDK's (canonicalizeAgentCard), so the kit and the SDK's
// signer agree on what is signed; the JWS is checked with jose, one signature at a time, so a
// report can say which one failed and why (the SDK's verifier only says that none verified).
import { createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AgentCard } from '@a2a-js/sdk';
import { canonicalizeAgentCard } from '@a2a-js/sdk';
import type { JWK } from 'jose';
import { base64url, decodeProtectedHeader, flattenedVerify } from 'jose';
import type { Wire } from './wire.ts';
import { brief } from './wire.ts';

export type SignatureVerdict = { readonly status: 'pass' | 'fail' | 'skip'; readonly reason: string };

/** A public key from a file: a JWK, a JWK Set (every key in it), or PEM. */
function keysFromFile(path: string): readonly (JWK | KeyObject)[] {
  const text = readFileSync(path, 'utf8');
  if (!text.trimStart().startsWith('{')) return [createPublicKey(text)];
  const json = JSON.parse(text) as JWK & { keys?: JWK[] };
  return Array.isArray(json.keys) ? json.keys : [json];
}

/**
 * Verify every signature on the card. The key is `cardKey` (a file) when given; otherwise the JWK
 * Set the signature's `jku` names, fetched only from the card's own origin (a card cannot send the
 * kit to another host), and the key in it whose `kid` matches.
 */
export async function verifyCardSignatures(card: Record<string, unknown>, cardUrl: string, wire: Wire, cardKey?: string): Promise<SignatureVerdict> {
  const signatures = Array.isArray(card.signatures) ? (card.signatures as unknown[]) : [];
  if (signatures.length === 0) return { status: 'skip', reason: 'the card carries no signature (signatures are optional), so there is none to verify' };
  const payload = base64url.encode(new TextEncoder().encode(canonicalizeAgentCard(card as unknown as AgentCard)));
  const fileKeys = cardKey !== undefined ? keysFromFile(cardKey) : undefined;
  const origin = new URL(cardUrl).origin;
  const verified: string[] = [];
  for (const [index, entry] of signatures.entries()) {
    const which = `signature ${index + 1} of ${signatures.length}`;
    const signature = entry as { protected?: unknown; signature?: unknown; header?: Record<string, unknown> };
    if (typeof signature?.protected !== 'string' || typeof signature.signature !== 'string') {
      return { status: 'fail', reason: `expected ${which} to be { protected, signature } strings, got ${brief(entry)}` };
    }
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader({ protected: signature.protected, signature: signature.signature, payload });
    } catch (error) {
      return { status: 'fail', reason: `expected ${which}'s protected header to be base64url JSON, but ${(error as Error).message}` };
    }
    if (!header.alg || !header.kid || !header.typ)
      return { status: 'fail', reason: `expected ${which}'s protected header to name alg, kid and typ (A2A §8.4.2), got ${brief(header)}` };
    let candidates: readonly (JWK | KeyObject)[];
    if (fileKeys) candidates = fileKeys;
    else if (typeof header.jku === 'string') {
      let jku: URL;
      try {
        jku = new URL(header.jku);
      } catch {
        return { status: 'fail', reason: `expected ${which}'s jku to be a URL, got ${brief(header.jku)}` };
      }
      if (jku.origin !== origin)
        return {
          status: 'skip',
          reason: `${which} names its key at ${jku.href}, not on the card's origin ${origin}; the kit fetches keys only from there: pass --card-key to verify it`,
        };
      const answer = await wire.http<{ keys?: JWK[] }>(jku.href, { activate: false, auth: false });
      if (answer.status !== 200 || !Array.isArray(answer.body?.keys))
        return { status: 'fail', reason: `expected a JWK Set at ${jku.href} (${which}'s jku), got HTTP ${answer.status} ${brief(answer.text, 100)}` };
      candidates = answer.body.keys.filter((key) => key.kid === header.kid);
      if (candidates.length === 0)
        return { status: 'fail', reason: `expected the JWK Set at ${jku.href} to hold the key ${brief(header.kid)} that ${which} names, but it does not` };
    } else return { status: 'skip', reason: `${which} names no jku, so the kit has no key to verify it with: pass --card-key` };
    let ok = false;
    for (const key of candidates) {
      try {
        await flattenedVerify(
          { payload, protected: signature.protected, signature: signature.signature, ...(signature.header && { header: signature.header }) },
          key as JWK,
        );
        ok = true;
        break;
      } catch {
        // the next key, if any
      }
    }
    if (!ok)
      return {
        status: 'fail',
        reason: `expected ${which} (${header.alg}, key ${brief(header.kid)}) to verify over the card as served, but it does not: the card changed after signing, or it was signed with another key`,
      };
    verified.push(`${header.alg} key ${brief(header.kid)}`);
  }
  return { status: 'pass', reason: `every signature verifies over the card as served (${verified.join('; ')})` };
}
