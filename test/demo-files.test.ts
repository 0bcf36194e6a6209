// Trying the demo must not dirty a clean checkout: runs write under data/ (ignored by git) and the
// committed results and chart in docs/scenario change only with --update-docs.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../stack/src/demo/args.ts';
import { DOCS_DIR, RUN_DIR, TRAP_DOCS_DIR, TRAP_RUN_DIR, resultsDir, trapResultsDir } from '../stack/src/demo/report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const committed = [DOCS_DIR, TRAP_DOCS_DIR].flatMap((dir) => ['results-on.json', 'results-off.json', 'questions-per-100.svg'].map((name) => `${dir}/${name}`));
const snapshot = () => committed.map((path) => ({ path, bytes: readFileSync(path, 'utf8'), mtime: statSync(path).mtimeMs }));

describe('where the demo writes', () => {
  it('writes under data/scenario by default and into docs/scenario only with --update-docs', () => {
    expect(RUN_DIR).toBe(`${root}data/scenario`);
    expect(resultsDir(parseArgs([]))).toBe(RUN_DIR);
    expect(resultsDir(parseArgs(['--update-docs']))).toBe(DOCS_DIR);
    expect(trapResultsDir(parseArgs([]))).toBe(`${root}data/trap-scenario`);
    expect(trapResultsDir(parseArgs(['--update-docs']))).toBe(TRAP_DOCS_DIR);
    expect(() => parseArgs(['--no-write', '--update-docs'])).toThrow(/contradict/);
  });

  it('pnpm demo:compare leaves the committed files untouched and writes its own under data/', async () => {
    const before = snapshot();
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'stack/src/demo/compare.ts', '--weeks', '1', '--quiet'],
        { cwd: root, timeout: 170_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve()),
      ),
    );
    expect(snapshot()).toEqual(before);
    const run = JSON.parse(readFileSync(`${RUN_DIR}/results-on.json`, 'utf8')) as { learning: string; weeks: unknown[] };
    expect(run).toMatchObject({ learning: 'on' });
    expect(run.weeks).toHaveLength(1);
    expect(existsSync(`${RUN_DIR}/questions-per-100.svg`)).toBe(true);
    // The trap scenario's run too, by the trusting operator.
    const trap = JSON.parse(readFileSync(`${TRAP_RUN_DIR}/results-on.json`, 'utf8')) as { operator: string; weeks: unknown[] };
    expect(trap).toMatchObject({ operator: 'trusting' });
    expect(trap.weeks).toHaveLength(1);
  }, 180_000);
});
