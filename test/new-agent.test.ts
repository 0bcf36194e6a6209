// The guide's promise, run on every CI run: from a copy of this repository, `pnpm new-agent` writes
// an agent for every lesson shape (a number, a word, a choice, two words and a choice) and both
// answer shapes (a field of the entry the message names, or the entry itself). In one copy and one
// install, all eight typecheck, their tests pass, docker-compose.yml and the vocabulary scans take
// them in (one is called `ledger`, a word the runtime uses), and, started by the stack's own entry
// points (one authority, `pnpm agent <name>` each), each passes the conformance kit with nothing
// skipped but "none of these" where its questions are yes or no. Then the shape no example agent
// has, two words and a choice, is taught through the console's blind form in a real browser,
// reread and retracted. The only existing files that change are the registry line's file and what
// the commands regenerate.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { confirmAfterPreview, launchBrowser, openQuestion, sdkClient, sendText, signedInPage, testAccounts } from './browser/console-harness.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const PNPM = ['-y', 'pnpm@10.34.9'];
const TOKEN = 'new-agent-test-token';

/** Every combination, by the name it is scaffolded under, and the flags beyond --lesson and --answer. */
const SHAPES = [
  { name: 'carrier', lesson: 'number', answer: 'field', flags: ['--entry', 'carrier', '--field', 'maxWeight'] },
  { name: 'tally', lesson: 'number', answer: 'entry', flags: [] },
  { name: 'wording', lesson: 'text', answer: 'field', flags: [] },
  { name: 'sorter', lesson: 'text', answer: 'entry', flags: [] },
  { name: 'grader', lesson: 'choice', answer: 'field', flags: [] },
  { name: 'router', lesson: 'choice', answer: 'entry', flags: [] },
  { name: 'screen', lesson: 'fields', answer: 'field', flags: [] },
  // The fifth agent: which account an invoice line posts to. "ledger" is the runtime's word too.
  { name: 'ledger', lesson: 'fields', answer: 'entry', flags: ['--entry', 'account', '--field', 'supplier'] },
] as const;

/** Runs a command in the copy; rejects with its output when it fails. */
function run(command: string, args: string[], cwd: string, timeout = 300_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 20 * 1024 * 1024, env: process.env }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`), { stdout, stderr, code: error.code }));
      else resolve(stdout + stderr);
    });
  });
}

/** Every file of the copy but installed ones, with a hash of its content. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      if (name === 'node_modules' || name === '.git' || name === 'data') continue;
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return files;
}

/** Starts one of the copy's stack entry points on port 0 and waits for the URL it prints. */
function startEntry(cwd: string, args: string[], env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  // LOG_LEVEL=info: the start-up line ("… listening on …") is an info line, and tests log at warn by default.
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start within 120 s:\n${output}`)), 120_000);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child });
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} stopped (${code}):\n${output}`));
    });
  });
}

/** One of the extension's JSON-RPC methods on an agent: its result, or a thrown error naming the method. */
async function rpc(agentUrl: string, method: string, params: unknown): Promise<any> {
  const response = await fetch(`${agentUrl}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

describe('pnpm new-agent, every lesson and answer shape, from a copy of the repository to agents that pass the conformance kit', () => {
  let dir: ScratchDir;
  let before: Map<string, string>;
  const outputs = new Map<string, string>();
  const children: ChildProcess[] = [];
  const urls = new Map<string, string>();
  let authorityUrl: string;

  beforeAll(async () => {
    dir = scratchDir('new-agent-');
    // The files a clone has (tracked, plus new ones not ignored): what a forker starts from.
    const listed = await run('git', ['ls-files', '-co', '--exclude-standard', '-z'], root);
    for (const file of listed.split('\0').filter((f) => f !== '')) {
      try {
        cpSync(join(root, file), join(dir.path, file), { recursive: false });
      } catch {
        // deleted in the work tree but not yet committed: a clone would not have it either
      }
    }
    // The store is warm (this suite's own install), so the copy installs without the network.
    await run('npx', [...PNPM, 'install', '--offline', '--frozen-lockfile'], dir.path);
    before = snapshot(dir.path);
    // Each in turn, before any install (the scaffolder reads the registry's ports from its text); the
    // last one installs and regenerates compose itself, as a forker's run does. Adding a package
    // resolves its dependencies again, which needs the registry's metadata: a fresh machine (whose
    // installs were all frozen) has none cached, so that install may ask the registry ('--offline'
    // failed there with ERR_PNPM_NO_OFFLINE_META), hence --prefer-offline.
    for (const [index, shape] of SHAPES.entries()) {
      const install = index === SHAPES.length - 1 ? [] : ['--no-install'];
      outputs.set(
        shape.name,
        await run(
          process.execPath,
          [
            '--import',
            'tsx',
            'stack/src/new-agent/new-agent-main.ts',
            shape.name,
            '--lesson',
            shape.lesson,
            '--answer',
            shape.answer,
            ...shape.flags,
            ...install,
          ],
          dir.path,
        ),
      );
    }
  }, 600_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : undefined)));
    dir?.remove();
  });

  it('prints its usage for --help, and a sentence with the usage, not a stack trace, for a flag it does not know', async () => {
    const main = ['--import', 'tsx', 'stack/src/new-agent/new-agent-main.ts'];
    expect(await run(process.execPath, [...main, '--help'], dir.path)).toMatch(
      /^Usage: pnpm new-agent <name> \[options\][\s\S]*--lesson <shape>[\s\S]*--answer <shape>/,
    );
    const refused = await run(process.execPath, [...main, 'x', '--lessons', 'text'], dir.path).then(
      () => undefined,
      (error: { stderr: string; code: number }) => error,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toMatch(/^Unknown option '--lessons'/);
    expect(refused?.stderr).toContain('Usage: pnpm new-agent');
    expect(refused?.stderr).not.toMatch(/\n\s+at /);
    const wrongShape = await run(process.execPath, [...main, 'x', '--lesson', 'date'], dir.path).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(wrongShape.trim()).toBe('--lesson date is not a lesson shape; give one of number, text, choice, fields.');
  });

  it("adds one package per agent and changes only the registry, the stack's dependency list and what commands regenerate, saying so in one line each", () => {
    const after = snapshot(dir.path);
    const added = [...after.keys()].filter((path) => !before.has(path));
    const changed = [...after.keys()].filter((path) => before.has(path) && before.get(path) !== after.get(path)).sort();
    expect(added.filter((path) => !SHAPES.some((shape) => path.startsWith(`agents/${shape.name}/`)))).toEqual([]);
    for (const shape of SHAPES)
      expect(added).toEqual(
        expect.arrayContaining([`agents/${shape.name}/package.json`, `agents/${shape.name}/README.md`, `agents/${shape.name}/src/${shape.name}-agent.ts`]),
      );
    expect(changed).toEqual(['docker-compose.yml', 'pnpm-lock.yaml', 'stack/package.json', 'stack/src/agents.ts']);
    expect(outputs.get('carrier')!.trim().split('\n')).toEqual([
      'Wrote agents/carrier/ (number lesson, answer: a field) and its line in stack/src/agents.ts.',
      'Next: pnpm install && pnpm compose, then pnpm start.',
    ]);
    // Quiet: pnpm's own output is kept, and shown only when it fails.
    expect(outputs.get('ledger')!.trim().split('\n')).toEqual([
      'Wrote agents/ledger/ (fields lesson, answer: the entry) and its line in stack/src/agents.ts.',
      'Installed; docker-compose.yml regenerated. Its tests: npx vitest run agents/ledger. Run it: pnpm agent ledger (with pnpm authority), or everything: pnpm start.',
    ]);
    const registry = readFileSync(join(dir.path, 'stack/src/agents.ts'), 'utf8');
    // Formatted as Biome writes a line that long: one property a line.
    const lineOf = (name: string) => new RegExp(`registerAgent\\(\\{\\s*name: '${name}',([^}]*)\\}\\)`).exec(registry)?.[1]?.replace(/\s+/g, ' ');
    expect(lineOf('carrier')).toContain(
      " kinds: [carrierRuleKind], agent: async () => (await import('@learnables/carrier-agent')).carrierAgent, seeds: carrierSeeds, port: 4205,",
    );
    expect(registry).toContain("import { seedsFolder as carrierSeeds, carrierRuleKind } from '@learnables/carrier-agent/kinds';");
    expect(lineOf('ledger')).toContain(
      " kinds: [ledgerRuleKind], agent: async () => (await import('@learnables/ledger-agent')).ledgerAgent, seeds: ledgerSeeds, port: 4212,",
    );
    // "ledger" is the runtime's own word, so it is not proposed: the vocabulary scan would fail on it.
    expect(/vocabulary: \[([^\]]*)\]/.exec(lineOf('ledger') ?? '')?.[1]).not.toMatch(/'ledger'/);
    expect(readFileSync(join(dir.path, 'docker-compose.yml'), 'utf8')).toContain('"stack/dist/agent-main.js", "ledger"');
  });

  it('writes READMEs that say what the declaration says', () => {
    for (const shape of SHAPES) {
      const readme = readFileSync(join(dir.path, 'agents', shape.name, 'README.md'), 'utf8');
      expect(readme).toContain('`addsEntries: true`');
      expect(readme).toContain(`\`admitsNone: ${shape.answer === 'entry'}\``);
      expect(readme).not.toMatch(/does not add/);
    }
  });

  it('typechecks, with the stack that registers them', async () => {
    writeFileSync(
      join(dir.path, 'tsconfig.new-agent.json'),
      JSON.stringify({ extends: './tsconfig.base.json', include: [...SHAPES.map((shape) => `agents/${shape.name}/src/**/*.ts`), 'stack/src/**/*.ts'] }),
    );
    await run(process.execPath, [join(dir.path, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.new-agent.json', '--noEmit'], dir.path);
  }, 300_000);

  it("pass the test command's lint as written: the scaffolder formats what it writes", async () => {
    await run(
      join(dir.path, 'node_modules/.bin/biome'),
      ['check', '--diagnostic-level=error', ...SHAPES.map((shape) => `agents/${shape.name}`), 'stack/src/agents.ts'],
      dir.path,
    );
  }, 60_000);

  it('passes their own tests, and the registry-wide ones: compose is current, their words stay out of shared code', async () => {
    const output = await run(
      process.execPath,
      [
        join(dir.path, 'node_modules/vitest/vitest.mjs'),
        'run',
        ...SHAPES.map((shape) => `agents/${shape.name}/`),
        'stack/src/compose.test.ts',
        'test/vocabulary-free.test.ts',
      ],
      dir.path,
    );
    // Without colours: the summary line is read as text.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the terminal colours vitest prints.
    expect(output.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(new RegExp(`Test Files\\s+${SHAPES.length * 2 + 2} passed \\(${SHAPES.length * 2 + 2}\\)`));
  }, 300_000);

  it('starts them in one stack, and each passes every check of the conformance kit from its own card examples', async () => {
    const authority = await startEntry(dir.path, ['stack/src/authority-main.ts'], {
      AUTHORITY_PORT: '0',
      AUTHORITY_STORE: `sqlite:${dir.path}/authority.db`,
      AUTHORITY_TOKENS: `desk=${TOKEN}`,
    });
    children.push(authority.child);
    authorityUrl = authority.url;
    const started = await Promise.all(
      SHAPES.map((shape) => {
        const prefix = `${shape.name.toUpperCase()}_AGENT`;
        return startEntry(dir.path, ['stack/src/agent-main.ts', shape.name], {
          AUTHORITY_URL: authority.url,
          AUTHORITY_TOKEN: TOKEN,
          AGENT_TOKENS: `desk=${TOKEN}`,
          [`${prefix}_PORT`]: '0',
          [`${prefix}_STORE`]: `sqlite:${dir.path}/${shape.name}.db`,
        });
      }),
    );
    started.forEach((agent, index) => {
      children.push(agent.child);
      urls.set(SHAPES[index]!.name, agent.url);
    });
    const kit = join(dir.path, 'shared/conformance/bin/learnables-check.mjs');
    // All at once: each run mostly waits on its agent, and each agent has a collection of its own.
    const reports = await Promise.all(
      SHAPES.map(async (shape) => {
        const report = JSON.parse(
          await run(
            process.execPath,
            [kit, urls.get(shape.name)!, '--token', TOKEN, '--authority', authority.url, '--authority-token', TOKEN, '--json', '--quiet'],
            dir.path,
          ),
        ) as {
          checks: { id: string; status: string; reason: string }[];
        };
        return [shape.name, report.checks.filter((check) => check.status !== 'PASS').map((check) => `${check.status} ${check.id}: ${check.reason}`)] as const;
      }),
    );
    const notPassed = new Map(reports.map(([name, lines]) => [name, lines.map((line) => line.slice(0, line.indexOf(':')))]));
    // Their cards are not signed here (no AGENT_CARD_SIGNING_KEY): the kit skips the signature check, saying so.
    expect(reports.find(([name]) => name === 'carrier')![1]).toEqual([
      'SKIP card.signature: The card carries no signature (signatures are optional), so there is none to verify.',
      'SKIP none.writes-nothing: The declaration does not say admitsNone: true, so its questions are not answered "none of these" (§2.8); nothing to check.',
    ]);
    // Yes-or-no questions say admitsNone: false, and that one check is skipped; an entry for an answer runs every check.
    expect(Object.fromEntries(notPassed)).toEqual(
      Object.fromEntries(
        SHAPES.map((shape) => [shape.name, shape.answer === 'field' ? ['SKIP card.signature', 'SKIP none.writes-nothing'] : ['SKIP card.signature']]),
      ),
    );
  }, 600_000);

  describe('two words and a choice, a shape no example agent has, through the console in a browser', () => {
    let browser: Browser;
    let consoleUrl: string;

    beforeAll(async () => {
      const accounts = await testAccounts(dir.path);
      const started = await startEntry(dir.path, ['stack/src/console-main.ts'], {
        CONSOLE_PORT: '0',
        CONSOLE_AGENTS: urls.get('screen')!,
        AUTHORITY_URL: authorityUrl,
        CONSOLE_AUTHORITY_TOKEN: TOKEN,
        CONSOLE_AGENT_TOKEN: TOKEN,
        CONSOLE_USERS_FILE: accounts.usersFile,
        CONSOLE_SESSION_SECRET: String(accounts.sessionSecret),
      });
      children.push(started.child);
      consoleUrl = started.url;
      browser = await launchBrowser();
    }, 180_000);

    afterAll(async () => browser?.close());

    it('teaches a lesson typed in the blind form, which a reread sees and a retraction takes back', async () => {
      const agent = urls.get('screen')!;
      // "second" was taught nothing, so both ask; the second one is the one the lesson must settle.
      const client = await sdkClient(agent, TOKEN);
      await sendText(client, 'second late parcel');
      const other = await sendText(client, 'second box only');
      expect((await rpc(agent, 'learnables/reread', { taskId: other.id })).flagged).toMatchObject({ settled: false });
      const page = await signedInPage(browser, consoleUrl, 'dana');
      await openQuestion(page, 'late parcel');
      const form = page.locator('form.answer-form');
      await form.getByRole('radio', { name: 'Flag it', exact: true }).check();
      await form.getByRole('checkbox', { name: /^Remember this/ }).check();
      // The card's own labels: two text boxes and a select, filled from the suggestion.
      expect(await form.getByLabel('Word', { exact: true }).inputValue()).toBe('late');
      expect(await form.getByLabel('Other word', { exact: true }).inputValue()).toBe('parcel');
      const match = form.getByLabel('Match', { exact: true });
      expect(await match.evaluate((element) => element.tagName.toLowerCase())).toBe('select');
      await match.selectOption('either');
      await form.getByLabel('Other word', { exact: true }).fill('box');
      await form.getByLabel('Why').fill('either word flags a message of second');
      await form.locator('button[type=submit]').click();
      await confirmAfterPreview(page);

      // A lesson of { word: late, other: box, match: either } flags "box only": reread reads it so, under a new version.
      await expect.poll(async () => (await rpc(agent, 'learnables/reread', { taskId: other.id })).flagged?.winner, { timeout: 15_000 }).toBe('flag');
      const { version } = (await rpc(agent, 'learnables/reread', { taskId: other.id })).flagged as { version: number };
      expect(version).toBeGreaterThan(1);

      const retracted = await rpc(agent, 'learnables/retract', { collection: 'screen-rules', version, author: 'dana', reason: 'taught by mistake' });
      expect(retracted).toMatchObject({ changed: true, retracted: version });
      expect(retracted.audit).toBe('second no longer has "late" or "box"');
      expect((await rpc(agent, 'learnables/reread', { taskId: other.id })).flagged).toMatchObject({ settled: false });
    }, 180_000);
  });
});
