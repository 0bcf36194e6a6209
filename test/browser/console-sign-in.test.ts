// Signing in to the console with a real account, and what the page does when a session ends under
// it: a refused or tampered cookie sends the operator to sign in, and back to the same page after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnableAgent } from '@learnables/runtime';
import type { Browser } from 'playwright-core';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { launchBrowser, passwordOf, signedInPage, startConsoleStack, VIEWPORT } from './console-harness.ts';

describe('signing in to the console', () => {
  let stack: ConsoleStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack({ agents: [wordAgent as LearnableAgent<unknown, unknown>] }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('refuses a wrong password in words, keeps the name, and lets the right one in', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(stack.console.url);
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
    await page.getByLabel('Your name').fill('lee');
    await page.getByLabel('Password').fill('lee guesses');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That name and password do not match an account. Check both and try again.' }).waitFor();
    expect(await page.getByLabel('Your name').inputValue()).toBe('lee');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('operator-password');

    // A sign-in that takes seconds (a slow password hash under load) says it is under way. The
    // request is held back in the browser until the sentence has been read, then goes on unchanged.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/session', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.getByLabel('Password').fill(passwordOf('lee'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Signing in…' }).waitFor();
    expect(await page.getByRole('button', { name: 'Signing in…' }).isDisabled()).toBe(true);
    expect(await page.getByRole('status').textContent()).toBe('Signing in…');
    release();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.locator('header .operator strong').textContent()).toBe('lee');
    await page.close();
  });

  it('sends the operator to sign in when the session cookie is tampered with, and back to the same page after', async () => {
    const page = await signedInPage(browser, stack.console.url, 'dana');
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
    const [session] = await page.context().cookies(stack.console.url);
    expect(session).toMatchObject({ name: 'learnables-session', httpOnly: true, sameSite: 'Strict' });
    const [version, payload, signature] = session!.value.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const asLee = Buffer.from(JSON.stringify({ ...claims, u: 'lee' })).toString('base64url');
    await page.context().addCookies([{ name: 'learnables-session', value: `${version}.${asLee}.${signature}`, url: stack.console.url }]);

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/^Your session has ended/);
    expect(page.url()).toMatch(/#\/dashboard$/);
    await page.getByLabel('Your name').fill('dana');
    await page.getByLabel('Password').fill(passwordOf('dana'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Questions per 100 messages', level: 1 }).waitFor();
    expect(await page.locator('header .operator strong').textContent()).toBe('dana');
    await page.close();
  });

  it('signs out: the page shows the sign-in form, and the old cookie no longer reads anything', async () => {
    const page = await signedInPage(browser, stack.console.url, 'sam');
    const [before] = await page.context().cookies(stack.console.url);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.context().cookies(stack.console.url)).toEqual([]);
    const reread = await fetch(`${stack.console.url}/api/questions`, { headers: { cookie: `learnables-session=${before!.value}` } });
    expect(reread.status).toBe(401);
    await page.close();
  });
});
