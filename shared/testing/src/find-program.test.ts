import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findChromium } from './chromium.ts';
import { findProgram } from './find-program.ts';
import { findHaproxy } from './haproxy.ts';
import { scratchDir } from './scratch-dir.ts';

/** A program that prints a version (or fails like a binary with a missing library). */
function fakeProgram(dir: string, name: string, works: boolean): string {
  const path = join(dir, name);
  writeFileSync(path, works ? '#!/bin/sh\necho "fake 1.0"\n' : '#!/bin/sh\necho "error while loading shared libraries: libnss3.so" >&2\nexit 127\n');
  chmodSync(path, 0o755);
  return path;
}

describe('finding a program the tests drive', () => {
  it('takes the setting first, and a setting that points nowhere is an error naming it', async () => {
    const dir = scratchDir();
    const set = fakeProgram(dir.path, 'set', true);
    const usual = fakeProgram(dir.path, 'usual', true);
    const found = await findProgram({ name: 'Tool', settingName: 'TOOL_PATH', setting: set, paths: [usual], mayInstall: false });
    expect(found).toMatchObject({ path: set, source: 'setting' });
    await expect(findProgram({ name: 'Tool', settingName: 'TOOL_PATH', setting: join(dir.path, 'gone'), paths: [usual], mayInstall: false })).rejects.toThrow(
      /TOOL_PATH is set to .*gone, but .*not there.*Fix or unset TOOL_PATH/,
    );
    dir.remove();
  });

  it('walks the usual paths in order, skipping what is missing or does not run', async () => {
    const dir = scratchDir();
    const broken = fakeProgram(dir.path, 'broken', false);
    const good = fakeProgram(dir.path, 'good', true);
    const later = fakeProgram(dir.path, 'later', true);
    const found = await findProgram({
      name: 'Tool',
      settingName: 'TOOL_PATH',
      setting: undefined,
      paths: [join(dir.path, 'missing'), broken, good, later],
      mayInstall: false,
    });
    expect(found.path).toBe(good);
    expect(found.source).toBe('usual path');
    expect(found.tried.join('\n')).toMatch(/missing \(usual path: not there\)/);
    expect(found.tried.join('\n')).toMatch(/broken \(usual path: does not run here: error while loading shared libraries/);
    dir.remove();
  });

  it('says everywhere it looked and what to do when nothing is found and it may not install', async () => {
    await expect(
      findProgram({
        name: 'Tool',
        settingName: 'TOOL_PATH',
        setting: undefined,
        paths: ['/nowhere/tool'],
        debian: { package: 'tool', path: '/usr/bin/tool', why: '' },
        mayInstall: false,
      }),
    ).rejects.toThrow(
      'The tests need Tool, and none was found: /nowhere/tool (usual path: not there). Install it (on Debian: apt-get install tool) or set TOOL_PATH to its path.',
    );
  });

  it('finds HAProxy where Debian puts it', async () => {
    const found = await findHaproxy({ setting: undefined, mayInstall: false });
    expect(found.path).toMatch(/haproxy$/);
  });

  // The fallback a machine without an installed browser takes: the Chromium inside the
  // @sparticuz/chromium npm package, unpacked from the package itself (no network), driven for real.
  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'falls back to the Chromium shipped in an npm package, and it drives a page',
    async () => {
      const found = await findChromium({ setting: undefined, paths: ['/nowhere/chromium'], mayInstall: false });
      expect(found.source).toBe('npm package');
      const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage();
        await page.setContent('<p id="p">learnables</p>');
        expect(await page.textContent('#p')).toBe('learnables');
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
});
