import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jsonSchemas } from '../src/index.ts';

const folder = fileURLToPath(new URL('../schemas/', import.meta.url));
mkdirSync(folder, { recursive: true });
for (const [name, schema] of Object.entries(jsonSchemas())) {
  writeFileSync(`${folder}${name}.json`, `${JSON.stringify(schema, null, 2)}\n`);
}
console.log(`wrote ${Object.keys(jsonSchemas()).length} schemas to ${folder}`);
