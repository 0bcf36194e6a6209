import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Every word that belongs to one agent's idea of a lesson. None may appear in shared code. */
const AGENT_WORDS = ['pattern', 'patterns', 'waybill', 'customer', 'customers', 'mapping', 'mappings', 'northgate', 'heading', 'headings', 'consignee', 'marks', 'maxkg', 'parcel', 'parcels'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.includes('.test') ? [path] : [];
  });
}

/** The code without its comments: prose may give examples; code may not depend on them. */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('the layers between a client and a learnable carry no agent vocabulary', () => {
  for (const pkg of ['protocol', 'learnable', 'authority', 'runtime']) {
    it(`shared/${pkg} names no field or entry of any agent in its code`, () => {
      const hits: string[] = [];
      for (const file of sourceFiles(join(root, 'shared', pkg, 'src'))) {
        const code = withoutComments(readFileSync(file, 'utf8'));
        for (const word of AGENT_WORDS) {
          if (new RegExp(`\\b${word}\\b`, 'i').test(code)) hits.push(`${file.slice(root.length)}: ${word}`);
        }
      }
      expect(hits).toEqual([]);
    });
  }

  it('would catch a layer that named one (the scan itself can fail)', () => {
    expect(new RegExp('\\bwaybill\\b', 'i').test(withoutComments("const field = value['waybill'];"))).toBe(true);
    expect(new RegExp('\\bwaybill\\b', 'i').test(withoutComments('// e.g. the waybill'))).toBe(false);
  });
});
