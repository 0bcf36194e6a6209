import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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
 * The browser UI, bundled into memory when the server starts: TypeScript from src/ui (with the
 * protocol's client rule, `fieldsToRender` and `prefillFields`, bundled in) and plain CSS.
 * Nothing is fetched from anywhere but this server.
 */
export async function bundleUi(): Promise<UiAssets> {
  const entry = fileURLToPath(new URL('../ui/main.ts', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]?.text;
  if (script === undefined) throw new Error('Bundling the console UI produced no script.');
  const styles = await readFile(new URL('../ui/styles.css', import.meta.url), 'utf8');
  return { page: PAGE, script, styles };
}
