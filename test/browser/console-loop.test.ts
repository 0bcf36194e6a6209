// The whole teach loop through the console's UI, with a real authority, a real learnable agent
// (the word agent: its lesson field is `word`) and Debian's Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { LearnableAgent } from '@learnables/runtime';
import type { Browser, Page } from 'playwright-core';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { answerQuestion, launchBrowser, openQuestion, questionCard, screenshot, sendText, signedInPage, startConsoleStack } from './console-harness.ts';

/** Six weeks of dated messages, fewer questions each week, so the dashboard has a line to draw. */
const WEEKS = [
  { week: '2026-10-05', asked: ['plums', 'pears', 'figs'] },
  { week: '2026-10-12', asked: ['dates', 'limes', 'yams'] },
  { week: '2026-10-19', asked: ['okra', 'leeks'] },
  { week: '2026-10-26', asked: ['kale'] },
  { week: '2026-11-02', asked: ['chard'] },
  { week: '2026-11-09', asked: [] },
];

describe('the console, through a browser: the whole teach loop', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let client: Client;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack({ agents: [wordAgent as LearnableAgent<unknown, unknown>] }), launchBrowser()]);
    client = await stack.sdk(stack.agents[0]!);
    for (const { week, asked } of WEEKS) {
      for (const word of asked) await sendText(client, `date:${week} a crate of ${word}`);
      for (let settled = asked.length; settled < 4; settled++) await sendText(client, `date:${week} banana boxes`);
    }
    page = await signedInPage(browser, stack.console.url, 'dana');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('draws questions per 100 messages, week by week, on the dashboard', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.locator('svg.chart').waitFor();
    expect(await page.locator('svg.chart title').first().textContent()).toBe('Questions per 100 messages, Word list agent, by week');
    expect(await page.locator('svg.chart circle.point').count()).toBe(WEEKS.length);
    // Four messages a week are too few for a headline figure: the dashboard says so instead.
    expect(await page.locator('.stats .figure').count()).toBe(0);
    expect(await page.locator('.headline.few').textContent()).toContain('No week has 20 messages yet');
    const described = (await page.locator('svg.chart desc').textContent()) ?? '';
    expect(described).toMatch(/^From 75 per 100 in the week of .+ \(4 messages\) to 0 per 100 in the week of .+ \(4 messages\)\./);
    expect(described).toContain('6 weeks had fewer than 20 messages and are drawn hollow.');
    await screenshot(page, 'dashboard');
  });

  it('sends, asks, answers with a lesson, shows back, decides the next message alone, and rolls back', async () => {
    // Send a note through the Send page: the agent is chosen from its card's input modes.
    await page.getByRole('link', { name: 'Send' }).click();
    await page.getByLabel('Text').fill('kiwi salad');
    await expect.poll(() => page.locator('.route').textContent()).toBe('Goes to Word list agent.');
    await page.getByRole('button', { name: 'Send note' }).click();
    await expect.poll(() => page.locator('.send-result').textContent()).toContain('Word list agent has a question: Which list does this text belong to?');

    // The inbox shows it, newest first, with the agent's summary rendered blind.
    const card = await questionCard(page, 'kiwi salad');
    await expect.poll(() => page.locator('li.question-row').first().textContent()).toContain('kiwi salad');
    expect(await card.locator('.row-agent').textContent()).toBe('Word list agent');
    expect(await card.locator('.row-about').textContent()).toBe('kiwi salad');
    expect(await card.locator('.row-question').textContent()).toBe('Which list does this text belong to?');
    expect(await card.locator('.row-waiting').textContent()).toBe('waiting under a minute');
    expect(await page.locator('li.question-row').count()).toBe(11);
    await screenshot(page, 'inbox');

    // The form is drawn from the card and prefilled from the suggestion.
    await card.locator('a.row-link').click();
    const form = page.locator('form.answer-form');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Which list does this text belong to?');
    expect(await form.getByRole('radio').count()).toBe(2);
    await form.getByRole('radio', { name: 'List alpha', exact: true }).check();
    await form.getByRole('checkbox', { name: /^Remember this/ }).check();
    expect(await form.getByLabel('Word', { exact: true }).inputValue()).toBe('kiwi');
    expect(await form.locator('.honesty').textContent()).toContain('takes effect on the next message');
    await form.getByLabel('Why').fill('Kiwis go on list alpha');
    await screenshot(page, 'answer-form');
    // Before the lesson is kept, the console shows what it would do to recent messages.
    await form.getByRole('button', { name: 'Check what this lesson would do' }).click();
    await form.locator('.preview-box .notice').waitFor();
    expect(await form.locator('.preview-box').textContent()).toContain("What this lesson would do: alpha knows the word 'kiwi'.");
    await form.getByRole('button', { name: 'Confirm: answer and remember' }).click();

    // Show-back: the same message read again, in the agent's words, settled.
    await page.locator('.show-back .reading').first().waitFor();
    expect(await page.locator('.show-back .reading.settled .reads').textContent()).toBe('Belongs to List alpha');
    expect(await page.locator('.lesson-kept').textContent()).toContain("Remembered: alpha knows the word 'kiwi'.");
    await screenshot(page, 'show-back');
    const taught = (await stack.authority.client.history('lists')).activations[0];
    expect(taught).toMatchObject({ version: 2, kind: 'lesson', author: 'dana', reason: 'Kiwis go on list alpha', client: 'console' });

    // No version number reaches the clerk: the confirmation names what was learned, not where it was filed.
    expect(await page.locator('main').textContent()).not.toMatch(/\bv\d|version \d/i);

    // The next message is decided without a question: a second task, on version 2.
    await page.getByRole('link', { name: 'Send' }).click();
    await page.getByLabel('Text').fill('kiwi tart');
    await page.getByRole('button', { name: 'Send note' }).click();
    await expect.poll(() => page.locator('.send-result').textContent()).toContain('Word list agent decided: Belongs to List alpha');
    expect(await page.locator('.send-result a.version-link').textContent()).toBe('what it knew of lists then');
    // The result links to the message's own page, where a wrong decision is corrected.
    await page.locator('.send-result a.task-link').click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Task');
    expect(await page.locator('.said').textContent()).toBe('Belongs to List alpha');
    await page.getByRole('link', { name: 'Questions' }).click();
    await page.locator('.recent table').waitFor();
    expect(await page.locator('li.question-row').filter({ hasText: 'kiwi tart' }).count()).toBe(0);
    expect(await page.locator('.recent tbody tr').first().textContent()).toContain('kiwi tart');

    // The decided task links to the history at the point that decided it; undo the lesson from there.
    await page.locator('.recent tbody tr').first().getByRole('link', { name: 'kiwi tart' }).click();
    await page.getByRole('link', { name: 'what it knew of lists then' }).first().click();
    await page.locator('table.history').waitFor();
    expect(await page.locator('tr.highlight').textContent()).toContain("Taught by dana: alpha knows the word 'kiwi', because “Kiwis go on list alpha”.");
    await page.getByRole('button', { name: 'Undo the changes after this' }).click();
    await page.getByLabel(/^Why undo the changes made after “Set up with what it started from/).fill('Kiwis were a mistake');
    await page.getByRole('button', { name: 'Confirm: undo the changes after this' }).click();
    await expect
      .poll(() => page.locator('.rollback-done').textContent())
      .toBe('Undone: 1 change is no longer in effect. It stays in this history, and can be brought back from here.');
    expect(await page.locator('tr.active').textContent()).toContain('Undone by dana: every change after “Set up with what it started from');
    expect(await page.locator('tr.active').textContent()).toContain('because “Kiwis were a mistake”');
    expect(await page.locator('table.history').textContent()).not.toMatch(/\bv\d|version \d/i);
    await screenshot(page, 'history');
    expect((await stack.authority.client.history('lists')).activations[0]).toMatchObject({
      version: 1,
      kind: 'rollback',
      author: 'dana',
      reason: 'Kiwis were a mistake',
    });

    // With the lesson rolled back, a third message asks again.
    const third = await sendText(client, 'kiwi pie');
    expect(third.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    await questionCard(page, 'kiwi pie');
  }, 60_000);

  it('shows a refusal next to the field it names, word for word, and leaves the question unanswered', async () => {
    const asked = await sendText(client, 'fig roll');
    const before = (await stack.authority.client.history('lists')).activations[0];
    await openQuestion(page, 'fig roll');
    await answerQuestion(page, { entry: 'List beta', remember: { reason: 'rolls are beta', fields: { Word: '   ' } } });

    const word = page.locator('.field').filter({ has: page.getByLabel('Word', { exact: true }) });
    await word.locator('.field-error:not([hidden])').waitFor();
    expect(await word.locator('.field-error').textContent()).toBe('a word list needs a word');
    expect(await page.getByLabel('Word', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('form.answer-form').isVisible()).toBe(true);

    const task = await client.getTask({ tenant: '', id: asked.id, historyLength: 1 });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect((await stack.authority.client.history('lists')).activations[0]).toEqual(before);
    await questionCard(page, 'fig roll');
  });
});
