// The browser the console's browser tests drive. Never downloaded at test time: a setting, an
// installed Chromium or Chrome, the Chromium shipped inside the @sparticuz/chromium npm package,
// or (as root on Debian) Debian's chromium package.
import { findProgram } from './find-program.ts';
import type { FoundProgram, ProgramSearch } from './find-program.ts';

/** Flags for a headless run on a shared machine that must not reach the network. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Where Chromium and Chrome usually live, Debian's first. */
export const USUAL_CHROMIUM_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * The Chromium inside @sparticuz/chromium (built for Linux x64 and arm64; brotli-compressed in the
 * package and unpacked into the temporary folder, no network). Undefined elsewhere.
 */
export async function packagedChromium(): Promise<string | undefined> {
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return undefined;
  const { default: chromium } = await import('@sparticuz/chromium');
  return chromium.executablePath();
}

/** Find the browser for the tests (see find-program.ts for the order). */
export function findChromium(overrides: Partial<ProgramSearch> = {}): Promise<FoundProgram> {
  return findProgram({
    name: 'Chromium',
    settingName: 'CHROMIUM_PATH',
    setting: process.env.CHROMIUM_PATH,
    paths: USUAL_CHROMIUM_PATHS,
    packaged: packagedChromium,
    debian: { package: 'chromium', path: '/usr/bin/chromium', why: "for the console's browser tests" },
    ...overrides,
  });
}

/** The browser the global setup found; tests read it from here. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH;
  if (!path) throw new Error('CHROMIUM_PATH is not set: run the tests through vitest (its global setup finds the browser) or set it.');
  return path;
}
