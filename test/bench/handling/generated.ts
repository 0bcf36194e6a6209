import { HANDLINGS, LABELS, labelled } from '../../../agents/handling/scripts/make-examples.ts';

/** `count` examples from the agent's word lists (by default seed 7 + count, so each size is its own), as seed entries. */
export function generatedEntries(count: number, seed = 7 + count): Record<string, { label: string; examples: string[] }> {
  const entries: Record<string, { label: string; examples: string[] }> = {};
  for (const handling of HANDLINGS) entries[handling] = { label: LABELS.get(handling)!, examples: [] };
  for (const { handling, description } of labelled(seed, count, 'any')) entries[handling]!.examples.push(description);
  return entries;
}
