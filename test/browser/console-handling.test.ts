// The console serves the model-decided handling agent without a line of its own: the question and
// its answers come from the task, the lesson form from the card (one text field, prefilled with the
// description), and the promise from decidedBy "hybrid" — one example among many, never "the next
// message". After the lesson, show-back reads the message again under the live version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeeds } from '@learnables/authority';
import { handlingAgent, handlingExamplesKind, seedsFolder } from '@learnables/handling-agent';
import type { LearnableAgent } from '@learnables/runtime';
import type { Browser, Page } from 'playwright-core';
import type { ConsoleStack } from './console-harness.ts';
import { answerQuestion, launchBrowser, openQuestion, screenshot, sendText, signedInPage, startConsoleStack } from './console-harness.ts';

const KOI = 'ornamental koi carp in oxygenated bags';

describe('the console and the handling agent (decided by a classifier)', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startConsoleStack({
        agents: [handlingAgent as unknown as LearnableAgent<unknown, unknown>],
        kinds: [handlingExamplesKind],
        seed: (authority) => loadSeeds(authority, seedsFolder),
      }),
      launchBrowser(),
    ]);
    page = await signedInPage(browser, stack.console.url, 'dana');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('asks with the likeliest handling first, draws the example field from the card, and promises one example among many', async () => {
    const asked = await sendText(await stack.sdk(stack.agents[0]!), KOI);
    await openQuestion(page, KOI);
    expect(await page.locator('h1').first().textContent()).toContain('Which handling does this consignment need?');
    // The answers in the order the question gives them: the classifier's likeliest first.
    const teach = asked.status?.message?.metadata?.['https://rsaxb.com/a2a/learnables/v1'] as { entries: { label: string }[] };
    const form = page.locator('form.answer-form');
    expect(teach.entries[0]!.label).toBe('General cargo');
    const labels = await form.getByRole('radio').evaluateAll((radios) => radios.map((radio) => radio.closest('label')?.textContent ?? ''));
    expect(labels.slice(0, teach.entries.length)).toEqual(teach.entries.map((entry) => expect.stringContaining(entry.label)));

    await form.getByRole('checkbox', { name: /^Remember this/ }).check();
    const example = form.getByLabel('Example description', { exact: true });
    expect(await example.evaluate((element) => `${element.tagName.toLowerCase()}[type=${element.getAttribute('type')}]`)).toBe('input[type=text]');
    expect(await example.inputValue()).toBe(KOI);
    const promise = await page.locator('.honesty').textContent();
    expect(promise).toContain('one example among many');
    expect(promise).not.toContain('takes effect on the next message');
    await screenshot(page, 'handling-question');
  });

  it('keeps the lesson as one more example and reads the message again: the taught description is decided by it', async () => {
    await answerQuestion(page, { entry: 'Perishable (cold chain)', remember: { reason: 'live fish travel in the cold chain' } });
    const settled = page.locator('.show-back .reading.settled');
    await settled.waitFor();
    expect(await settled.locator('.reads').textContent()).toBe('A taught example of Perishable (cold chain)');
    await screenshot(page, 'handling-show-back');
    expect((await stack.authority.client.history('handling')).activations[0]).toMatchObject({
      author: 'dana',
      audit: `"${KOI}" is an example of Perishable (cold chain) handling`,
    });
  });
});
