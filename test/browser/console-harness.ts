// Reusable pieces for browser tests of the console: a real authority over HTTP, real learnable
// agents on the runtime, the console itself, and Debian's Chromium driven by playwright-core.
// Nothing here knows any agent's vocabulary: agents, kinds and seeds are handed in.
import { silentLogger } from '@learnables/authority';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendMessageRequest } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Authority, AuthorityClient, authorityService, openStore } from '@learnables/authority';
import { createConsole, hashPassword, userLine } from '@learnables/console';
import type { AccountOptions, ReplayAction, RunningConsole, ScryptCost } from '@learnables/console';
import type { LearnableKind } from '@learnables/learnable';
import { LEARNABLES_URI } from '@learnables/protocol';
import { startLearnableAgent } from '@learnables/runtime';
import type { LearnableAgent, RunningAgent } from '@learnables/runtime';
import { CHROMIUM_ARGS, chromiumPath, scratchDir, wordListKind } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

export const VIEWPORT = { width: 1280, height: 800 };
/** Where the README's screenshots are written. */
export const SCREENSHOTS_DIR = new URL('../../docs/screenshots/', import.meta.url);

/** The tokens of the stack: the console's bearer at the agents, and its writer's token at the authority. */
export const AGENT_TOKEN = 'console-agent-token';
export const AUTHORITY_TOKEN = 'console-authority-token';

/** The accounts of every test console, each with its own password (`passwordOf`). */
export const TEST_OPERATORS = ['dana', 'lee', 'sam', 'Dana Smith'] as const;
export const passwordOf = (name: string): string => `${name} signs in for tests`;
/** The cheapest cost a users file may hold: tests sign in often, and what they prove does not depend on the cost. */
const TEST_COST: ScryptCost = { ln: 14, r: 8, p: 1 };
let usersText: Promise<string> | undefined;

/**
 * A users file with the test operators in `dir`, and a session secret: what `createConsole` needs
 * so that tests sign in with real accounts. The hashes are made once per test file.
 */
export async function testAccounts(dir: string): Promise<AccountOptions> {
  usersText ??= Promise.all(TEST_OPERATORS.map(async (name) => userLine(name, await hashPassword(passwordOf(name), TEST_COST)))).then(
    (lines) => `${lines.join('\n')}\n`,
  );
  const usersFile = `${dir}/console-users`;
  writeFileSync(usersFile, await usersText, { mode: 0o600 });
  return { usersFile, sessionSecret: `secret of the test console in ${dir}` };
}

/** Sign in over HTTP; the Cookie header that carries the session. */
export async function signInCookie(consoleUrl: string, operator: string, password = passwordOf(operator)): Promise<string> {
  const response = await fetch(`${consoleUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: operator, password }),
  });
  const cookie = response.headers.get('set-cookie');
  if (!response.ok || !cookie) throw new Error(`signing in as ${operator} failed: ${response.status} ${await response.text()}`);
  return cookie.split(';')[0]!;
}

export async function launchBrowser(): Promise<Browser> {
  // The browser the global setup found (CHROMIUM_PATH, Debian's, or the one in an npm package).
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

export interface StackOptions {
  /** The agents to start, in order; each is handed to the console. */
  readonly agents: readonly LearnableAgent<unknown, unknown>[];
  /** The learnable kinds the authority serves. Default: the word lists of @learnables/testing. */
  readonly kinds?: readonly LearnableKind[];
  /** Seed the collections. Default: lists alpha (no words) and beta (banana). */
  readonly seed?: (authority: Authority) => Promise<unknown>;
  /** A job for the dashboard's replay button. */
  readonly replay?: ReplayAction;
}

export interface ConsoleStack {
  readonly dir: ScratchDir;
  readonly authority: { readonly url: string; readonly client: AuthorityClient };
  readonly agents: readonly RunningAgent[];
  readonly console: RunningConsole;
  /** An SDK client with the console's token, so the tasks it creates are the ones the console sees. */
  sdk(agent: RunningAgent): Promise<Client>;
  close(): Promise<void>;
}

const quiet = silentLogger();

async function startAuthority(dir: ScratchDir, kinds: readonly LearnableKind[], seed: (authority: Authority) => Promise<unknown>) {
  const authority = new Authority({ store: await openStore(`${dir.path}/authority.db`), kinds });
  await seed(authority);
  const server: Server = authorityService({ authority, tokens: { [AUTHORITY_TOKEN]: 'console', 'agent-token': 'agent' }, logger: quiet }).listen(
    0,
    '127.0.0.1',
  );
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    client: new AuthorityClient({ url, token: AUTHORITY_TOKEN }),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await authority.close();
    },
  };
}

/** Authority, agents and console, each on its own loopback port, with SQLite in a scratch folder. */
export async function startConsoleStack(options: StackOptions): Promise<ConsoleStack> {
  const dir = scratchDir('console-browser-');
  const authority = await startAuthority(
    dir,
    options.kinds ?? [wordListKind()],
    options.seed ?? ((a) => a.seed('lists', { alpha: { words: [] }, beta: { words: ['banana'] } }, 'lists.json')),
  );
  const agents = await Promise.all(
    options.agents.map((agent, index) =>
      startLearnableAgent(agent, {
        store: `sqlite:${dir.path}/agent-${index}.db`,
        authority: { url: authority.url, token: 'agent-token' },
        users: { [AGENT_TOKEN]: 'console' },
        logger: quiet,
      }),
    ),
  );
  const running = await createConsole({
    accounts: await testAccounts(dir.path),
    agents: agents.map((agent) => ({ url: agent.url })),
    authority: { url: authority.url, token: AUTHORITY_TOKEN },
    agentToken: AGENT_TOKEN,
    // Open tabs hear of new and answered questions within a quarter of a second.
    livePollMs: 250,
    logger: quiet,
    ...(options.replay && { replay: options.replay }),
  });
  return {
    dir,
    authority,
    agents,
    console: running,
    sdk: (agent) => sdkClient(agent.url, AGENT_TOKEN),
    async close() {
      await running.close();
      await Promise.all(agents.map((agent) => agent.close()));
      await authority.close();
      dir.remove();
    },
  };
}

export async function sdkClient(agentUrl: string, token: string): Promise<Client> {
  const authorized: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    headers.set('A2A-Extensions', LEARNABLES_URI);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: authorized })] }),
  ).createFromUrl(agentUrl);
}

/** Send text as a new task and return the task the agent answers with. */
export async function sendText(client: Client, text: string): Promise<Task> {
  const result = await client.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } }));
  if (!('status' in result)) throw new Error('the agent answered with a message, not a task');
  return result as Task;
}

/** A page at the console's size, signed in through the sign-in form with a test operator's account. */
export async function signedInPage(browser: Browser, consoleUrl: string, operator: string): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(consoleUrl);
  await page.getByLabel('Your name').fill(operator);
  await page.getByLabel('Password').fill(passwordOf(operator));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return page;
}

/** The inbox row of the question whose line (agent, what it is about, question) contains `about`; it arrives by itself. */
export async function questionCard(page: Page, about: string, timeoutMs = 10_000): Promise<Locator> {
  const row = page.locator('li.question-row').filter({ hasText: about });
  await page.getByRole('link', { name: /^Questions/ }).click();
  await page.getByRole('heading', { name: 'Questions', level: 1 }).waitFor();
  await row.first().waitFor({ timeout: timeoutMs });
  return row.first();
}

export async function openQuestion(page: Page, about: string): Promise<void> {
  const row = await questionCard(page, about);
  await row.locator('a.row-link').click();
  await page.locator('form.answer-form').waitFor();
}

export interface AnswerOptions {
  /** The label of the entry to answer with. */
  readonly entry: string;
  /** Tick "remember this", set these fields (by label; the rest keep their prefill) and give a reason. */
  readonly remember?: { readonly reason: string; readonly fields?: Readonly<Record<string, string>> };
}

/**
 * On an open question: choose the entry, optionally remember, and submit. A lesson is first tried
 * on recent messages (the preview); when the agent accepts it, the clerk confirms with a second press.
 */
export async function answerQuestion(page: Page, options: AnswerOptions): Promise<void> {
  const form = page.locator('form.answer-form');
  await form.getByRole('radio', { name: options.entry, exact: true }).check();
  if (options.remember) {
    await form.getByRole('checkbox', { name: /^Remember this/ }).check();
    // A lesson the agent phrases in words starts folded; fields to change are behind "Change it…".
    const change = form.getByRole('button', { name: 'Change it…' });
    if (options.remember.fields !== undefined && (await change.isVisible())) await change.click();
    for (const [label, value] of Object.entries(options.remember.fields ?? {})) await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByLabel('Why').fill(options.remember.reason);
  }
  const submit = form.locator('button[type=submit]');
  await submit.click();
  if (!options.remember) return;
  await confirmAfterPreview(page);
}

/** After "Check what this lesson would do": wait for the preview (or a refusal, or the answer itself) and confirm when offered. */
export async function confirmAfterPreview(page: Page): Promise<void> {
  const form = page.locator('form.answer-form');
  const settled = page.locator(
    'form.answer-form .preview-box .notice, form.answer-form .field-error:not([hidden]), form.answer-form .form-errors .notice, .show-back, h1:text-is("Answered")',
  );
  await settled.first().waitFor({ timeout: 15_000 });
  const confirm = form.getByRole('button', { name: /^Confirm|^Add the/ });
  if ((await confirm.count()) > 0 && (await confirm.isEnabled())) await confirm.click();
}

/**
 * Save a screenshot for the README, when CONSOLE_SCREENSHOTS=1: a test run does not rewrite
 * tracked pictures unless asked to.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS_DIR).pathname });
}
