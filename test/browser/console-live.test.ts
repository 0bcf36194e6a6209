// The inbox is live: questions arrive and leave without a reload, in every open tab, and a form
// whose question was answered elsewhere says so instead of taking an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@a2a-js/sdk/client';
import type { LearnableAgent } from '@learnables/runtime';
import type { Browser, Page } from 'playwright-core';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { answerQuestion, launchBrowser, openQuestion, sendText, signedInPage, startConsoleStack } from './console-harness.ts';

const LIVE = { timeout: 10_000 };

describe('the console, through a browser: a live inbox', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let client: Client;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack({ agents: [wordAgent as LearnableAgent<unknown, unknown>] }), launchBrowser()]);
    client = await stack.sdk(stack.agents[0]!);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** A mark on the page's window: still there later means the page was never reloaded. */
  const mark = (page: Page) => page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  const stayed = (page: Page) => page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true);

  it('shows a new question without a reload and counts it in the tab title', async () => {
    const page = await signedInPage(browser, stack.console.url, 'dana');
    await page.getByRole('heading', { name: 'Questions', level: 1 }).waitFor();
    await expect.poll(() => page.locator('.lead').textContent(), LIVE).toBe('Nothing is waiting for an answer.');
    expect(await page.title()).toBe('Learnables console');
    await mark(page);

    await sendText(client, 'a jar of quince jam');
    await page.locator('li.question-row').filter({ hasText: 'quince jam' }).waitFor(LIVE);
    expect(await page.title()).toBe('(1) Learnables console');
    expect(await page.locator('.lead').textContent()).toBe('1 waiting for an answer, newest first.');
    expect(await page.locator('nav .badge.count').textContent()).toBe('1');

    await sendText(client, 'a tin of medlar paste');
    await page.locator('li.question-row').filter({ hasText: 'medlar paste' }).waitFor(LIVE);
    await expect.poll(() => page.title(), LIVE).toBe('(2) Learnables console');
    // Newest first, and the page was never reloaded.
    expect(await page.locator('li.question-row .row-about').allTextContents()).toEqual(['a tin of medlar paste', 'a jar of quince jam']);
    expect(await stayed(page)).toBe(true);
    await page.context().close();
  });

  it('answered in one tab, the question leaves every other tab, and an open form says it was answered elsewhere', async () => {
    await sendText(client, 'a crate of sloes');
    const [dana, danaInbox, lee] = await Promise.all([
      signedInPage(browser, stack.console.url, 'dana'),
      signedInPage(browser, stack.console.url, 'dana'),
      signedInPage(browser, stack.console.url, 'lee'),
    ]);
    await openQuestion(dana, 'crate of sloes');
    await dana.getByRole('radio', { name: 'List beta', exact: true }).check();
    await danaInbox.locator('li.question-row').filter({ hasText: 'crate of sloes' }).waitFor(LIVE);
    const waitingBefore = await danaInbox.locator('li.question-row').count();
    await mark(danaInbox);

    await openQuestion(lee, 'crate of sloes');
    await answerQuestion(lee, { entry: 'List alpha' });
    await lee.getByRole('heading', { name: 'Answered', level: 1 }).waitFor();

    // The open form in the other tab closes with a sentence, keeps what was picked visible, and takes no answer.
    const notice = dana.locator('.answered-elsewhere');
    await notice.waitFor(LIVE);
    expect(await notice.textContent()).toContain('Answered elsewhere by lee.');
    expect(await dana.getByRole('button', { name: /^Answer/ }).isDisabled()).toBe(true);
    expect(await dana.getByRole('radio', { name: 'List beta', exact: true }).isChecked()).toBe(true);

    // The inbox tab loses the row and the count without a reload.
    await danaInbox
      .locator('li.question-row')
      .filter({ hasText: 'crate of sloes' })
      .waitFor({ state: 'detached', ...LIVE });
    expect(await danaInbox.locator('li.question-row').count()).toBe(waitingBefore - 1);
    await expect.poll(() => danaInbox.title(), LIVE).toBe(`(${waitingBefore - 1}) Learnables console`);
    expect(await stayed(danaInbox)).toBe(true);
    await Promise.all([dana.context().close(), danaInbox.context().close(), lee.context().close()]);
  }, 60_000);

  it('moves the dashboard without a reload: messages decided without a question are counted as they come', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await sendText(client, `date:${today} banana crates`);
    const page = await signedInPage(browser, stack.console.url, 'dana');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.locator('section.stats details').first().waitFor();
    await page.locator('section.stats details summary').first().click();
    const messagesOf = async () =>
      Number(
        (
          await page
            .locator('section.stats details tbody tr')
            .last()
            .locator('td')
            .nth(1)
            .textContent()
            .catch(() => '0')
        )?.match(/\d+/)?.[0] ?? 0,
      );
    const before = await messagesOf();
    await mark(page);
    // Banana is on list beta from the seed: decided at once, no question, nothing in the inbox moves.
    for (let i = 0; i < 3; i++) await sendText(client, `date:${today} banana crates ${i}`);
    await expect.poll(messagesOf, LIVE).toBe(before + 3);
    expect(await stayed(page)).toBe(true);
    // The numbers the clerk opened stay open through the redraw.
    expect(await page.locator('section.stats details').first().getAttribute('open')).not.toBeNull();
    await page.context().close();
  }, 60_000);
});
