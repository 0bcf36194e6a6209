// The dashboard's replay button: it runs the job the composition root handed the console, shows
// its progress, refuses a second run while one is going, and reports how it ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '@learnables/console';
import type { RunningConsole } from '@learnables/console';
import type { Browser } from 'playwright-core';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { launchBrowser, signInCookie, signedInPage, testAccounts } from './console-harness.ts';

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
        log: () => undefined,
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
    await page.getByRole('button', { name: 'Replay the test scenario' }).click();
    await expect.poll(() => page.locator('.replay-log').textContent()).toBe('Started by dana.\nweek 1: 10 messages, 5 questions');
    expect(await page.getByRole('button', { name: 'Replay the test scenario' }).isDisabled()).toBe(true);
    const confirmed = { method: 'POST', body: JSON.stringify({ confirm: 'replay' }) };
    const anonymous = await fetch(`${consoleApp.url}/api/replay`, { ...confirmed, headers: { 'content-type': 'application/json' } });
    expect(anonymous.status).toBe(401);
    const second = await fetch(`${consoleApp.url}/api/replay`, { ...confirmed, headers: { 'content-type': 'application/json', cookie: await signInCookie(consoleApp.url, 'sam') } });
    expect(second.status).toBe(409);
    release();
    await expect.poll(() => page.locator('.replay-summary').textContent()).toBe('Done: from 50 to 10 per 100.');
    expect(await page.locator('.replay-log').textContent()).toBe('Started by dana.\nweek 1: 10 messages, 5 questions\nweek 2: 10 messages, 1 question');
    expect(runs).toBe(1);
  });
});
