import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Authority } from './authority.ts';

/**
 * Seed every collection this authority serves from `<folder>/<collection>.json`
 * (`{ "collection": "...", "entries": { "<key>": <state> } }`), once: a collection that already
 * exists is left as it is, so a restart keeps what was taught.
 */
export async function loadSeeds(authority: Authority, folder: string): Promise<string[]> {
  const files = new Set(await readdir(folder));
  const seeded: string[] = [];
  for (const collection of authority.collections) {
    const file = `${collection}.json`;
    if (!files.has(file)) continue;
    const path = join(folder, file);
    const seed = JSON.parse(await readFile(path, 'utf8')) as { collection?: string; entries?: Record<string, unknown> };
    if (seed.collection !== collection || typeof seed.entries !== 'object' || seed.entries === null) {
      throw new Error(`${path} is not a seed for ${collection}: it needs "collection": "${collection}" and an "entries" object.`);
    }
    if (await authority.seed(collection, seed.entries, file)) seeded.push(collection);
  }
  return seeded;
}
