// Working the inbox from the keyboard and narrowing it: search, the shortcuts and their `?`
// overlay, and the type-to-find picker over a question's answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnableAgent } from '@learnables/runtime';
import type { Browser, Page } from 'playwright-core';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { launchBrowser, sendText, signedInPage, startConsoleStack } from './console-harness.ts';

const LISTS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

describe('the console, through a browser: keyboard and narrowing', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startConsoleStack({
        agents: [wordAgent as LearnableAgent<unknown, unknown>],
        seed: (authority) => authority.seed('lists', Object.fromEntries(LISTS.map((list) => [list, { words: [] }])), 'lists.json'),
      }),
      launchBrowser(),
    ]);
    const client = await stack.sdk(stack.agents[0]!);
    for (const text of ['a sack of walnuts', 'a box of pecans', 'a bag of almonds']) await sendText(client, text);
    page = await signedInPage(browser, stack.console.url, 'dana');
    await page.locator('li.question-row').nth(2).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('narrows the list by typed words and says how many are shown', async () => {
    await page.getByLabel('Find', { exact: true }).fill('pecans');
    await expect.poll(() => page.locator('li.question-row').count()).toBe(1);
    expect(await page.locator('.lead').textContent()).toBe('3 waiting for an answer; 1 shown, newest first.');
    await page.getByLabel('Find', { exact: true }).fill('');
    await page.getByLabel('Order').selectOption('oldest');
    expect(await page.locator('li.question-row .row-about').allTextContents()).toEqual(['a sack of walnuts', 'a box of pecans', 'a bag of almonds']);
    await page.getByLabel('Order').selectOption('newest');
  });

  it('lists the shortcuts on "?", and closes the list on Escape', async () => {
    await page.locator('h1').click();
    await page.keyboard.press('?');
    const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await overlay.waitFor();
    expect(await overlay.locator('dt').allTextContents()).toContain('1 – 9');
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'hidden' });
  });

  it('moves through the list with j and k, opens with Enter, picks by number and by typing, and sends with Ctrl+Enter', async () => {
    await page.locator('h1').click();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('a box of pecans');
    await page.keyboard.press('Enter');
    await page.locator('form.answer-form').waitFor();
    expect(await page.locator('h1').textContent()).toBe('Which list does this text belong to?');

    // A number picks that answer.
    await page.locator('h1').click();
    await page.keyboard.press('3');
    expect(await page.getByRole('radio', { name: 'List charlie', exact: true }).isChecked()).toBe(true);

    // Typing finds: "/" goes to the finder, words narrow the answers, Enter picks the first match.
    await page.locator('h1').click();
    await page.keyboard.press('/');
    await page.keyboard.type('gol');
    await expect.poll(() => page.locator('.choices .choice:visible').count()).toBe(1);
    expect(await page.locator('.entry-find [aria-live]').textContent()).toBe('1 of 8 match.');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('radio', { name: 'List golf', exact: true }).isChecked()).toBe(true);
    expect(await page.locator('form.answer-form').isVisible()).toBe(true);

    await page.keyboard.press('Control+Enter');
    await page.getByRole('heading', { name: 'Answered', level: 1 }).waitFor();
    expect(await page.locator('main .lead').first().textContent()).toContain('You answered “List golf”.');
  });

  it('undoes from the keyboard: the reason stays in view as the changes load, an empty reason is said on the page, Esc cancels', async () => {
    await stack.authority.client.postLesson({ collection: 'lists', entry: 'alpha', value: { word: 'kiwi' }, taughtBy: 'dana', reason: 'kiwis are alpha' });
    const before = (await stack.authority.client.history('lists')).activations.length;
    await page.goto(`${stack.console.url}/#/history/lists`);
    const undo = page.getByRole('button', { name: 'Undo the changes after this' });
    await undo.focus();
    await page.keyboard.press('Enter');
    const reason = page.getByLabel(/^Why undo the changes made after/);
    await page.locator('.rollback-effect ul').first().waitFor();
    expect(await reason.evaluate((element) => element === document.activeElement)).toBe(true);
    const inView = await reason.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    // Confirm with no reason: a sentence on the page, the box marked, nothing written.
    await page.getByRole('button', { name: 'Confirm: undo the changes after this' }).click();
    expect(await page.locator('.rollback-form .form-errors').textContent()).toBe(
      'Say why, in a few words: it is kept with your name, so the next person can tell.',
    );
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    expect((await stack.authority.client.history('lists')).activations).toHaveLength(before);
    // Esc closes the form and gives focus back to the button that opened it.
    await page.keyboard.press('Escape');
    expect(await page.locator('.rollback-form').isVisible()).toBe(false);
    expect(await undo.evaluate((element) => element === document.activeElement)).toBe(true);
  });
});
