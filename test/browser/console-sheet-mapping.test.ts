// A question about one field of a sheet shows, beside it, what the agent reads for every other field
// now (for a manifest: the column each field was read from), in the agent's own words, so the clerk
// sees the whole sheet's mapping at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixture, sendFile, startBothAgentsStack } from './both-agents.ts';
import type { ConsoleStack } from './console-harness.ts';
import { launchBrowser, openQuestion, signedInPage } from './console-harness.ts';

describe('a question about one column of a sheet', () => {
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

  it('lists what the agent reads for every field, the one asked about among them', async () => {
    expect(await sendFile(page, fixture('manifests/08-air-waybill-no.xlsx'))).toContain('Which column holds the waybill number?');
    await openQuestion(page, '08-air-waybill-no');
    const readings = page.locator('.current-readings li.reading');
    await readings.first().waitFor({ timeout: 10_000 });
    const names = await page.locator('.current-readings .reading-name').allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(5);
    expect(names).toContain('Waybill');
    expect(await page.locator('.current-readings li.reading.unsettled .reading-name').allTextContents()).toContain('Waybill');
    expect(await page.locator('.current-readings li.reading.settled').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('.current-readings .reads').allTextContents()).toContain(
      "reads weight from the 'Weight (kg)' column; 6 of 6 values in 'Weight (kg)' are weights (a number, with or without kg or lb)",
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });
});
