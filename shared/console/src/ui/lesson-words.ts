import type { ActivationView } from '../api-types.ts';

/**
 * A change to a collection in a sentence a clerk can read, with no version number, kind or key:
 * "Taught by ana, for Northgate Motors: mail from billing@origin.example". The value is said in the
 * learnable's own words (`says`, SPEC §3.6); an agent that gives none is shown by its own sentence
 * (its `audit`), as before.
 */
export function whatChanged(activation: ActivationView): string {
  const label = activation.entryLabel ?? activation.entry;
  const taught = activation.says !== undefined && label !== undefined ? `for ${label}: ${activation.says}` : (activation.says ?? activation.audit);
  switch (activation.kind) {
    case 'seed':
      return `Set up with what it started from: ${activation.audit}`;
    case 'lesson':
      return `Taught by ${activation.author}${separated(taught)}`;
    case 'entry-added':
      return label !== undefined ? `Added by ${activation.author}: ${label}, as a new one` : `Added by ${activation.author}: ${activation.audit}`;
    case 'retraction':
      return `Taken back by ${activation.author}${separated(taught)}`;
    case 'rollback':
      return `Undone by ${activation.author}: the changes made after an earlier point`;
    default:
      return `${activation.author}: ${activation.audit}`;
  }
}

/** The sentence with its reason, "…, because the invoice says so"; the seed's reason is where it was loaded from. */
export function changeSentence(activation: ActivationView, undoneAfter?: ActivationView): string {
  const what =
    activation.kind === 'rollback' && undoneAfter !== undefined
      ? `Undone by ${activation.author}: every change after “${whatChanged(undoneAfter)}”`
      : whatChanged(activation);
  if (activation.kind === 'seed' || activation.reason.trim() === '') return `${what}.`;
  return `${what}, because ${quoted(activation.reason)}.`;
}

/** ", for Northgate Motors: …" joins with a comma; an agent's own sentence with a colon. */
const separated = (taught: string) => (taught.startsWith('for ') ? `, ${taught}` : `: ${taught}`);

const quoted = (reason: string) => `“${reason.trim()}”`;

/**
 * For each rollback in a history (newest first), the change it went back to: the newest earlier
 * activation of the version it made active again. Keyed by activation id (a Map: ids come from the authority).
 */
export function undoneAfter(activations: readonly ActivationView[]): Map<number, ActivationView> {
  const found = new Map<number, ActivationView>();
  // Oldest first, so a rollback to a version another rollback made active finds what that one named.
  for (let index = activations.length - 1; index >= 0; index -= 1) {
    const activation = activations[index]!;
    if (activation.kind !== 'rollback') continue;
    const earlier = activations.slice(index + 1).find((candidate) => candidate.version === activation.version);
    const named = earlier?.kind === 'rollback' ? found.get(earlier.id) : earlier;
    if (named) found.set(activation.id, named);
  }
  return found;
}
