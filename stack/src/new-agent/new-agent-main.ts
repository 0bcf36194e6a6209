// `pnpm new-agent <name> [--lesson number|text|choice|fields] [--answer field|entry] [...]`: writes a
// working agent package under agents/<name>/, registers it in stack/src/agents.ts, installs it into
// the workspace and regenerates docker-compose.yml. Asks for what flags leave out when run in a
// terminal with no flags. See docs/write-your-own-agent.md.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { repoRoot } from '../config.ts';
import { AUTHORITY_PORT, CONSOLE_PORT } from '../ports.ts';
import { ANSWER_SHAPES, LESSON_KINDS, defaultField } from './lesson-shapes.ts';
import type { AnswerShape, LessonKind } from './lesson-shapes.ts';
import type { RawAnswers } from './scaffold.ts';
import { checkAnswers, scaffoldAgent } from './scaffold.ts';

export const USAGE = `Usage: pnpm new-agent <name> [options]

Writes a working learnable agent under agents/<name>/, with its tests, seed and README, adds its
line to stack/src/agents.ts, installs it and regenerates docker-compose.yml.

  --lesson <shape>      what a lesson carries (default number):
                          number   one number            (a limit, a code)
                          text     one word
                          choice   one of a few choices
                          fields   two words and a choice
  --answer <shape>      what the operator's answer is (default field):
                          field    flag it or let it through; the lesson sets a field of the entry
                                   the message names (like agents/threshold)
                          entry    which entry the message is; the lesson teaches that entry what
                                   tells it apart (like agents/email)
  --field <name>        the (first) lesson field, camelCase (default by shape: limit, code, word, verdict, band)
  --entry <noun>        what one entry is, a singular noun (default the name)
  --collection <name>   the collection it learns (default <name>-limits or <name>-rules)
  --port <n>            its port (default the next free one after the registered agents)
  --no-install          write the files only; run pnpm install and pnpm compose yourself
  -h, --help            print this

With no options in a terminal, it asks. See docs/write-your-own-agent.md.`;

/** Flags as parseArgs reads them, or a sentence and the usage. */
function flags() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        lesson: { type: 'string' },
        answer: { type: 'string' },
        collection: { type: 'string' },
        entry: { type: 'string' },
        field: { type: 'string' },
        port: { type: 'string' },
        'no-install': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // parseArgs says what was wrong in one line (an unknown option, a missing value); the stack is noise.
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

async function ask(values: ReturnType<typeof flags>['values'], positionals: string[]): Promise<RawAnswers> {
  const given: RawAnswers = {
    name: positionals[0] ?? '',
    ...(values.collection !== undefined && { collection: values.collection }),
    ...(values.entry !== undefined && { entry: values.entry }),
    ...(values.field !== undefined && { field: values.field }),
    ...(values.lesson !== undefined && { lesson: values.lesson }),
    ...(values.answer !== undefined && { answer: values.answer }),
  };
  const anyFlag = Object.keys(given).length > 1 || values.port !== undefined || values['no-install'];
  if (!process.stdin.isTTY || anyFlag) return given;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const question = async (text: string, fallback: string) => (await rl.question(`${text} [${fallback}]: `)).trim() || fallback;
    const name = given.name || (await rl.question('Agent name (lower-case words joined by hyphens, e.g. carrier): ')).trim();
    const answer = await question(`Is the answer a field of the entry the message names, or the entry itself? (${ANSWER_SHAPES.join('/')})`, 'field');
    const lesson = await question(`What does a lesson carry? (${LESSON_KINDS.join('/')})`, 'number');
    const known = (LESSON_KINDS as readonly string[]).includes(lesson) && (ANSWER_SHAPES as readonly string[]).includes(answer);
    return {
      name,
      lesson,
      answer,
      entry: await question('What one entry is (a singular noun)', name),
      field: await question('The (first) lesson field', known ? defaultField(lesson as LessonKind, answer as AnswerShape) : 'limit'),
    };
  } finally {
    rl.close();
  }
}

/**
 * Runs pnpm quietly: the pnpm that runs this script when there is one (npm_execpath), so no npx
 * warnings; its output is kept, and shown only when it fails (then in full, to say why).
 */
function pnpm(args: string[]): void {
  const execPath = process.env.npm_execpath;
  const [command, prefix] = execPath && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ['npx', ['-y', '--loglevel=error', 'pnpm@10.34.9']];
  const run = spawnSync(command, [...prefix, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });
  if (run.status !== 0) throw new Error(`${run.stdout ?? ''}${run.stderr ?? ''}\npnpm ${args.join(' ')} failed; fix what it says and run it again.`);
}

/**
 * The new package and the registry it was added to, formatted as the rest of the repository (Biome,
 * biome.json), so the test command's lint passes on them as written. Skipped, silently, where Biome
 * is not installed (a copy without it).
 */
function formatWritten(...paths: string[]): void {
  const biome = join(repoRoot, 'node_modules/.bin/biome');
  if (!existsSync(biome)) return;
  const run = spawnSync(biome, ['format', '--write', ...paths], { cwd: repoRoot, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${run.stdout ?? ''}${run.stderr ?? ''}\nbiome format ${paths.join(' ')} failed.`);
}

/**
 * The ports of the registry's lines, read from its text: importing it would import every agent's kinds, and
 * one scaffolded with --no-install and not installed yet would not import.
 */
function registeredPorts(): number[] {
  const source = readFileSync(join(repoRoot, 'stack/src/agents.ts'), 'utf8');
  return [...source.matchAll(/\bport:\s*(\d+)/g)].map((match) => Number(match[1]));
}

const { values, positionals } = flags();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
try {
  const raw = await ask(values, positionals);
  if (raw.name === '') throw new Error(`Name the agent: pnpm new-agent <name>, e.g. pnpm new-agent carrier.\n\n${USAGE}`);
  const answers = checkAnswers({ ...raw, ...(values.port !== undefined && { port: Number(values.port) }) }, [
    AUTHORITY_PORT,
    CONSOLE_PORT,
    ...registeredPorts(),
  ]);
  scaffoldAgent(repoRoot, answers);
  formatWritten(`agents/${answers.name}`, 'stack/src/agents.ts');
  console.log(
    `Wrote agents/${answers.name}/ (${answers.lesson} lesson, answer: ${answers.answer === 'entry' ? 'the entry' : 'a field'}) and its line in stack/src/agents.ts.`,
  );
  if (values['no-install']) {
    console.log('Next: pnpm install && pnpm compose, then pnpm start.');
  } else {
    pnpm(['install', '--prefer-offline', '--no-frozen-lockfile']);
    pnpm(['compose']);
    console.log(
      `Installed; docker-compose.yml regenerated. Its tests: npx vitest run agents/${answers.name}. Run it: pnpm agent ${answers.name} (with pnpm authority), or everything: pnpm start.`,
    );
  }
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
