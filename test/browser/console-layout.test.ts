// Every page fits a phone's width (390 px) without the page scrolling sideways, and the wide
// pieces — the manifest's preview table, the history table — fit their cards at 1280 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixture, sendFile, startBothAgentsStack } from './both-agents.ts';
import type { ConsoleStack } from './console-harness.ts';
import { answerQuestion, launchBrowser, openQuestion, signedInPage, VIEWPORT } from './console-harness.ts';

const PHONE = { width: 390, height: 844 };

/** The page's sideways overflow, with the widest offenders named so a failure says what to fix. */
async function sideways(page: Page): Promise<{ scrollWidth: number; clientWidth: number; offenders: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const offenders = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5 && element.getClientRects().length > 0)
      .filter((element) => !element.closest('.table-wrap, .summary-table-wrap, .table-card'))
      .slice(0, 6)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px)`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, offenders };
  });
}

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, clientWidth, offenders } = await sideways(page);
  expect({ where, fits: scrollWidth <= clientWidth, offenders }).toEqual({ where, fits: true, offenders: [] });
}

/** How far an element's right edge passes the right edge of the card it sits in (0 when it fits). */
const spill = (page: Page, selector: string, card: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element, cardSelector) => {
      const container = element.closest(cardSelector)!;
      return Math.max(0, Math.round(element.getBoundingClientRect().right - container.getBoundingClientRect().right));
    }, card);

describe('the console fits the screen it is on', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startBothAgentsStack(), launchBrowser()]);
    page = await signedInPage(browser, stack.console.url, 'dana');
    // A lesson and a rollback, so the history has a version to roll back to, then two questions waiting.
    await sendFile(page, fixture('email/northgate-billing-prealert.eml'));
    await openQuestion(page, 'billing@origin.example');
    await answerQuestion(page, {
      entry: 'Northgate Motors Ltd',
      remember: { reason: "Northgate's billing desk sends the pre-alerts, and this reason is long enough to wrap in its cell" },
    });
    await page.locator('.show-back .reading').first().waitFor();
    await stack.authority.client.rollback('customers', { version: 1, author: 'dana', reason: 'checking the rollback' });
    await sendFile(page, fixture('email/northgate-billing-storage-invoice-html.eml'));
    await sendFile(page, fixture('manifests/08-air-waybill-no.xlsx'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('shows the manifest preview with its header row, inside its card', async () => {
    await page.setViewportSize(VIEWPORT);
    await openQuestion(page, '08-air-waybill-no.xlsx');
    const preview = page.locator('.about table.summary-table');
    expect(await preview.locator('thead th').allTextContents()).toContain('Air Waybill No');
    // A sheet wider than the card scrolls inside it; the card and the page do not grow.
    expect(await spill(page, '.about .summary-table-wrap', '.card')).toBe(0);
    expect(await spill(page, '.about', '.answer-layout')).toBe(0);
  });

  it('fits the history table in its card at 1280 px, "Roll back" included, and "When" on one line', async () => {
    await page.setViewportSize(VIEWPORT);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('link', { name: /^customers/ }).click();
    await page.locator('table.history').waitFor();
    expect(await spill(page, 'table.history', '.card')).toBe(0);
    const rollBack = page.getByRole('button', { name: 'Undo the changes after this' }).first();
    expect(await rollBack.evaluate((button) => button.getBoundingClientRect().right <= button.closest('.card')!.getBoundingClientRect().right)).toBe(true);
    const when = page.locator('table.history tbody tr').first().locator('time');
    expect(await when.evaluate((element) => element.getClientRects().length)).toBe(1);
  });

  it('never scrolls sideways at 390 px, on any page', async () => {
    await page.setViewportSize(PHONE);
    await page.getByRole('link', { name: /^Questions/ }).click();
    await page.locator('li.question-row').first().waitFor();
    await expectNoSidewaysScroll(page, 'questions');

    await openQuestion(page, 'billing@origin.example');
    await page.getByRole('checkbox', { name: /^Remember this/ }).check();
    await expectNoSidewaysScroll(page, 'email question, remember this open');
    await page.getByRole('radio', { name: 'Northgate Motors Ltd', exact: true }).check();
    await page.getByLabel('Why').fill('Their billing desk');
    await page.getByRole('button', { name: 'Check what this lesson would do' }).click();
    await page.locator('.preview-box .notice').waitFor();
    await expectNoSidewaysScroll(page, 'email question, the lesson previewed');
    await page.getByRole('radio', { name: 'A new customer…', exact: true }).check();
    await expectNoSidewaysScroll(page, 'email question, a new customer');

    await openQuestion(page, '08-air-waybill-no.xlsx');
    await page.getByRole('checkbox', { name: /^Remember this/ }).check();
    await expectNoSidewaysScroll(page, 'manifest question, remember this open');

    await page.getByRole('link', { name: 'Send' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectNoSidewaysScroll(page, 'send');

    await page.getByRole('link', { name: 'History' }).click();
    await page.locator('table.history').waitFor();
    await expectNoSidewaysScroll(page, 'history');
    await page.getByRole('button', { name: 'Undo the changes after this' }).first().click();
    await expectNoSidewaysScroll(page, 'history, rollback form open');

    await page.goto(`${stack.console.url}/#/entries/customers/northgate`);
    await page.getByRole('heading', { name: 'Northgate Motors Ltd', level: 1 }).waitFor();
    await expectNoSidewaysScroll(page, 'entry');

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.locator('svg.chart, .stats').first().waitFor();
    await expectNoSidewaysScroll(page, 'dashboard');

    await page.getByRole('link', { name: /^Questions/ }).click();
    await page.locator('.recent tbody tr a').first().click();
    await page.getByRole('heading', { name: 'Task', level: 1 }).waitFor();
    await expectNoSidewaysScroll(page, 'task');
    await page.getByRole('button', { name: 'This decision was wrong…' }).click();
    await page.getByLabel('What should it have been?').waitFor();
    await expectNoSidewaysScroll(page, 'task, correction form open');

    // Every link of the navigation is on screen, none cut off.
    const cut = await page
      .locator('header.top nav a')
      .evaluateAll((links) => links.filter((link) => link.getBoundingClientRect().right > document.documentElement.clientWidth).length);
    expect(cut).toBe(0);

    const signedOut = await browser.newPage({ viewport: PHONE });
    await signedOut.goto(stack.console.url);
    await signedOut.getByLabel('Your name').waitFor();
    await expectNoSidewaysScroll(signedOut, 'sign-in');
    await signedOut.close();
  }, 60_000);
});
