// Sending files: several at once, each to the agent that reads it and each reported; the button
// does not send twice; a file sent before (same bytes, or same Message-ID) is flagged first.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixture, startBothAgentsStack } from './both-agents.ts';
import type { ConsoleStack } from './console-harness.ts';
import { launchBrowser, signedInPage } from './console-harness.ts';

describe('the console, through a browser: sending files', () => {
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

  it('sends two files at once, each to its agent, reports each, and cannot send them twice', async () => {
    await page.getByRole('link', { name: 'Send' }).click();
    await page.locator('input[type=file]').setInputFiles([fixture('email/northgate-billing-prealert.eml'), fixture('manifests/08-air-waybill-no.xlsx')]);
    expect(await page.locator('.file-details li.picked').count()).toBe(2);
    expect(await page.locator('.file-details').textContent()).toContain('Excel workbook');
    expect(await page.locator('.file-details').textContent()).not.toContain('application/vnd');
    const send = page.getByRole('button', { name: 'Send 2 files' });
    await expect.poll(() => send.isEnabled()).toBe(true);
    await send.click();
    const outcomes = page.locator('.send-result .outcomes > li');
    await expect.poll(() => outcomes.filter({ hasText: /has a question|decided/ }).count(), { timeout: 20_000 }).toBe(2);
    expect(await outcomes.nth(0).textContent()).toContain('northgate-billing-prealert.eml → Email intake agent');
    expect(await outcomes.nth(1).textContent()).toContain('08-air-waybill-no.xlsx → ');
    // Nothing is still picked: the button cannot send them again.
    expect(await page.getByRole('button', { name: /^Send (file|\d+ files)$/ }).isDisabled()).toBe(true);
  }, 60_000);

  it('flags a file sent before, by its bytes or by its Message-ID, and sends it again only when asked', async () => {
    await page.locator('input[type=file]').setInputFiles(fixture('email/northgate-billing-prealert.eml'));
    const duplicate = page.locator('.duplicate');
    await duplicate.waitFor();
    expect(await duplicate.textContent()).toContain('Sent before: the same file (northgate-billing-prealert.eml) went to Email intake agent');
    const send = page.getByRole('button', { name: 'Send file' });
    expect(await send.isDisabled()).toBe(true);

    // The same message saved again with one more header: other bytes, the same Message-ID.
    const copy = Buffer.concat([Buffer.from('X-Saved-Again: yes\r\n'), readFileSync(fixture('email/northgate-billing-prealert.eml'))]);
    await page.locator('input[type=file]').setInputFiles({ name: 'copy.eml', mimeType: 'message/rfc822', buffer: copy });
    await duplicate.filter({ hasText: 'Message-ID' }).waitFor();
    expect(await duplicate.textContent()).toContain('a message with the same Message-ID (northgate-billing-prealert.eml)');
    expect(await send.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Send it again anyway' }).check();
    expect(await send.isEnabled()).toBe(true);
    await send.click();
    await expect.poll(() => page.locator('.send-result').textContent(), { timeout: 20_000 }).toMatch(/has a question|decided/);
  }, 60_000);
});
