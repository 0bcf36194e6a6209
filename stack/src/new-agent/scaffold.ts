import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentAnswers } from './agent-template.ts';
import { agentFiles, camel, spellings } from './agent-template.ts';

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const IDENTIFIER = /^[a-z][a-zA-Z0-9]*$/;
const REGISTRY = 'stack/src/agents.ts';
const OPENING = 'export const agents: readonly RegisteredAgent[] = [';

/** Refuses answers the template cannot spell, each with a sentence; fills in the defaults. */
export function checkAnswers(raw: { name: string; collection?: string; entry?: string; field?: string; port?: number }, takenPorts: readonly number[]): AgentAnswers {
  const name = raw.name.trim();
  if (!KEBAB.test(name)) throw new Error(`"${raw.name}" is not an agent name: use lower-case words joined by hyphens, e.g. carrier or cold-store.`);
  if (name.endsWith('-agent')) throw new Error(`Name the agent without "-agent" ("${name.slice(0, -6)}"); the package is called @learnables/${name}.`);
  const collection = raw.collection?.trim() || `${name}-limits`;
  if (!KEBAB.test(collection)) throw new Error(`"${collection}" is not a collection name: use lower-case words joined by hyphens, e.g. carrier-limits.`);
  const entry = raw.entry?.trim() || name;
  if (!KEBAB.test(entry)) throw new Error(`"${entry}" is not an entry noun: use lower-case words joined by hyphens, e.g. carrier.`);
  const field = raw.field?.trim() || 'limit';
  if (!IDENTIFIER.test(field) || field === 'key' || field === 'label') throw new Error(`"${field}" is not a lesson field name: use a camelCase word other than key and label, e.g. limit or maxKg.`);
  if (entry.split('-').join(' ') === field) throw new Error(`The entry and the lesson field are both "${field}"; name what one entry is (--entry carrier) apart from what a lesson sets (--field maxWeight).`);
  const port = raw.port ?? Math.max(...takenPorts.filter((p) => p < 4300), 4200) + 1;
  if (!Number.isInteger(port) || port < 1024 || port > 65535) throw new Error(`${raw.port} is not a port for an agent; give one between 1024 and 65535.`);
  if (takenPorts.includes(port)) throw new Error(`Port ${port} is taken by another service of the stack; give another with --port.`);
  return { name, collection, entry, field, port };
}

/** The line the registry gets, as the author would write it. */
export function registryLine(a: AgentAnswers): { imports: string; line: string } {
  const s = spellings(a);
  const seeds = `${camel(a.name)}Seeds`;
  return {
    imports: `import { seedsFolder as ${seeds}, ${s.agentConst} } from '${s.pkg}';`,
    line: `  registerAgent({ name: '${a.name}', agent: ${s.agentConst}, seeds: ${seeds}, port: ${a.port}, vocabulary: ${JSON.stringify(vocabularyOf(a)).replace(/"/g, "'").replace(/,/g, ', ')} }),`,
  };
}

/**
 * The words that are this agent's own: its name and collection, split into words, and its field.
 * A word shared code uses too (limit, name) would fail the vocabulary scan; the author trims it.
 */
export function vocabularyOf(a: AgentAnswers): string[] {
  const words = new Set([...a.name.split('-'), ...a.collection.split('-'), ...a.entry.split('-'), a.field.toLowerCase()]);
  return [...words].filter((word) => word.length > 2 && !COMMON_WORDS.has(word));
}

/** Words the shared layers use for their own purposes: never an agent's vocabulary. */
const COMMON_WORDS = new Set(['limit', 'limits', 'rule', 'rules', 'name', 'names', 'value', 'values', 'entry', 'entries', 'key', 'keys', 'label', 'agent', 'agents', 'task', 'tasks', 'version', 'versions', 'collection', 'field', 'fields', 'text', 'data', 'file', 'files', 'length', 'where', 'column', 'count', 'size', 'type', 'kind', 'item', 'items', 'amount', 'list', 'lists', 'check', 'checks']);

/** Adds the agent's import and line to stack/src/agents.ts; refuses when the file no longer has the shape it expects. */
export function addToRegistry(source: string, a: AgentAnswers): string {
  const { imports, line } = registryLine(a);
  const open = source.indexOf(OPENING);
  const close = source.lastIndexOf('];');
  const lastImport = source.lastIndexOf('\nimport ', open);
  if (open < 0 || close < open || lastImport < 0) throw new Error(`${REGISTRY} no longer has "${OPENING} … ];"; add the line by hand:\n${imports}\n${line}`);
  if (source.includes(`name: '${a.name}'`)) throw new Error(`${REGISTRY} already registers an agent named "${a.name}".`);
  const importEnd = source.indexOf('\n', lastImport + 1) + 1;
  const withLine = `${source.slice(0, close)}${line}\n${source.slice(close)}`;
  return `${withLine.slice(0, importEnd)}${imports}\n${withLine.slice(importEnd)}`;
}

/**
 * Writes agents/<name>/, the registry line and the stack's dependency on the new package. Returns
 * the paths written or changed, relative to the repository. Writes nothing if any check fails.
 */
export function scaffoldAgent(root: string, a: AgentAnswers): string[] {
  const folder = join('agents', a.name);
  if (existsSync(join(root, folder))) throw new Error(`${folder} already exists; choose another name or remove it.`);
  const registryPath = join(root, REGISTRY);
  const registry = addToRegistry(readFileSync(registryPath, 'utf8'), a);
  const stackPackagePath = join(root, 'stack', 'package.json');
  const stackPackage = JSON.parse(readFileSync(stackPackagePath, 'utf8')) as { dependencies: Record<string, string> };
  stackPackage.dependencies[spellings(a).pkg] = 'workspace:*';

  const written: string[] = [];
  for (const [path, content] of agentFiles(a)) {
    const target = join(root, folder, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    written.push(join(folder, path));
  }
  writeFileSync(registryPath, registry);
  writeFileSync(stackPackagePath, `${JSON.stringify(stackPackage, null, 2)}\n`);
  return [...written, REGISTRY, 'stack/package.json'];
}
