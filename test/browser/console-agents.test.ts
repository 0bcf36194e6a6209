// The whole loop through the console for both real agents: an email and a manifest, each asked
// about, answered with "remember this", shown back, decided alone next time, and rolled back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixture, sendFile, startBothAgentsStack } from './both-agents.ts';
import type { ConsoleStack } from './console-harness.ts';
import { answerQuestion, launchBrowser, openQuestion, questionCard, screenshot, signedInPage } from './console-harness.ts';

describe('the console with both agents, through a browser', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startBothAgentsStack(), launchBrowser()]);
    page = await signedInPage(browser, stack.console.url, 'dana');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('email: asks whose message it is, learns from the form, decides the next one alone, asks again after rollback', async () => {
    expect(await sendFile(page, fixture('email/northgate-billing-prealert.eml'))).toContain('has a question: Which customer does this message belong to?');
    await openQuestion(page, 'billing@origin.example');
    const form = page.locator('form.answer-form');
    // The form is the card's: text fields and a choice, prefilled from the suggestion. Origin's
    // billing desk names its consignee, so what it offers is Northgate's name on Origin's mail.
    expect(await form.getByLabel('Text that gives the customer away', { exact: true }).inputValue()).toBe('(?:^|[^0-9a-z])Northgate\\s+Motors(?:$|[^0-9a-z])');
    expect(await form.getByLabel('Where to look', { exact: true }).evaluate((el) => el.tagName)).toBe('SELECT');
    expect(await form.getByLabel('Where to look', { exact: true }).inputValue()).toBe('any');
    expect(await form.getByLabel('Only in mail from', { exact: true }).inputValue()).toBe('<billing@origin\\.example>');
    await screenshot(page, 'email-question');
    await answerQuestion(page, { entry: 'Northgate Motors Ltd', remember: { reason: "Northgate's billing desk sends the pre-alerts" } });
    await page.locator('.show-back .reading').first().waitFor();
    expect(await page.locator('.show-back .reading.settled .reads').textContent()).toContain('Northgate Motors Ltd');
    await screenshot(page, 'email-show-back');
    expect((await stack.authority.client.history('customers')).activations[0]).toMatchObject({
      version: 2,
      author: 'dana',
      audit: "northgate learned: matches '(?:^|[^0-9a-z])Northgate\\s+Motors(?:$|[^0-9a-z])' in the any of mail from '<billing@origin\\.example>'",
    });

    expect(await sendFile(page, fixture('email/northgate-billing-statement-csv.eml'))).toContain('decided');

    await stack.authority.client.rollback('customers', { version: 1, author: 'dana', reason: 'checking the rollback' });
    expect(await sendFile(page, fixture('email/northgate-billing-storage-invoice-html.eml'))).toContain('has a question');
    await questionCard(page, 'billing@origin.example');
  }, 60_000);

  it('manifest: asks which column holds the waybill, learns the heading, maps the next sheet alone', async () => {
    expect(await sendFile(page, fixture('manifests/08-air-waybill-no.xlsx'))).toContain('Which column holds the waybill number?');
    await openQuestion(page, '08-air-waybill-no.xlsx');
    const form = page.locator('form.answer-form');
    expect(await form.getByLabel('Column heading', { exact: true }).inputValue()).toBe('Air Waybill No');
    await screenshot(page, 'manifest-question');
    await answerQuestion(page, { entry: 'Air Waybill No', remember: { reason: 'the new forwarder heads it that way' } });
    await page.locator('.show-back .reading').first().waitFor();
    expect(await page.locator('.show-back .reading.settled .reads').allTextContents()).toContain(
      "reads waybill from the 'Air Waybill No' column; 6 of 6 values in 'Air Waybill No' are air waybill numbers with a valid check digit",
    );
    expect((await stack.authority.client.history('mappings')).activations[0]).toMatchObject({
      version: 2,
      audit: "reads waybill from the 'Air Waybill No' column",
    });
    expect(await sendFile(page, fixture('manifests/09-air-waybill-no-second.xlsx'))).toContain('decided');
  }, 60_000);
});
