import type { AuthorityClient } from '@learnables/authority';
import { AuthorityRefused } from '@learnables/authority';
import type { ActivationView, CollectionView, HistoryResponse } from '../api-types.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import { ConsoleError } from '../console-error.ts';

/** What the authority refused or could not do, as the console's error with the same words. */
export function fromAuthority(error: unknown): ConsoleError {
  if (error instanceof AuthorityRefused) return new ConsoleError(error.status, error.refusal.error, error.refusal.message, error.refusal.field);
  if (error instanceof ConsoleError) return error;
  return new ConsoleError(502, 'authority-unreachable', (error as Error).message);
}

/** The authority's collections, each with the agents whose cards declare it. */
export async function collectionsOf(authority: AuthorityClient, directory: AgentDirectory): Promise<CollectionView[]> {
  let listed: Awaited<ReturnType<AuthorityClient['collections']>>;
  try {
    listed = await authority.collections();
  } catch (error) {
    throw fromAuthority(error);
  }
  const agents = await directory.views();
  return listed.collections.map(({ collection, activeVersion }) => ({
    collection,
    activeVersion,
    agents: agents.flatMap((agent) =>
      agent.learnable?.collection === collection ? [{ id: agent.id, name: agent.name ?? agent.url, decidedBy: agent.learnable.decidedBy }] : [],
    ),
  }));
}

/** A collection's activations, newest first, with the version active now. */
export async function historyOf(authority: AuthorityClient, collection: string): Promise<HistoryResponse> {
  try {
    const [{ activations }, active] = await Promise.all([authority.history(collection, { limit: 500 }), authority.active(collection)]);
    return { collection, activeVersion: active.version, activations: activations as ActivationView[] };
  } catch (error) {
    throw fromAuthority(error);
  }
}

/** Activate an earlier version; the person signed in is its author. */
export async function rollBack(authority: AuthorityClient, collection: string, version: number, reason: string, operator: string): Promise<ActivationView> {
  try {
    return await authority.rollback(collection, { version, author: operator, reason });
  } catch (error) {
    throw fromAuthority(error);
  }
}
