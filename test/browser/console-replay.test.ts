// The dashboard's replay button: it runs the job the composition root handed the console, shows
// its progress, refuses a second run while one is going, and reports how it ended; on a stack that
// already holds messages it runs only once the clerk ticks a box (the API: a second confirmation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '@learnables/console';
import type { RunningConsole } from '@learnables/console';
import type { Browser } from 'playwright-core';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import type { LearnableAgent } from '@learnables/runtime';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { launchBrowser, sendText, signInCookie, signedInPage, startConsoleStack, testAccounts } from './console-harness.ts';
import { silentLogger } from '@learnables/authority';

describe('the replay button on the dashboard', () => {
  let consoleApp: RunningConsole;
  let browser: Browser;
  let release: () => void = () => undefined;
  let runs = 0;
  let dir: ScratchDir;

  beforeAll(async () => {
    dir = scratchDir('console-replay-');
    [consoleApp, browser] = await Promise.all([
      createConsole({
        accounts: await testAccounts(dir.path),
        agents: [],
        authority: { url: 'http://127.0.0.1:9', token: 'unused' },
        logger: silentLogger(),
        replay: {
          label: 'Replay the test scenario',
          description: 'Runs a job that reports two lines.',
          async run(report) {
            runs += 1;
            report('week 1: 10 messages, 5 questions');
            await new Promise<void>((resolve) => (release = resolve));
            report('week 2: 10 messages, 1 question');
            return 'Done: from 50 to 10 per 100.';
          },
        },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await consoleApp?.close();
    dir?.remove();
  });

  it('runs the job once for a signed-in operator, shows its progress and its outcome', async () => {
    const page = await signedInPage(browser, consoleApp.url, 'dana');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    // The demo sits folded under the numbers, away from the clerk's path.
    await page.locator('details.replay summary').click();
    await page.getByRole('button', { name: 'Replay the test scenario' }).click();
    await expect.poll(() => page.locator('.replay-log').textContent()).toBe('Started by dana.\nweek 1: 10 messages, 5 questions');
    expect(await page.getByRole('button', { name: 'Replay the test scenario' }).isDisabled()).toBe(true);
    const confirmed = { method: 'POST', body: JSON.stringify({ confirm: 'replay' }) };
    const anonymous = await fetch(`${consoleApp.url}/api/replay`, { ...confirmed, headers: { 'content-type': 'application/json' } });
    expect(anonymous.status).toBe(401);
    const second = await fetch(`${consoleApp.url}/api/replay`, {
      ...confirmed,
      headers: { 'content-type': 'application/json', cookie: await signInCookie(consoleApp.url, 'sam') },
    });
    expect(second.status).toBe(409);
    release();
    await expect.poll(() => page.locator('.replay-summary').textContent()).toBe('Done: from 50 to 10 per 100.');
    expect(await page.locator('.replay-log').textContent()).toBe('Started by dana.\nweek 1: 10 messages, 5 questions\nweek 2: 10 messages, 1 question');
    expect(runs).toBe(1);
  });
});

describe('the replay button on a stack that already holds messages', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let runs = 0;
  const LONG = 'Warning: the customers collection is not at its seed version, so the numbers will not match the book; '.repeat(3);

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startConsoleStack({
        agents: [wordAgent as LearnableAgent<unknown, unknown>],
        replay: {
          label: 'Replay the test scenario',
          description: 'Runs a job that reports one long line.',
          async run(report) {
            runs += 1;
            report(LONG);
            report('week_1_of_the_scenario_with_a_line_that_has_no_spaces_at_all_and_would_run_off_a_narrow_card_if_it_were_not_wrapped');
            return 'Done.';
          },
        },
      }),
      launchBrowser(),
    ]);
    await sendText(await stack.sdk(stack.agents[0]!), 'a jar of quince jam');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('refuses to start through the API without the second confirmation, saying why in a sentence', async () => {
    const cookie = await signInCookie(stack.console.url, 'sam');
    const refused = await fetch(`${stack.console.url}/api/replay`, {
      method: 'POST',
      body: JSON.stringify({ confirm: 'replay' }),
      headers: { 'content-type': 'application/json', cookie },
    });
    expect(refused.status).toBe(409);
    const { message } = (await refused.json()) as { message: string };
    expect(message).toMatch(
      /^This stack already holds 1 message: replaying on top of them .* Run it on a fresh stack, or confirm with \{ "confirm": "replay", "despiteMessages": true \} to replay anyway\.$/,
    );
    expect(runs).toBe(0);
  });

  it('asks the clerk to tick a box before it runs, and its progress fits its card at 390 px', async () => {
    const page = await signedInPage(browser, stack.console.url, 'dana');
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('link', { name: 'Dashboard' }).click();
    // The demo sits folded under the numbers, away from the clerk's path.
    await page.locator('details.replay summary').click();
    const button = page.getByRole('button', { name: 'Replay the test scenario' });
    await button.waitFor();
    expect(await page.locator('.replay .notice').textContent()).toContain('This stack already holds 1 message');
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel('Replay anyway, on top of the messages already here').check();
    expect(await button.isDisabled()).toBe(false);
    await button.click();
    await expect.poll(() => page.locator('.replay-summary').textContent()).toBe('Done.');
    expect(runs).toBe(1);
    expect(await page.locator('.replay-log').textContent()).toContain('Started by dana, on a stack that already held messages.');
    const fits = await page.locator('.replay').evaluate((card) => {
      const box = card.getBoundingClientRect();
      const log = card.querySelector('.replay-log')!;
      return {
        logInside: log.scrollWidth <= log.clientWidth,
        right: box.right,
        inner: Array.from(card.querySelectorAll('*')).every((el) => el.getBoundingClientRect().right <= box.right + 0.5),
      };
    });
    expect(fits).toEqual({ logInside: true, right: expect.any(Number), inner: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });
});
