// `pnpm demo:chart`: redraw docs/scenario/questions-per-100.svg from every results-*.json there.
import { relative } from 'node:path';
import { repoRoot } from '../config.ts';
import { loadResults, writeChart } from './report.ts';

const path = writeChart();
console.log(`Drew ${loadResults().map((r) => `learning ${r.learning}`).join(' and ') || 'no results'} into ${relative(repoRoot, path)}.`);
