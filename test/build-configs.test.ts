// `pnpm build` (tsc -b tsconfig.build.json) builds each package against the dist/ of those it depends
// on, in the order the build configs' `references` give. A reference to a path that is not there
// stops the whole build (the stack once pointed two folders too high for the tracing package), and a
// missing one builds a package before what it imports. The tests never build, so this reads them.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const readJson = (path: string) => {
  const parsed = ts.parseConfigFileTextToJson(path, readFileSync(path, 'utf8'));
  if (parsed.error) throw new Error(`${path}: ${ts.flattenDiagnosticMessageText(parsed.error.messageText, '\n')}`);
  return parsed.config as { references?: { path: string }[]; name?: string; dependencies?: Record<string, string> };
};

const packages = ['shared', 'agents', 'stack']
  .flatMap((top) => (top === 'stack' ? [join(root, 'stack')] : readdirSync(join(root, top)).map((name) => join(root, top, name))))
  .filter((folder) => existsSync(join(folder, 'package.json')) && existsSync(join(folder, 'tsconfig.build.json')));
const folderOf = new Map(packages.map((folder) => [readJson(join(folder, 'package.json')).name!, folder]));
const referencesOf = (config: string) => (readJson(config).references ?? []).map((reference) => resolve(dirname(config), reference.path));

describe('the build configs (pnpm build)', () => {
  it('reference only build configs that exist', () => {
    for (const config of [join(root, 'tsconfig.build.json'), ...packages.map((folder) => join(folder, 'tsconfig.build.json'))]) {
      for (const target of referencesOf(config)) expect(existsSync(target), `${relative(root, config)} → ${relative(root, target)}`).toBe(true);
    }
  });

  it('reference every workspace package a package depends on, and the root references every package', () => {
    for (const folder of packages) {
      const references = new Set(referencesOf(join(folder, 'tsconfig.build.json')));
      for (const dependency of Object.keys(readJson(join(folder, 'package.json')).dependencies ?? {})) {
        const target = folderOf.get(dependency);
        if (target !== undefined) expect(references.has(join(target, 'tsconfig.build.json')), `${relative(root, folder)} imports ${dependency}`).toBe(true);
      }
    }
    const all = new Set(referencesOf(join(root, 'tsconfig.build.json')));
    for (const folder of packages) expect(all.has(join(folder, 'tsconfig.build.json')), relative(root, folder)).toBe(true);
  });
});
