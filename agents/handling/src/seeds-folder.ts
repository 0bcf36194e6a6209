import { fileURLToPath } from 'node:url';

/** The folder holding `handling.json`, version 1 of the collection, for `loadSeeds`. */
export const seedsFolder = fileURLToPath(new URL('../seeds/', import.meta.url));
