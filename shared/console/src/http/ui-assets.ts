import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface UiAssets {
  readonly page: string;
  readonly script: string;
  readonly styles: string;
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Learnables console</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body>
<div id="app"><p class="loading">Loading the console…</p></div>
<noscript><p>The console needs JavaScript to talk to the agents.</p></noscript>
</body>
</html>
`;

/**
 * The browser UI: TypeScript from src/ui (with the protocol's client rule, `fieldsToRender` and
 * `prefillFields`, bundled in) and plain CSS. Nothing is fetched from anywhere but this server.
 *
 * Built (`pnpm build`: dist/ui/app.js and styles.css beside this module's ../ui/), it is read as it
 * is: production serves a bundle made ahead of time and needs no bundler. From the source (tests,
 * `pnpm dev`) it is bundled into memory when the server starts, with esbuild (a devDependency).
 */
export async function bundleUi(): Promise<UiAssets> {
  const ui = new URL('../ui/', import.meta.url);
  const built = new URL('app.js', ui);
  const script = existsSync(built) ? await readFile(built, 'utf8') : await bundleUiScript(fileURLToPath(new URL('main.ts', ui)));
  const styles = await readFile(new URL('styles.css', ui), 'utf8');
  return { page: PAGE, script, styles };
}

/** Bundle the UI's entry (src/ui/main.ts) for the browser: the script `bundleUi` serves. */
export async function bundleUiScript(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // The workspace's packages from their source, built or not.
    conditions: ['@learnables/source'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]?.text;
  if (script === undefined) throw new Error('Bundling the console UI produced no script.');
  return script;
}
