// `pnpm build` (after tsc): the console's browser UI bundled ahead of time into dist/ui/, where
// the built server (dist/http/ui-assets.js) reads it instead of bundling at every start.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleUiScript } from '../dist/http/ui-assets.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
mkdirSync(here('../dist/ui'), { recursive: true });
writeFileSync(here('../dist/ui/app.js'), await bundleUiScript(here('../src/ui/main.ts')));
copyFileSync(here('../src/ui/styles.css'), here('../dist/ui/styles.css'));
