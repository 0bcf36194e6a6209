import type { AuthorityClient } from '@learnables/authority';
import { AuthorityRefused } from '@learnables/authority';
import type { RetractionOutcome } from '@learnables/protocol';
import type { ActivationView, CollectionView, EntryView, HistoryResponse, RollbackPreviewView } from '../api-types.ts';
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

/** The active version's entry labels by key, so a sentence names “Northgate Motors”, not its key. */
async function labelsOf(authority: AuthorityClient, collection: string, version: number): Promise<Map<string, string>> {
  const { entries } = await authority.entries(collection, version);
  return new Map(entries.map((entry) => [entry.key, entry.label]));
}

/** Each activation with the label of the entry it is about, where the active version still has it. */
const labelled = (activations: readonly ActivationView[], labels: ReadonlyMap<string, string>): ActivationView[] =>
  activations.map((activation) => {
    const label = activation.entry === undefined ? undefined : labels.get(activation.entry);
    return label === undefined ? activation : { ...activation, entryLabel: label };
  });

/** A collection's activations, newest first, with the version active now. */
export async function historyOf(authority: AuthorityClient, collection: string): Promise<HistoryResponse> {
  try {
    const [{ activations }, active] = await Promise.all([authority.history(collection, { limit: 500 }), authority.active(collection)]);
    const labels = await labelsOf(authority, collection, active.version);
    return { collection, activeVersion: active.version, activations: labelled(activations as ActivationView[], labels) };
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

/** What rolling back to a version would take out of effect and bring back; nothing is written. */
export async function rollbackPreviewOf(authority: AuthorityClient, collection: string, version: number): Promise<RollbackPreviewView> {
  try {
    const [effect, active] = await Promise.all([authority.rollbackPreview(collection, version), authority.active(collection)]);
    const labels = await labelsOf(authority, collection, active.version);
    return { ...effect, undoes: labelled(effect.undoes as ActivationView[], labels), restores: labelled(effect.restores as ActivationView[], labels) };
  } catch (error) {
    throw fromAuthority(error);
  }
}

const TEACHES = new Set(['lesson', 'entry-added']);
const newestFirst = (a: ActivationView, b: ActivationView) => b.version - a.version;

/**
 * One entry as the active version holds it, with the activations that put it there: the versions
 * the active one builds on (everything a rollback to the seed would undo) that taught this entry,
 * less those a retraction in the same line took back. Values stay with the authority: the console
 * shows each lesson by the learnable's own sentence (its audit), never by reading the value.
 */
export async function entryOf(authority: AuthorityClient, collection: string, key: string): Promise<EntryView> {
  try {
    const active = await authority.active(collection);
    const { entries } = await authority.entries(collection, active.version);
    const entry = entries.find((candidate) => candidate.key === key);
    if (!entry) throw new ConsoleError(404, 'unknown-entry', `${collection} has no entry “${key}” in version ${active.version}, the active one.`);
    // Version 1 is the seed: every activation since that the active version builds on is in effect,
    // unless a retraction in effect took it back.
    const line = active.version === 1 ? [] : ((await authority.rollbackPreview(collection, 1)).undoes as ActivationView[]);
    const retractions = new Map(
      line
        .filter((activation) => activation.kind === 'retraction' && activation.retracts !== undefined)
        .map((activation) => [activation.retracts!, activation]),
    );
    const mine = line.filter((activation) => TEACHES.has(activation.kind) && activation.entry === key).sort(newestFirst);
    return {
      collection,
      key,
      label: entry.label,
      activeVersion: active.version,
      taught: mine.filter((activation) => !retractions.has(activation.version)).map((activation) => ({ ...activation, entryLabel: entry.label })),
      retracted: mine.flatMap((activation) => {
        const by = retractions.get(activation.version);
        return by ? [{ lesson: { ...activation, entryLabel: entry.label }, by: { ...by, entryLabel: entry.label } }] : [];
      }),
    };
  } catch (error) {
    throw fromAuthority(error);
  }
}

/** Take one lesson back (SPEC §5.4): the learnable's inverse, as a new version; the person signed in is its author. */
export async function retractLesson(
  authority: AuthorityClient,
  collection: string,
  version: number,
  reason: string,
  operator: string,
): Promise<RetractionOutcome> {
  try {
    return await authority.retract({ collection, version, author: operator, reason });
  } catch (error) {
    throw fromAuthority(error);
  }
}
