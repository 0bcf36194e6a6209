import { fileURLToPath } from 'node:url';

/**
 * The folder of the agent's measuring data, written by scripts/make-examples.ts: `held-out.json`
 * (labelled descriptions never taught), `lessons.json` (the lesson stream) and `scenario.json`
 * (six weeks of consignments for `pnpm demo:handling`).
 */
export const fixturesFolder = fileURLToPath(new URL('../fixtures/', import.meta.url));
