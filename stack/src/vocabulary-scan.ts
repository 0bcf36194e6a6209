// What test/vocabulary-free.test.ts scans, shared with `pnpm new-agent`: the code of the layers
// between a client and a learnable, and every file of the console. No agent's word may appear there,
// so the scaffolder proposes as vocabulary only words that the scan finds nowhere (it reads the
// framework's own words, not a hand-kept list of them).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The shared packages whose code (tests and comments aside) names no agent's word. */
export const SCANNED_PACKAGES = ['protocol', 'learnable', 'authority', 'runtime'] as const;

export function sourceFiles(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** The code without its comments: prose may give examples; code may not depend on them. */
export const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Every scanned file with the text the scan reads in it: code without comments, pages as they are. */
export function scannedTexts(root: string): { file: string; text: string }[] {
  const code = SCANNED_PACKAGES.flatMap((pkg) => sourceFiles(join(root, 'shared', pkg, 'src'), (name) => name.endsWith('.ts') && !name.includes('.test')));
  const consoleFiles = sourceFiles(join(root, 'shared', 'console', 'src'), () => true);
  const read = (file: string) => (file.endsWith('.ts') || file.endsWith('.css') ? withoutComments(readFileSync(file, 'utf8')) : readFileSync(file, 'utf8'));
  return [...code, ...consoleFiles].map((file) => ({ file, text: read(file) }));
}

/** Every whole word (as `\b` sees one) of the scanned texts, in lower case: what no vocabulary may hold. */
export function frameworkWords(root: string): Set<string> {
  const found = new Set<string>();
  for (const { text } of scannedTexts(root)) for (const [word] of text.matchAll(/\b\w+\b/g)) found.add(word.toLowerCase());
  return found;
}
