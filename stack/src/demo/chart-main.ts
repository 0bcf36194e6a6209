// `pnpm demo:chart`: redraw questions-per-100.svg from every results-*.json in data/scenario, or in
// docs/scenario (the committed chart) with --update-docs.
import { relative } from 'node:path';
import { repoRoot } from '../config.ts';
import { loadResults, resultsDir, writeChart } from './report.ts';

const dir = resultsDir({ updateDocs: process.argv.includes('--update-docs') });
const path = writeChart(dir);
console.log(
  `Drew ${
    loadResults(dir)
      .map((r) => `learning ${r.learning}`)
      .join(' and ') || 'no results'
  } into ${relative(repoRoot, path)}.`,
);
