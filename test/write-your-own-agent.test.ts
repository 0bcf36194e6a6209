// docs/write-your-own-agent.md cannot rot quietly: every file it names exists, every pnpm command is
// a script (or pnpm's own), and every excerpt marked `<!-- excerpt: path -->` matches its file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const GUIDE = 'docs/write-your-own-agent.md';
const guide = readFileSync(join(root, GUIDE), 'utf8');

interface Excerpt {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

/** Each fenced block right after an `<!-- excerpt: path -->` marker. */
export function excerptsOf(markdown: string): Excerpt[] {
  const lines = markdown.split('\n');
  const found: Excerpt[] = [];
  lines.forEach((text, index) => {
    const marker = /<!--\s*excerpt:\s*(\S+)\s*-->/.exec(text);
    if (!marker) return;
    const open = lines.findIndex((line, i) => i > index && line.trim() !== '');
    if (open < 0 || !lines[open]!.trim().startsWith('```')) throw new Error(`${GUIDE}:${index + 1}: an excerpt marker must be followed by a fenced block`);
    const close = lines.findIndex((line, i) => i > open && line.trim().startsWith('```'));
    found.push({ file: marker[1]!, line: open + 2, code: lines.slice(open + 1, close).join('\n') });
  });
  return found;
}

/**
 * Where an excerpt departs from its file, or undefined when it matches: each line, trimmed, must
 * be found in the file after the previous one; `…` stands for anything left out.
 */
export function mismatchOf(excerpt: string, file: string): string | undefined {
  let at = 0;
  for (const line of excerpt.split('\n')) {
    for (const piece of line
      .split('…')
      .map((part) => part.trim())
      .filter((part) => part !== '')) {
      const found = file.indexOf(piece, at);
      if (found < 0) return piece;
      at = found + piece.length;
    }
  }
  return undefined;
}

/** Every path-like word in backticks or in a relative link. */
function pathsNamed(markdown: string): string[] {
  const inTicks = [...markdown.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  const inLinks = [...markdown.matchAll(/\]\(\.\.\/([^)#\s]+)\)/g)].map((m) => m[1]!);
  return [...inTicks, ...inLinks].filter(
    (word) => /^[\w.@-]+(\/[\w.@-]+)+(\.(ts|json|md|mjs|yml))?\/?$/.test(word) && !word.startsWith('data/') && !word.startsWith('@') && !word.includes('://'),
  );
}

describe(GUIDE, () => {
  it('marks its excerpts, and each matches the file it cites', () => {
    const excerpts = excerptsOf(guide);
    expect(excerpts.length).toBeGreaterThanOrEqual(10);
    const wrong = excerpts.flatMap(({ file, line, code }) => {
      if (!existsSync(join(root, file))) return [`${GUIDE}:${line}: ${file} does not exist`];
      const missing = mismatchOf(code, readFileSync(join(root, file), 'utf8'));
      return missing === undefined ? [] : [`${GUIDE}:${line}: "${missing}" is not in ${file} (in this order)`];
    });
    expect(wrong).toEqual([]);
  });

  it('names only files and folders that exist (relative ones inside the threshold agent)', () => {
    const named = pathsNamed(guide);
    expect(named).toEqual(expect.arrayContaining(['stack/src/agents.ts', 'test/new-agent.test.ts']));
    const missing = named.filter((path) => !existsSync(join(root, path)) && !existsSync(join(root, 'agents/threshold', path)));
    expect(missing).toEqual([]);
  });

  it("gives only pnpm commands that exist: a script of the root package.json, or pnpm's own", () => {
    const scripts = new Set(Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts));
    const commands = [...guide.matchAll(/\bpnpm(?:@[\d.]+)? ([a-z][\w:-]*)/g)].map((m) => m[1]!);
    expect(commands).toEqual(expect.arrayContaining(['new-agent', 'start', 'compose', 'check', 'agent']));
    expect(commands.filter((command) => !scripts.has(command) && !['install', 'exec', 'add'].includes(command))).toEqual([]);
  });

  it('would catch an excerpt that no longer matches (the check can fail)', () => {
    const file = 'const a = 1;\nfunction f() {\n  return a;\n}\n';
    expect(mismatchOf('const a = 1;\n…\n  return a;', file)).toBeUndefined();
    expect(mismatchOf('const a = 2;', file)).toBe('const a = 2;');
    expect(mismatchOf('return a;\nconst a = 1;', file)).toBe('const a = 1;');
    expect(excerptsOf('<!-- excerpt: x.ts -->\n```ts\nline\n```\n')).toEqual([{ file: 'x.ts', line: 3, code: 'line' }]);
  });
});
