// `pnpm new-agent <name> [--collection c] [--entry noun] [--field name] [--port n] [--no-install]`:
// writes a working agent package under agents/<name>/, registers it in stack/src/agents.ts, installs
// it into the workspace and regenerates docker-compose.yml. Asks for what flags leave out when run
// in a terminal. See docs/write-your-own-agent.md.
import { spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { repoRoot } from '../config.ts';
import { AUTHORITY_PORT, CONSOLE_PORT, agents } from '../registry.ts';
import { checkAnswers, scaffoldAgent } from './scaffold.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    collection: { type: 'string' },
    entry: { type: 'string' },
    field: { type: 'string' },
    port: { type: 'string' },
    'no-install': { type: 'boolean', default: false },
  },
});

async function ask(): Promise<{ name: string; collection?: string; entry?: string; field?: string }> {
  const given = { name: positionals[0] ?? '', collection: values.collection, entry: values.entry, field: values.field };
  if (!process.stdin.isTTY) return given;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const name = given.name || (await rl.question('Agent name (lower-case words joined by hyphens, e.g. carrier): ')).trim();
    const question = async (text: string, given: string | undefined, fallback: string) => given ?? ((await rl.question(`${text} [${fallback}]: `)).trim() || fallback);
    return {
      name,
      collection: await question('The collection it learns', given.collection, `${name}-limits`),
      entry: await question('What one entry is (a singular noun)', given.entry, name),
      field: await question('The lesson field, a number', given.field, 'limit'),
    };
  } finally {
    rl.close();
  }
}

const pnpm = (args: string[]) => {
  const run = spawnSync('npx', ['-y', 'pnpm@10.34.9', ...args], { cwd: repoRoot, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`pnpm ${args.join(' ')} failed; fix what it says and run it again.`);
};

try {
  const raw = await ask();
  if (raw.name === '') throw new Error('Name the agent: pnpm new-agent <name>, e.g. pnpm new-agent carrier.');
  const answers = checkAnswers(
    { ...raw, ...(values.port !== undefined && { port: Number(values.port) }) },
    [AUTHORITY_PORT, CONSOLE_PORT, ...agents.map((entry) => entry.port)],
  );
  for (const path of scaffoldAgent(repoRoot, answers)) console.log(`  wrote ${path}`);
  if (values['no-install']) {
    console.log('\nNext: pnpm install && pnpm compose, then pnpm start.');
  } else {
    pnpm(['install', '--no-frozen-lockfile']);
    pnpm(['compose']);
    console.log(`\nDone. Run it: pnpm agent ${answers.name} (with pnpm authority), or everything: pnpm start.`);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
