import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AgentCard } from '@a2a-js/sdk';
import { generateAgentCardSignature } from '@a2a-js/sdk';
import type { JWK } from 'jose';
import { calculateJwkThumbprint } from 'jose';

/** Where an agent publishes the public half of its card-signing key, as a JWK Set (RFC 7517 §5). */
export const CARD_KEYS_PATH = '/.well-known/jwks.json';

/** A private key that signs the agent's card, and what a verifier needs to know of it. */
export interface CardSigningKey {
  readonly privateKey: KeyObject;
  /** The public half, as published at CARD_KEYS_PATH: with `kid`, `alg` and `use: "sig"`. */
  readonly publicJwk: JWK;
  readonly alg: string;
  readonly kid: string;
}

/** The JWS algorithm for a key (RFC 7518; EdDSA, RFC 8037), or a sentence saying it cannot sign a card. */
function algorithmOf(key: KeyObject, path: string): string {
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (type === 'ec' && curve === 'prime256v1') return 'ES256';
  if (type === 'ec' && curve === 'secp384r1') return 'ES384';
  if (type === 'ec' && curve === 'secp521r1') return 'ES512';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048) return 'RS256';
  throw new Error(
    `The card-signing key in ${path} is ${type ?? 'not an asymmetric key'}${curve ? ` on ${curve}` : ''}; use an EC key on P-256, P-384 or P-521, an Ed25519 key, or an RSA key of at least 2048 bits.`,
  );
}

/**
 * Read a card-signing private key from a file: PEM (PKCS#8, SEC1 or PKCS#1) or a JWK in JSON. The
 * key id is `kid` when given, else the JWK's own `kid`, else its RFC 7638 thumbprint, so the same
 * key always has the same id. A key that cannot sign is refused in a sentence that names the file.
 */
export async function loadCardSigningKey(path: string, kid?: string): Promise<CardSigningKey> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`The card-signing key file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  let privateKey: KeyObject;
  let ownKid: string | undefined;
  try {
    if (text.trimStart().startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      ownKid = typeof jwk.kid === 'string' && jwk.kid !== '' ? jwk.kid : undefined;
      privateKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
    } else {
      privateKey = createPrivateKey(text);
    }
  } catch (error) {
    throw new Error(
      `The card-signing key file ${path} holds no private key this agent can read (a PEM private key or a private JWK): ${(error as Error).message}.`,
    );
  }
  const alg = algorithmOf(privateKey, path);
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  const id = kid ?? ownKid ?? (await calculateJwkThumbprint(publicJwk));
  return { privateKey, alg, kid: id, publicJwk: { ...publicJwk, kid: id, alg, use: 'sig' } };
}

/**
 * The card with its signature (A2A §8.4: JWS over the JCS form of the card without `signatures`,
 * by the SDK's signer), naming the key by `kid` and where its public half is (`jku`).
 */
export async function signCard(card: AgentCard, key: CardSigningKey, keysUrl: string): Promise<AgentCard> {
  const unsigned = { ...card, signatures: [] };
  return generateAgentCardSignature(key.privateKey, { alg: key.alg, kid: key.kid, typ: 'JOSE', jku: keysUrl })(unsigned);
}
