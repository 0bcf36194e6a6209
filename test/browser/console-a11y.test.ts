// An automated accessibility pass (axe-core, run inside the page) over every page of the console:
// no moderate, serious or critical violation anywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnableAgent } from '@learnables/runtime';
import type { Browser, Page } from 'playwright-core';
import { violations } from './axe-check.ts';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { confirmAfterPreview, launchBrowser, openQuestion, sendText, signedInPage, startConsoleStack, VIEWPORT } from './console-harness.ts';

describe('the console passes an automated accessibility check on every page', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack({ agents: [wordAgent as LearnableAgent<unknown, unknown>] }), launchBrowser()]);
    const client = await stack.sdk(stack.agents[0]!);
    for (const text of ['date:2026-10-05 a crate of plums', 'date:2026-10-12 banana boxes', 'a sack of walnuts']) await sendText(client, text);
    page = await signedInPage(browser, stack.console.url, 'dana');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('finds no moderate, serious or critical violation', async () => {
    const found: Record<string, string[]> = {};
    const check = async (name: string) => {
      found[name] = await violations(page);
    };

    const signedOut = await browser.newPage({ viewport: VIEWPORT });
    await signedOut.goto(stack.console.url);
    await signedOut.getByLabel('Your name').waitFor();
    found['sign-in'] = await violations(signedOut);
    // A refusal is announced (role=alert) and marks the field to correct.
    await signedOut.getByLabel('Your name').fill('dana');
    await signedOut.getByLabel('Password').fill('not her password');
    await signedOut.getByRole('button', { name: 'Sign in' }).click();
    await signedOut.getByRole('alert').filter({ hasText: 'That name and password do not match an account.' }).waitFor();
    expect(await signedOut.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    found['sign-in refused'] = await violations(signedOut);
    await signedOut.close();

    await page.locator('li.question-row').first().waitFor();
    await check('questions');
    await page.locator('h1').click();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await check('shortcuts');
    await page.keyboard.press('Escape');

    await openQuestion(page, 'walnuts');
    await page.getByRole('checkbox', { name: /^Remember this/ }).check();
    await check('question, remember this open');
    await page.getByRole('radio', { name: 'List alpha', exact: true }).check();
    await page.getByLabel('Why').fill('walnuts are alpha');
    await page.getByRole('button', { name: 'Check what this lesson would do' }).click();
    await page.locator('.preview-box .notice').waitFor();
    await check('question, preview shown');
    await confirmAfterPreview(page);
    await page.getByRole('heading', { name: 'What the agent reads now', level: 1 }).waitFor();
    await check('show-back');

    await page.getByRole('link', { name: 'Task details' }).click();
    await page.getByRole('heading', { name: 'Task', level: 1 }).waitFor();
    await check('task');
    await page.getByRole('button', { name: 'This decision was wrong…' }).click();
    await page.getByLabel('What should it have been?').waitFor();
    await check('task, correction form open');

    await page.goto(`${stack.console.url}/#/entries/lists/alpha`);
    await page.locator('table.taught').waitFor();
    await page.getByRole('button', { name: 'Take back' }).first().click();
    await check('entry, take-back form open');

    await page.getByRole('link', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Send', level: 1 }).waitFor();
    await check('send');

    await page.getByRole('link', { name: 'History' }).click();
    await page.locator('table.history').waitFor();
    await page.getByRole('button', { name: 'Undo the changes after this' }).first().click();
    await page.locator('.rollback-effect ul').first().waitFor();
    await check('history, rollback form open');

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.locator('svg.chart').first().waitFor();
    await check('dashboard');

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, []])));

    // The check is real: an image without a text alternative is caught.
    await page.evaluate(() => document.querySelector('main')!.append(Object.assign(document.createElement('img'), { src: 'data:,' })));
    expect((await violations(page)).some((violation) => violation.startsWith('image-alt:'))).toBe(true);
  }, 90_000);
});
