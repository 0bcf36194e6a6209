import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { frameworkWords } from '../vocabulary-scan.ts';
import type { AgentAnswers } from './agent-template.ts';
import { agentFiles, camel, spellings } from './agent-template.ts';
import type { AnswerShape, LessonKind } from './lesson-shapes.ts';
import { ANSWER_SHAPES, LESSON_KINDS, MATCH_FIELD, OTHER_FIELD, defaultField, lessonShape } from './lesson-shapes.ts';

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const IDENTIFIER = /^[a-z][a-zA-Z0-9]*$/;
const REGISTRY = 'stack/src/agents.ts';
const OPENING = 'export const agents: readonly RegisteredAgent[] = [';

/** What the scaffolder is told, before it is checked. */
export interface RawAnswers {
  readonly name: string;
  readonly collection?: string;
  readonly entry?: string;
  readonly field?: string;
  readonly lesson?: string;
  readonly answer?: string;
  readonly port?: number;
}

/** Refuses answers the template cannot spell, each with a sentence; fills in the defaults. */
export function checkAnswers(raw: RawAnswers, takenPorts: readonly number[]): AgentAnswers {
  const name = raw.name.trim();
  if (!KEBAB.test(name)) throw new Error(`"${raw.name}" is not an agent name: use lower-case words joined by hyphens, e.g. carrier or cold-store.`);
  if (name.endsWith('-agent')) throw new Error(`Name the agent without "-agent" ("${name.slice(0, -6)}"); the package is called @learnables/${name}.`);
  const lesson = (raw.lesson?.trim() || 'number') as LessonKind;
  if (!LESSON_KINDS.includes(lesson)) throw new Error(`--lesson ${raw.lesson} is not a lesson shape; give one of ${LESSON_KINDS.join(', ')}.`);
  const answer = (raw.answer?.trim() || 'field') as AnswerShape;
  if (!ANSWER_SHAPES.includes(answer))
    throw new Error(
      `--answer ${raw.answer} is not an answer shape; give field (the answer is a field of the entry the message names) or entry (the answer is the entry).`,
    );
  const collection = raw.collection?.trim() || `${name}-${lesson === 'number' && answer === 'field' ? 'limits' : 'rules'}`;
  if (!KEBAB.test(collection)) throw new Error(`"${collection}" is not a collection name: use lower-case words joined by hyphens, e.g. carrier-limits.`);
  const entry = raw.entry?.trim() || name;
  if (!KEBAB.test(entry)) throw new Error(`"${entry}" is not an entry noun: use lower-case words joined by hyphens, e.g. carrier.`);
  const field = raw.field?.trim() || defaultField(lesson, answer);
  const taken = ['key', 'label', 'taught', ...(lesson === 'fields' ? [OTHER_FIELD, MATCH_FIELD] : [])];
  if (!IDENTIFIER.test(field) || taken.includes(field))
    throw new Error(`"${field}" is not a lesson field name: use a camelCase word other than ${taken.join(', ')}, e.g. limit or maxKg.`);
  if (entry.split('-').join(' ') === field || camelOf(entry) === field)
    throw new Error(
      `The entry and the lesson field are both "${field}"; name what one entry is (--entry carrier) apart from what a lesson sets (--field maxWeight).`,
    );
  const port = raw.port ?? Math.max(...takenPorts.filter((p) => p < 4300), 4200) + 1;
  if (!Number.isInteger(port) || port < 1024 || port > 65535) throw new Error(`${raw.port} is not a port for an agent; give one between 1024 and 65535.`);
  if (takenPorts.includes(port)) throw new Error(`Port ${port} is taken by another service of the stack; give another with --port.`);
  return { name, collection, entry, field, lesson, answer, port };
}

const camelOf = (kebab: string) => kebab.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The line the registry gets, as the author would write it. */
export function registryLine(a: AgentAnswers, taken: ReadonlySet<string> = new Set()): { imports: string; line: string } {
  const s = spellings(a);
  const seeds = `${camel(a.name)}Seeds`;
  return {
    imports: `import { seedsFolder as ${seeds}, ${s.ruleKind} } from '${s.pkg}/kinds';`,
    line: `  registerAgent({ name: '${a.name}', kinds: [${s.ruleKind}], agent: async () => (await import('${s.pkg}')).${s.agentConst}, seeds: ${seeds}, port: ${a.port}, vocabulary: ${JSON.stringify(vocabularyOf(a, taken)).replace(/"/g, "'").replace(/,/g, ', ')} }),`,
  };
}

/**
 * The words that are this agent's own: its name, collection and entry, split into words, and its
 * lesson fields, less every word the vocabulary scan finds in shared code or the console
 * (`frameworkWords`: a word there would fail test/vocabulary-free.test.ts at once). When nothing is
 * left (`ledger`, `ledger-limits`, `limit` are all the framework's), the agent's own identifier.
 */
export function vocabularyOf(a: AgentAnswers, taken: ReadonlySet<string>): string[] {
  const fields = lessonShape(a.lesson, a.answer, a.field).fields.map((field) => field.toLowerCase());
  const words = new Set([...a.name.split('-'), ...a.collection.split('-'), ...a.entry.split('-'), ...fields]);
  const own = [...words].filter((word) => word.length > 2 && !taken.has(word));
  return own.length > 0 ? own : [spellings(a).agentConst.toLowerCase()];
}

/** Adds the agent's import and line to stack/src/agents.ts; refuses when the file no longer has the shape it expects. */
export function addToRegistry(source: string, a: AgentAnswers, taken: ReadonlySet<string> = new Set()): string {
  const { imports, line } = registryLine(a, taken);
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
  const registry = addToRegistry(readFileSync(registryPath, 'utf8'), a, frameworkWords(root));
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
