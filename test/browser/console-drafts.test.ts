// Nothing typed is lost: a half-done answer is kept per task in the browser through a reload and
// Back/Forward, leaving with one on screen asks first, and answering drops it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnableAgent } from '@learnables/runtime';
import type { Browser, Page } from 'playwright-core';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { confirmAfterPreview, launchBrowser, openQuestion, sendText, signedInPage, startConsoleStack } from './console-harness.ts';

describe('the console, through a browser: drafts', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack({ agents: [wordAgent as LearnableAgent<unknown, unknown>] }), launchBrowser()]);
    await sendText(await stack.sdk(stack.agents[0]!), 'a punnet of gooseberries');
    page = await signedInPage(browser, stack.console.url, 'dana');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const form = () => page.locator('form.answer-form');
  async function expectTheDraft(): Promise<void> {
    await form().waitFor();
    expect(await form().getByRole('radio', { name: 'List beta', exact: true }).isChecked()).toBe(true);
    expect(
      await form()
        .getByRole('checkbox', { name: /^Remember this/ })
        .isChecked(),
    ).toBe(true);
    expect(await form().getByLabel('Word', { exact: true }).inputValue()).toBe('gooseberry');
    expect(await form().getByLabel('Why').inputValue()).toBe('half-way through saying why');
  }

  it('keeps a half-done answer through a reload (asking first) and Back/Forward, and drops it once answered', async () => {
    await openQuestion(page, 'gooseberries');
    await form().getByRole('radio', { name: 'List beta', exact: true }).check();
    await form()
      .getByRole('checkbox', { name: /^Remember this/ })
      .check();
    await form().getByLabel('Word', { exact: true }).fill('gooseberry');
    await form().getByLabel('Why').fill('half-way through saying why');
    expect(await page.locator('.draft-status').textContent()).toBe('Draft kept in this browser.');

    // Leaving asks first; going ahead, the draft is back after the reload.
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toEqual(['beforeunload']);
    await expectTheDraft();
    expect(await page.locator('.draft-status').textContent()).toBe('Your draft was kept from last time.');

    // Back to the list, which marks the question as drafted; Forward finds the draft again.
    await page.goBack();
    const row = page.locator('li.question-row').filter({ hasText: 'gooseberries' });
    await row.waitFor();
    expect(await row.locator('.badge.draft').textContent()).toBe('draft');
    await page.goForward();
    await expectTheDraft();

    await form().getByRole('button', { name: 'Check what this lesson would do' }).click();
    await confirmAfterPreview(page);
    await page.getByRole('heading', { name: 'What the agent reads now', level: 1 }).waitFor();
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('learnables-draft:')).length)).toBe(0);
  }, 60_000);
});
