// Corrections are counted: a clerk who finds a decision wrong says so on its task page (what it
// should have been, and why), the task keeps what it decided, and the dashboard — in another tab,
// without a reload — shows the decision corrected later beside questions per 100, from the agent's
// own numbers. Real authority, real agent, real console, Chromium; nothing served in their place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@a2a-js/sdk/client';
import type { LearnableAgent } from '@learnables/runtime';
import type { Browser, Page } from 'playwright-core';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { launchBrowser, screenshot, sendText, signedInPage, startConsoleStack } from './console-harness.ts';

const LIVE = { timeout: 10_000 };

describe('the console, through a browser: a decision corrected later is counted', () => {
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

  const agentId = async (page: Page) => {
    const { agents } = (await (await page.request.get(`${stack.console.url}/api/agents`)).json()) as { agents: { id: string }[] };
    return agents[0]!.id;
  };

  it('records the correction from the task page, keeps the decision, and the open dashboard counts it', async () => {
    // Banana is list beta's word from the seed: decided without a question, and (the story) wrongly.
    const decided = await sendText(client, 'date:2026-08-03 banana cake for the alpha bakery');
    for (let i = 0; i < 3; i++) await sendText(client, `date:2026-08-04 banana crates ${i}`);

    const dashboard = await signedInPage(browser, stack.console.url, 'lee');
    await dashboard.getByRole('link', { name: 'Dashboard' }).click();
    const panel = dashboard.getByRole('region', { name: 'Word list agent' });
    await panel.locator('.corrections-line').waitFor();
    expect(await panel.locator('.corrections-line').textContent()).toMatch(/^No decision corrected later\./);
    await dashboard.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    const page = await signedInPage(browser, stack.console.url, 'dana');
    await page.goto(`${stack.console.url}/#/tasks/${encodeURIComponent(await agentId(page))}/${encodeURIComponent(decided.id)}`);
    const section = page.getByRole('region', { name: 'Corrections' });
    await section.getByText('Nobody has said this decision was wrong.').waitFor();

    // Keyboard only: the button opens the form with the cursor in it; Escape-free, Cancel gives focus back.
    await section.getByRole('button', { name: 'This decision was wrong…' }).focus();
    await page.keyboard.press('Enter');
    const should = section.getByLabel('What should it have been?');
    await expect.poll(() => should.evaluate((element) => element === document.activeElement)).toBe(true);
    // What it decided is not offered as what it should have been.
    expect(await should.locator('option').allTextContents()).toEqual(['Choose…', 'List alpha']);

    // Refused in words, nothing recorded, until it says why.
    await should.selectOption({ label: 'List alpha' });
    await section.getByRole('button', { name: 'Record the correction' }).click();
    expect(await section.getByRole('alert').textContent()).toBe('Say why it was wrong, so the next person can tell.');

    await section.getByLabel('Why was it wrong?').fill('The cake was for the alpha bakery; the banana misled it.');
    await section.getByRole('button', { name: 'Record the correction' }).click();
    const recorded = page.getByRole('region', { name: 'Corrections' });
    await recorded.getByRole('status').filter({ hasText: 'Recorded: it should have been List alpha.' }).waitFor();
    expect(await recorded.locator('.corrections-list li').allTextContents()).toEqual([
      expect.stringMatching(/^dana said it should have been List alpha \(.+\)\. “The cake was for the alpha bakery; the banana misled it\.”$/),
    ]);

    // The task still says what its pinned version decided: the correction sits beside it.
    expect(await page.locator('.task-details .said').textContent()).toBe('Belongs to List beta');
    expect(await page.locator('.task-details').textContent()).toContain('decided without asking');
    await recorded.scrollIntoViewIfNeeded();
    await screenshot(page, 'task-correction');

    // The other tab's dashboard moves by itself: the agent's own count, in the week of the message.
    await expect.poll(() => panel.locator('.corrections-line').textContent(), LIVE).toMatch(/^1 decision corrected later \(made without asking\)\./);
    await panel.locator('details summary').click();
    const row = panel.locator('tbody tr').filter({ hasText: 'Aug 3' });
    expect(await row.locator('td').allTextContents()).toEqual(['Aug 3', '4 (few)', '0', '0', '1 (1 without asking)']);
    expect(await dashboard.evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true)).toBe(true);

    // Read again, the page shows the same record (kept by the agent, not by this browser).
    await page.reload();
    await page.getByRole('region', { name: 'Corrections' }).locator('.corrections-list li').first().waitFor();
    expect(await page.getByRole('region', { name: 'Corrections' }).locator('.corrections-list li').count()).toBe(1);
    await Promise.all([page.context().close(), dashboard.context().close()]);
  }, 90_000);

  it('counts a lesson taken back beside them, from the authority’s history, linking to it', async () => {
    const authority = stack.authority.client;
    const taught = await authority.postLesson({
      collection: 'lists',
      entry: 'alpha',
      value: { word: 'quince' },
      taughtBy: 'dana',
      reason: 'quince is alpha’s',
    });
    const page = await signedInPage(browser, stack.console.url, 'dana');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const line = page.getByRole('region', { name: 'Word list agent' }).locator('.corrections-line');
    await line.waitFor();
    expect(await line.textContent()).not.toContain('taken back');
    await authority.retract({ collection: 'lists', version: taught.version, author: 'dana', reason: 'quince is not alpha’s after all' });
    // The open dashboard hears of it at its next look.
    await expect.poll(() => line.textContent(), LIVE).toContain('1 decision corrected later (made without asking). 1 lesson taken back.');
    expect(await line.getByRole('link', { name: '1 lesson taken back' }).getAttribute('href')).toBe('#/history/lists');
    await page.context().close();
  }, 60_000);

  it('a task still waiting for an answer offers no correction, and the console refuses one in the agent’s words', async () => {
    const asking = await sendText(client, 'date:2026-08-05 a tin of quince');
    const page = await signedInPage(browser, stack.console.url, 'dana');
    const id = await agentId(page);
    await page.goto(`${stack.console.url}/#/tasks/${encodeURIComponent(id)}/${encodeURIComponent(asking.id)}`);
    await page.getByRole('heading', { name: 'Task', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Answer it' }).waitFor();
    expect(await page.getByRole('region', { name: 'Corrections' }).count()).toBe(0);
    const refused = await page.request.post(`${stack.console.url}/api/agents/${encodeURIComponent(id)}/tasks/${encodeURIComponent(asking.id)}/corrections`, {
      data: { finding: 'list', entry: 'alpha', reason: 'r' },
      headers: { origin: stack.console.url },
    });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: 'not-correctable',
      message: 'This task is still waiting for an answer; answer its question instead. Only a decided task can be corrected.',
    });
    await page.context().close();
  }, 60_000);
});
